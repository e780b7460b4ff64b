import { describe, expect, it } from "vitest";
import { BUILTIN_PRESETS } from "../rewards/presets";
import { buildEventFamilyHeatmap } from "./event-family";
import { exampleCredited, values } from "./fixtures";

/*
 * Columns: the eight families in SPEC order, then C(v). The example has no
 * step_quality and no stop_decision (no R_f, nobody credited): those columns
 * are gaps. Cost: R = 0.12 shared by 8 events, weight -1 under uniform.
 */
describe("event x family heatmap", () => {
  it("gives each family cell w_f x credit_f(v), gaps for absent families, C(v) last", () => {
    const m = buildEventFamilyHeatmap(exampleCredited());
    expect(m.rows.map((r) => r.key)).toEqual(["e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8"]);
    expect(m.columns.map((c) => c.key)).toEqual([
      "task_success", "step_quality", "orchestration", "parallelism_speedup",
      "communication_efficiency", "tool_use_correctness", "stop_decision", "cost", "total",
    ]);
    const v = values(m);
    // e4, the planner's message: task 0.7^4, communication 1, cost -0.015
    expect(v[3]!.map((x) => (x === null ? null : Number(x.toFixed(12))))).toEqual([0.2401, null, 0, 0, 1, 0, null, -0.015, 1.2251]);
    // e5, the tool call: task 0.7^3, tool 0.1 (the channel's value on its only anchor)
    expect(v[4]![0]).toBeCloseTo(0.343, 12);
    expect(v[4]![5]).toBeCloseTo(0.1, 12);
    expect(v[4]![8]).toBeCloseTo(0.343 + 0.1 - 0.015, 12);
    // e8, the terminal aggregate: task 1, orchestration 0.1
    expect(v[7]![0]).toBe(1);
    expect(v[7]![2]).toBeCloseTo(0.1, 12);
    // the largest |cell| 1.2251, rounded up to a round legend
    expect(m.domain[1]).toBe(2);
    expect(m.notes).toEqual(["Absent from this trace (no R_f, no credit): step quality, stop decision."]);
  });

  it("makes the family cells of a row sum to its C(v)", () => {
    const m = buildEventFamilyHeatmap(exampleCredited({ preset: BUILTIN_PRESETS.multi_source_research, normalize: true }));
    for (const row of values(m)) {
      const families = row.slice(0, 8).reduce<number>((s, x) => s + (x ?? 0), 0);
      expect(families).toBeCloseTo(row[8]!, 12);
    }
  });

  it("follows the weights: code_generation weighs orchestration 0 and cost -0.1", () => {
    const v = values(buildEventFamilyHeatmap(exampleCredited({ preset: BUILTIN_PRESETS.code_generation })));
    expect(v[7]![2]).toBe(0);
    expect(v[7]![7]).toBeCloseTo(-0.0015, 12);
  });

  it("leaves every family cell a gap under a baseline, keeping C(v)", () => {
    const m = buildEventFamilyHeatmap(exampleCredited({ method: "terminal" }));
    const v = values(m);
    expect(v.every((row) => row.slice(0, 8).every((x) => x === null))).toBe(true);
    expect(v.map((row) => row[8])).toEqual([0, 0, 0, 0, 0, 0, 0, 2.405]);
    expect(m.notes[0]).toMatch(/terminal gives no per-family credit/);
  });

  it("pages long traces and says so, with the domain of the whole trace", () => {
    const all = buildEventFamilyHeatmap(exampleCredited());
    const page = buildEventFamilyHeatmap(exampleCredited(), { offset: 2, limit: 3 });
    expect(page.rows.map((r) => r.key)).toEqual(["e3", "e4", "e5"]);
    expect(page.page).toEqual({ offset: 2, limit: 3, total: 8 });
    expect(page.domain).toEqual(all.domain);
    expect(page.notes).toContain("Events 3-5 of 8.");
  });
});
