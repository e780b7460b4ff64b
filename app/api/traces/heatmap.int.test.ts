import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { HeatmapModel } from "@/lib/heatmap";
import { prisma } from "@/lib/server/db/client";
import { getRequest, jsonRequest, params, type ErrorBody } from "@/scripts/lib/test-http";
import { GET as roleHeatmap } from "../heatmap/route";
import { GET as traceHeatmap } from "./[id]/heatmap/route";
import { POST } from "./route";

/*
 * The heatmap routes on the paper's example (hand-computed in
 * lib/heatmap/*.test.ts): e1-e8 at t = 0..7, CCP under uniform gives
 * C = 0.202649, 0.31557, 0.31557, 1.2251, 0.428, 0.475, 0.685, 1.085.
 */
const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>;
const C = [0.202649, 0.31557, 0.31557, 1.2251, 0.428, 0.475, 0.685, 1.085];

async function get(url: string, id?: string) {
  const response = id === undefined ? await roleHeatmap(getRequest(url), params({})) : await traceHeatmap(getRequest(url), params({ id }));
  return { status: response.status, body: (await response.json()) as HeatmapModel & ErrorBody };
}

const rounded = (m: HeatmapModel) => m.cells.map((r) => r.map((c) => (c.value === null ? null : Number(c.value.toFixed(9)))));

beforeAll(async () => {
  await prisma().trace.deleteMany();
  // labels are keyed by trace_id and outlive their trace (an upsert keeps them): other files label these ids too
  const traceKey = { in: ["demo-trace-001", "hm-b"] };
  await Promise.all([prisma().annotation.deleteMany({ where: { traceKey } }), prisma().adjudication.deleteMany({ where: { traceKey } }), prisma().judgeLabel.deleteMany({ where: { traceKey } })]);
  const variant = { ...example, trace_id: "hm-b", rewards: { team: 1 }, group_id: "hm-g" };
  const response = await POST(jsonRequest("/api/traces", [{ ...example, group_id: "hm-g" }, variant]), params({}));
  expect(response.status).toBe(201);
});

describe("GET /api/traces/{id}/heatmap", () => {
  it("agent x time: 4 agents x 4 buckets of 1.75 s, sums of C(v), gaps for empty cells", async () => {
    const { status, body } = await get("/api/traces/demo-trace-001/heatmap?kind=agent-time&buckets=4", "demo-trace-001");
    expect(status).toBe(200);
    expect(body.rows.map((r) => r.key)).toEqual(["orchestrator", "planner_1", "executor_1", "browser.search"]);
    expect(rounded(body)).toEqual([
      [Number((C[0]! + C[1]!).toFixed(9)), C[2], null, C[7]],
      [null, C[3], null, null],
      [null, null, C[4], C[6]],
      [null, null, C[5], null],
    ]);
    expect(body.cells[0]![0]!.refs).toEqual([{ trace_id: "demo-trace-001", event_ids: ["e1", "e2"] }]);
    expect(body.domain).toEqual([-body.domain[1], body.domain[1]]);
    // the largest |cell| is 1.2251; the domain is the round number above it whose half is round too
    expect(Math.max(...body.cells.flat().map((c) => Math.abs(c.value ?? 0)))).toBeCloseTo(1.2251, 9);
    expect(body.domain[1]).toBe(2);
    expect(body.credit).toMatchObject({ method: "ccp", preset: "uniform", normalize: false });
  });

  it("event x family under a baseline: C(v) only, the uniform share 2.405 / 8", async () => {
    const { body } = await get("/api/traces/demo-trace-001/heatmap?kind=event-family&method=uniform", "demo-trace-001");
    expect(body.rows).toHaveLength(8);
    expect(body.columns).toHaveLength(9);
    expect(body.cells.every((r) => r.slice(0, 8).every((c) => c.value === null))).toBe(true);
    expect(body.cells.map((r) => r[8]!.value)).toEqual(Array(8).fill(2.405 / 8));
  });

  it("applies weight overrides and says so", async () => {
    const { body } = await get("/api/traces/demo-trace-001/heatmap?kind=event-family&w.communication_efficiency=0", "demo-trace-001");
    expect(body.cells[3]![4]!.value).toBe(0); // e4's communication credit, weighed 0
    expect(body.cells[3]![8]!.value).toBeCloseTo(1.2251 - 1, 9);
    expect(body.subtitle).toContain("w.communication_efficiency=0");
  });

  it("refuses bad parameters with their names as paths, and unknown traces with 404", async () => {
    const bad = await get("/api/traces/demo-trace-001/heatmap?kind=pie&buckets=0&method=best", "demo-trace-001");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d) => d.path).sort()).toEqual(["buckets", "kind"]);
    expect((await get("/api/traces/demo-trace-001/heatmap?method=best", "demo-trace-001")).body.error.details[0]!.path).toBe("method");
    expect((await get("/api/traces/nope/heatmap", "nope")).status).toBe(404);
  });
});

describe("GET /api/heatmap?kind=role-family", () => {
  it("averages per-trace role sums over the group: tool use of the executor (0.1 and 1) is 0.55", async () => {
    const { status, body } = await get("/api/heatmap?kind=role-family&group_id=hm-g");
    expect(status).toBe(200);
    expect(body.rows.map((r) => r.key)).toEqual(["lead", "planner", "executor", "browser.search", "executor_1"]);
    expect(body.cells[2]![5]!.value).toBeCloseTo(0.55, 9);
    expect(body.cells[2]![5]!.n).toBe(2);
    expect(body.cells[0]![2]!.value).toBeCloseTo(0.2, 9); // orchestration, only the example has it
    expect(body.title).toBe("Credit by role and family: group hm-g");
  });

  it("says when it used fewer traces than matched, and skips traces without a group for grpo", async () => {
    // all traces: counted from the metric summaries' cells; a group: counted from the traces
    const capped = await get("/api/heatmap?kind=role-family&max_traces=1");
    expect(capped.body.notes[0]).toBe("The 1 oldest of 2 matching traces (max_traces=1).");
    const group = await get("/api/heatmap?kind=role-family&group_id=hm-g&max_traces=1");
    expect(group.body.notes[0]).toBe("The 1 oldest of 2 matching traces (max_traces=1).");
    expect((await get("/api/heatmap?kind=role-family&system=none-such&max_traces=1")).body.notes).toEqual([]);
    const grpo = await get("/api/heatmap?kind=role-family&method=grpo&group_id=hm-g");
    expect(grpo.status).toBe(200);
    expect(grpo.body.cells[0]!.at(-1)!.n).toBe(2);
  });
});
