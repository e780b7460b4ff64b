import { describe, expect, it } from "vitest";
import { credited, loadExampleTrace, values } from "./fixtures";
import { buildRoleFamilyHeatmap, roleSumsInputs, roleSumsOf } from "./role-family";
import { humanLabelsFrom } from "../rewards/labels";
import type { CreditedTrace } from "./credited";

/*
 * Roles of the example: e1 e8 lead, e2 e4 planner, e3 e5 executor; e6 and
 * e7 have no role and fall back to their agents browser.search and
 * executor_1. Trace B is the example with only `team: 1`: no orchestration
 * channel (absent, no credit) and an automatic tool value of +1 (e5's
 * tool_result succeeded), R_total = 1 + 0.125 + 1 + 1 - 0.12 = 3.005.
 */
function traceB() {
  return { ...loadExampleTrace(), trace_id: "b", rewards: { team: 1 } };
}

const CREDIT = { method: "ccp" as const, preset: "uniform", weights: { task_success: 1, step_quality: 1, orchestration: 1, parallelism_speedup: 1, communication_efficiency: 1, tool_use_correctness: 1, stop_decision: 1, cost: -1 }, normalize: false, r_total: null };

function build(traces: CreditedTrace[]) {
  return buildRoleFamilyHeatmap({ traces: traces.map(roleSumsOf), credit: CREDIT, scope: "group g" });
}

describe("role x family heatmap across traces", () => {
  it("has a row per role (agent when no role), in order of first appearance", () => {
    const m = build([credited(loadExampleTrace())]);
    expect(m.rows.map((r) => r.key)).toEqual(["lead", "planner", "executor", "browser.search", "executor_1"]);
    expect(m.columns.at(-1)!.key).toBe("total");
    expect(m.count_label).toBe("traces");
  });

  it("sums a role's credit within a trace: lead = C(e1) + C(e8)", () => {
    const v = values(build([credited(loadExampleTrace())]));
    expect(v[0]![0]).toBeCloseTo(0.7 ** 6 + 1, 12); // task_success of e1 and e8
    expect(v[0]![2]).toBeCloseTo(0.2, 12); // orchestration 0.1 + 0.1
    expect(v[0]![8]).toBeCloseTo(0.202649 + 1.085, 12);
    expect(v[0]![1]).toBeNull(); // step_quality absent from the trace
  });

  it("averages per-trace sums over the traces that have a value", () => {
    const m = build([credited(loadExampleTrace()), credited(traceB())]);
    const v = values(m);
    const lead = m.cells[0]!;
    // orchestration: only the example has it, so the mean is over 1 trace
    expect(v[0]![2]).toBeCloseTo(0.2, 12);
    expect(lead[2]!.n).toBe(1);
    expect(lead[2]!.refs).toEqual([{ trace_id: "demo-trace-001", event_ids: ["e1", "e8"] }]);
    // tool use, executor (e3, e5): 0.1 in the example, +1 in B -> mean 0.55 over 2 traces
    expect(v[2]![5]).toBeCloseTo(0.55, 12);
    expect(m.cells[2]![5]!.n).toBe(2);
    // task success is the same in both (R = 1): lead 0.7^6 + 1
    expect(v[0]![0]).toBeCloseTo(0.7 ** 6 + 1, 12);
  });

  it("under a baseline only C(v) has values: uniform gives R_total / 8 per event", () => {
    const m = build([credited(loadExampleTrace(), { method: "uniform" }), credited(traceB(), { method: "uniform" })]);
    const v = values(m);
    expect(v.every((row) => row.slice(0, 8).every((x) => x === null))).toBe(true);
    expect(v[0]![8]).toBeCloseTo((2 * (2.405 / 8) + 2 * (3.005 / 8)) / 2, 12); // lead: 2 events per trace
    expect(v[3]![8]).toBeCloseTo((2.405 / 8 + 3.005 / 8) / 2, 12); // browser.search: 1 event
  });

  it("is empty (no rows, domain [-1, 1]) without traces", () => {
    const m = build([]);
    expect(m.rows).toEqual([]);
    expect(m.domain).toEqual([-1, 1]);
    expect(m.subtitle).toMatch(/^0 traces/);
  });
});

describe("a trace's role sums, as kept per trace", () => {
  it("hold per role its events and per column its sum; a baseline gives only the total column", () => {
    const sums = roleSumsOf(credited(loadExampleTrace()));
    expect(sums.roles.map((r) => [r.role, r.event_ids])).toEqual([["lead", ["e1", "e8"]], ["planner", ["e2", "e4"]], ["executor", ["e3", "e5"]], ["browser.search", ["e6"]], ["executor_1", ["e7"]]]);
    expect(sums.roles[0]!.sums[2]).toBeCloseTo(0.2, 12); // orchestration 0.1 + 0.1
    expect(sums.columns[1]).toBe(false); // step_quality absent
    expect(roleSumsOf(credited(loadExampleTrace(), { method: "uniform" })).columns).toEqual([false, false, false, false, false, false, false, false, true]);
  });

  it("are fingerprinted by weights and labels, not by the order labels are read in", () => {
    const W = CREDIT.weights;
    const a = humanLabelsFrom([{ event_id: "e1", family: "step_quality", value: 0.5 }, { event_id: "e1", family: "step_quality", value: -1 }, { event_id: null, family: "task_success", value: 1 }], []);
    const b = humanLabelsFrom([{ event_id: null, family: "task_success", value: 1 }, { event_id: "e1", family: "step_quality", value: -1 }, { event_id: "e1", family: "step_quality", value: 0.5 }], []);
    expect(roleSumsInputs(W, a)).toBe(roleSumsInputs(W, b));
    const changed = humanLabelsFrom([{ event_id: "e1", family: "step_quality", value: 0.5 }, { event_id: "e1", family: "step_quality", value: -0.5 }, { event_id: null, family: "task_success", value: 1 }], []);
    expect(roleSumsInputs(W, changed)).not.toBe(roleSumsInputs(W, a));
    const adjudicated = humanLabelsFrom([{ event_id: "e1", family: "step_quality", value: 0.5 }, { event_id: "e1", family: "step_quality", value: -1 }, { event_id: null, family: "task_success", value: 1 }], [{ event_id: "e1", family: "step_quality", value: 0 }]);
    expect(roleSumsInputs(W, adjudicated)).not.toBe(roleSumsInputs(W, a));
    expect(roleSumsInputs({ ...W, cost: -0.5 }, a)).not.toBe(roleSumsInputs(W, a));
  });
});
