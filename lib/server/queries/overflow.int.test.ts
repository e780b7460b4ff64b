import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as dashboard } from "@/app/api/dashboard/route";
import { GET as barTraces } from "@/app/api/dashboard/traces/route";
import { GET as metrics } from "@/app/api/metrics/route";
import { POST as ingest } from "@/app/api/traces/route";
import { prisma } from "@/lib/server/db/client";
import { exampleTrace } from "@/scripts/lib/test-auth";
import { getRequest, jsonRequest, params } from "@/scripts/lib/test-http";

/*
 * Aggregates over stored values near the float8 limit (1.7976931348623157e308):
 * stored before SPEC's 1e15 limit, or written by another tool. Sums and
 * differences of such values overflow float8 and made PostgreSQL answer
 * "value out of range: overflow", a 500 on every dashboard.
 */
const group = "overflow-g";
const HUGE = 1.7e308;

beforeAll(async () => {
  const traces = ["o1", "o2", "o3"].map((id) => ({ ...exampleTrace(id), group_id: group }));
  expect((await ingest(jsonRequest("/api/traces", traces), params({}))).status).toBe(201);
  await prisma().$executeRaw`UPDATE traces SET busy_time = ${HUGE}, makespan = ${HUGE}, speedup = ${HUGE} WHERE trace_id = 'auth-test-o1'`;
  await prisma().$executeRaw`UPDATE traces SET busy_time = ${HUGE}, makespan = ${-HUGE}, speedup = ${HUGE} WHERE trace_id = 'auth-test-o2'`;
});
afterAll(async () => {
  await prisma().trace.deleteMany({ where: { groupId: group } });
});

describe("aggregates over values near 1e308", () => {
  it("GET /api/metrics: means and medians computed without overflow", async () => {
    const response = await metrics(getRequest(`/api/metrics?group_id=${group}`), params({}));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { traces: number; e2: Record<string, { mean: number | null; median: number | null }> };
    expect(body.traces).toBe(3);
    const busy = (await prisma().trace.findFirstOrThrow({ where: { traceId: "auth-test-o3" } })).busyTime ?? 0;
    // hand-computed: mean of (1.7e308, 1.7e308, b) and its median 1.7e308 (the middle value)
    expect(body.e2.busy_time!.mean).toBeCloseTo((HUGE / 3) * 2 + busy / 3, -300);
    expect(body.e2.busy_time!.median).toBe(HUGE);
    // makespan: 1.7e308, -1.7e308 and the third trace's value (between them): the median is that value
    const makespan = (await prisma().trace.findFirstOrThrow({ where: { traceId: "auth-test-o3" } })).makespan;
    expect(body.e2.makespan!.median).toBe(makespan);
    expect(body.e2.makespan!.mean).toBeCloseTo((makespan ?? 0) / 3, 6);
  });

  it("GET /api/dashboard and the traces behind a histogram bar answer 200", async () => {
    const response = await dashboard(getRequest(`/api/dashboard?group_id=${group}`), params({}));
    expect(response.status).toBe(200);
    const model = (await response.json()) as { traces: number; histograms: { metric: string; edges: number[]; values: number; bars: { count: number }[] }[] };
    expect(model.traces).toBe(3);
    const makespan = model.histograms.find((h) => h.metric === "makespan")!;
    // one bin from -1.7e308 to 1.7e308 holding the three values
    expect([makespan.edges, makespan.values, makespan.bars.reduce((a, b) => a + b.count, 0)]).toEqual([[-HUGE, HUGE], 3, 3]);
    const bar = await barTraces(getRequest(`/api/dashboard/traces?group_id=${group}&bar=makespan:0`), params({}));
    expect(bar.status).toBeLessThan(500);
  });
});
