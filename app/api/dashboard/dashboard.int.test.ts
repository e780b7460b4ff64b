import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { DashboardModel } from "@/lib/dashboard";
import { prisma } from "@/lib/server/db/client";
import { getRequest, jsonRequest, params, type ErrorBody } from "@/scripts/lib/test-http";
import { GET as aggregate } from "../metrics/route";
import { POST } from "../traces/route";
import { GET as dashboard } from "./route";
import { GET as barTraces } from "./traces/route";

/*
 * Three copies of the paper's example in group "db-g": "a" succeeds (its
 * reported task_success 1), "b" fails (reported 0), "c" has no E1 (no
 * metrics, no team channel). All have critical_steps 7 and no durations
 * (speedup null). Uploaded on 2026-01-01 (a), 2026-01-03 (b, c); checkpoints
 * ckpt-2 (a, uploaded first), ckpt-10 (b), none (c).
 */
const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>;

async function get<T>(handler: (r: Request, c: { params: Promise<Record<string, never>> }) => Promise<Response>, url: string) {
  const response = await handler(getRequest(url), params({}));
  return { status: response.status, body: (await response.json()) as T & ErrorBody };
}

beforeAll(async () => {
  await prisma().trace.deleteMany();
  const traces = [
    { ...example, trace_id: "a", group_id: "db-g", metadata: { policy_version: "ckpt-2" } },
    { ...example, trace_id: "b", group_id: "db-g", metrics: { task_success: 0 }, metadata: { policy_version: "ckpt-10" } },
    { ...example, trace_id: "c", group_id: "db-g", metrics: undefined, rewards: { orchestration: 0.3 } },
  ];
  expect((await POST(jsonRequest("/api/traces", traces), params({}))).status).toBe(201);
  await prisma().trace.update({ where: { traceId: "a" }, data: { createdAt: new Date("2026-01-01T10:00:00Z") } });
  await prisma().trace.updateMany({ where: { traceId: { in: ["b", "c"] } }, data: { createdAt: new Date("2026-01-03T23:59:00Z") } });
});

describe("GET /api/dashboard", () => {
  it("gives the E1 rate and Wilson interval of GET /api/metrics for the same filter", async () => {
    const { status, body } = await get<DashboardModel>(dashboard, "/api/dashboard?group_id=db-g");
    const metrics = await get<{ e1: unknown; verdicts: Record<string, number> }>(aggregate, "/api/metrics?group_id=db-g");
    expect(status).toBe(200);
    expect(body.traces).toBe(3);
    const { rate, low, high, n } = body.e1;
    expect({ rate, low, high, n }).toEqual(metrics.body.e1);
    expect(body.e1.bars.map((b) => b.count)).toEqual([1, 1, 1]);
    expect(Object.fromEntries(body.verdicts.bars.map((b) => [b.label, b.count]))).toEqual(metrics.body.verdicts);
  });

  it("draws each value's distribution with nulls apart", async () => {
    const { body } = await get<DashboardModel>(dashboard, "/api/dashboard?group_id=db-g");
    const h = (m: string) => body.histograms.find((x) => x.metric === m)!;
    expect(h("critical_steps").bars.map((b) => [b.label, b.count])).toEqual([["7", 3], ["null", 0]]);
    expect(h("speedup").bars.map((b) => [b.label, b.count])).toEqual([["null", 3]]);
    // protocol_overhead 0.75 for all: the bin 0.7-0.8 of ten
    expect(h("protocol_overhead").bars[7]).toMatchObject({ label: "0.7-0.8", count: 3 });
    expect(h("terminal_tainted").bars.map((b) => b.count)).toEqual([0, 3, 0]);
  });

  it("has trends by day (a day without traces is an empty point) and by checkpoint in upload order", async () => {
    const { body } = await get<DashboardModel>(dashboard, "/api/dashboard?group_id=db-g");
    expect(body.trends.day.points.map((p) => [p.label, p.traces, p.e1.rate])).toEqual([["2026-01-01", 1, 1], ["2026-01-02", 0, null], ["2026-01-03", 2, 0]]);
    expect(body.trends.policy.points.map((p) => [p.key, p.traces])).toEqual([["policy:ckpt-2", 1], ["policy:ckpt-10", 1], ["policy:", 1]]);
    expect(body.trends.day.points[0]!.means.critical_steps).toBe(7);
  });

  it("filters by created_at, both days included", async () => {
    expect((await get<DashboardModel>(dashboard, "/api/dashboard?from=2026-01-02&to=2026-01-03")).body.traces).toBe(2);
    expect((await get<DashboardModel>(dashboard, "/api/dashboard?to=2026-01-01")).body.traces).toBe(1);
    const bad = await get<DashboardModel>(dashboard, "/api/dashboard?from=2026-02-30&to=x");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d) => d.path).sort()).toEqual(["from", "to"]);
  });
});

