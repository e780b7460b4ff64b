/**
 * Every aggregate stays answerable for every finite number the input accepts:
 * subnormals (5e-324) and SPEC's 1e15 limit, stored in the per-trace metric
 * columns, never make PostgreSQL's float8 arithmetic fail ("underflow", "out
 * of range") in a mean or a median. Expected values by hand: the mean of
 * {5e-324, 0, 0} is 1.65e-324, below half the smallest double, so 0; the
 * median is 0; a checkpoint of one trace has that trace's value as its mean.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "@/lib/server/db/client";
import { getRequest, jsonRequest, params } from "@/scripts/lib/test-http";
import { GET as decisions } from "../decisions/route";
import { GET as metrics } from "../metrics/route";
import { POST as ingest } from "../traces/route";
import { GET as dashboard } from "./route";

const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown> & { events: Record<string, unknown>[] };
const PROJECT = "extreme-numbers";
const ids = ["tiny-a", "tiny-b", "tiny-c"];

/** A one-event trace whose only duration is `tEnd` (busy_time = makespan = tEnd). */
function tinyTrace(id: string, tEnd: number, checkpoint: string) {
  const event = { id: "e1", t: 0, t_end: tEnd, type: "aggregate", agent: "a", tokens: 5e-324 };
  return { ...example, trace_id: id, project: PROJECT, events: [event], edges: [], metadata: { policy_version: checkpoint }, costs: { ...(example.costs as object), tokens: 5e-324 }, rewards: {} };
}

beforeAll(async () => {
  await prisma().trace.deleteMany({ where: { traceId: { in: ids } } });
  const body = [tinyTrace("tiny-a", 5e-324, "ckpt-1"), tinyTrace("tiny-b", 0, "ckpt-2"), tinyTrace("tiny-c", 0, "ckpt-3")];
  expect((await ingest(jsonRequest("/api/traces", body), params({}))).status).toBe(201);
});
afterAll(async () => {
  await prisma().trace.deleteMany({ where: { traceId: { in: ids } } });
});

const get = async (handler: (r: Request, c: { params: Promise<object> }) => Promise<Response>, url: string) => {
  const response = await handler(getRequest(url), params({}));
  const body = (await response.json()) as Record<string, unknown>;
  expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(200);
  return body;
};

describe("aggregates over subnormal values", () => {
  it("GET /api/metrics: mean of {5e-324, 0, 0} is 0 (rounded), median 0", async () => {
    const all = (await get(metrics, `/api/metrics?project=${PROJECT}`)) as { traces: number; e2: Record<string, { mean: number; median: number }> };
    expect(all.traces).toBe(3);
    expect(all.e2.busy_time).toEqual({ mean: 0, median: 0 });
    expect(all.e2.makespan).toEqual({ mean: 0, median: 0 });
  });

  it("GET /api/dashboard: one trend row per checkpoint, the tiny trace's mean is 5e-324 itself", async () => {
    const model = (await get(dashboard, `/api/dashboard?project=${PROJECT}`)) as { policies?: unknown; trends?: unknown };
    const text = JSON.stringify(model);
    expect(text).toContain("ckpt-1");
    expect(text).toContain("ckpt-3");
    expect(text).toContain("5e-324");
  });

  it("GET /api/decisions answers over them", async () => {
    await get(decisions, `/api/decisions?project=${PROJECT}`);
  });
});
