/**
 * The dashboard's scan (a filter off the summaries' grain: a group) groups
 * the trends by the UTC day of created_at and orders the checkpoints by
 * their first trace, a tie by name, "none" last; the means are exact
 * (numeric) sums over counts. Expected values by hand: busy_time 0.1 and
 * 0.2 on one day and one checkpoint have the mean 0.15 (float8 arithmetic
 * would give 0.15000000000000002); 0.1, 0.2 and 1 the mean 1.3 / 3;
 * 23:59:59.999Z and 00:00:00.000Z are two days.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DashboardModel } from "@/lib/dashboard";
import { prisma } from "@/lib/server/db/client";
import { getRequest, jsonRequest, params } from "@/scripts/lib/test-http";
import { POST as ingest } from "../traces/route";
import { GET as dashboard } from "./route";

const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>;
const GROUP = "scan-trends-g";

/** A one-event trace whose only duration is `tEnd` (busy_time = makespan = tEnd). */
function trace(id: string, tEnd: number, checkpoint: string | null) {
  const event = { id: "e1", t: 0, t_end: tEnd, type: "aggregate", agent: "a" };
  return { ...example, trace_id: id, group_id: GROUP, events: [event], edges: [], metadata: checkpoint === null ? {} : { policy_version: checkpoint } };
}

const traces: [id: string, tEnd: number, checkpoint: string | null, createdAt: string][] = [
  ["st-1", 0.1, "ckpt-b", "2026-03-01T08:00:00.000Z"],
  ["st-2", 0.2, "ckpt-a", "2026-03-01T08:00:00.000Z"],
  ["st-3", 1, null, "2026-03-01T23:59:59.999Z"],
  ["st-4", 3, "ckpt-0", "2026-03-02T00:00:00.000Z"],
  ["st-5", 0.1, "ckpt-x", "2026-03-04T10:00:00.000Z"],
  ["st-6", 0.2, "ckpt-x", "2026-03-04T11:00:00.000Z"],
];

beforeAll(async () => {
  await prisma().trace.deleteMany({ where: { groupId: GROUP } });
  expect((await ingest(jsonRequest("/api/traces", traces.map(([id, tEnd, checkpoint]) => trace(id, tEnd, checkpoint))), params({}))).status).toBe(201);
  for (const [id, , , createdAt] of traces) await prisma().trace.update({ where: { traceId: id }, data: { createdAt: new Date(createdAt) } });
});
afterAll(async () => {
  await prisma().trace.deleteMany({ where: { groupId: GROUP } });
});

describe("GET /api/dashboard, the scan's trends", () => {
  it("splits days at UTC midnight, orders checkpoints by first trace then name (none last), and gives exact means", async () => {
    const response = await dashboard(getRequest(`/api/dashboard?group_id=${GROUP}`), params({}));
    expect(response.status).toBe(200);
    const body = (await response.json()) as DashboardModel;
    expect(body.traces).toBe(6);
    expect(body.trends.day.points.map((p) => [p.label, p.traces, p.means.busy_time])).toEqual([
      ["2026-03-01", 3, 0.43333333333333335], // 1.3 / 3 to numeric's 20 digits, read as the nearest double
      ["2026-03-02", 1, 3],
      ["2026-03-03", 0, null],
      ["2026-03-04", 2, 0.15],
    ]);
    expect(body.trends.policy.points.map((p) => [p.key, p.traces, p.means.busy_time])).toEqual([
      ["policy:ckpt-a", 1, 0.2],
      ["policy:ckpt-b", 1, 0.1],
      ["policy:ckpt-0", 1, 3],
      ["policy:ckpt-x", 2, 0.15],
      ["policy:", 1, 1],
    ]);
    expect((0.1 + 0.2) / 2).toBe(0.15000000000000002);
  });
});