describe("GET /api/dashboard/traces", () => {
  const ids = async (query: string) => {
    const { status, body } = await get<{ total: number; traces: { trace_id: string }[]; title: string }>(barTraces, `/api/dashboard/traces?group_id=db-g&${query}`);
    expect(status).toBe(200);
    return { ids: body.traces.map((t) => t.trace_id).sort(), total: body.total, title: body.title };
  };

  it("lists the traces behind a bar", async () => {
    expect(await ids("bar=e1:null")).toEqual({ ids: ["c"], total: 1, title: "E1 unknown" });
    expect((await ids("bar=protocol_overhead:7")).ids).toEqual(["a", "b", "c"]);
    expect((await ids("bar=protocol_overhead:2")).ids).toEqual([]);
    expect((await ids("bar=speedup:null")).total).toBe(3);
    expect((await ids("bar=day:2026-01-03")).ids).toEqual(["b", "c"]);
    expect((await ids("bar=policy:")).ids).toEqual(["c"]);
    expect((await ids("bar=policy:ckpt-10")).ids).toEqual(["b"]);
    expect((await ids("bar=verdict:ok")).total).toBeGreaterThan(0);
  });

  it("refuses a bar the dashboard does not have", async () => {
    for (const bar of ["nope", "speedup:0", "critical_steps:5"]) {
      const { status, body } = await get(barTraces, `/api/dashboard/traces?group_id=db-g&bar=${bar}`);
      expect(status).toBe(400);
      expect(body.error.details[0]!.path).toBe("bar");
    }
  });
});

describe("GET /api/dashboard, a range with outliers", () => {
  /*
   * 50 traces of group "clip-g" whose critical_steps are 1..49 and one 10,000.
   * percentile_cont (linear between order statistics, n = 50): p2 at 0.02 x 49
   * = 0.98 past the first value, 1.98; p98 at 48.02, 49 + 0.02 x 9,951 = 248.02.
   * The full range 9,999 is over 4 x (248.02 - 1.98), so the bins cover
   * [1.98, 248.02] and what lies outside is counted apart. Count bins
   * (lib/dashboard/bins.ts): step niceStep((248.02 - 1.98 + 1) / 20 = 12.35)
   * = 20, first edge floor(1.98 / 20) x 20 = 0, floor(248.02 / 20) + 1 = 13
   * bins, edges 0, 20, ..., 260: the 1 falls in the first bin, the 10,000
   * above the last edge, 49 values in the bins.
   */
  it("bins the 2nd-98th percentile range and counts the outliers apart", async () => {
    const ids = Array.from({ length: 50 }, (_, i) => `clip-${i}`);
    try {
      expect((await POST(jsonRequest("/api/traces", ids.map((trace_id) => ({ ...example, trace_id, group_id: "clip-g" }))), params({}))).status).toBe(201);
      await prisma().$executeRaw`UPDATE traces SET critical_steps = CASE WHEN trace_id = 'clip-49' THEN 10000 ELSE substr(trace_id, 6)::int + 1 END WHERE group_id = 'clip-g'`;
      const { body } = await get<DashboardModel>(dashboard, "/api/dashboard?group_id=clip-g");
      const h = body.histograms.find((x) => x.metric === "critical_steps")!;
      expect(h).toMatchObject({ clipped: true, clipped_below: 0, clipped_above: 1 });
      expect(h.edges).toEqual(Array.from({ length: 14 }, (_, i) => 20 * i));
      expect(h.bars.filter((b) => !b.null).map((b) => b.count)).toEqual([19, 20, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    } finally {
      await prisma().trace.deleteMany({ where: { traceId: { in: ids } } });
    }
  });
});
