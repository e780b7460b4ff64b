import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FAMILIES, type Family } from "../trace/types";
import { breakdownLines, rTotalBreakdown } from "./breakdown";
import { rTotal } from "./index";
import { BUILTIN_PRESETS } from "./presets";

const none = () => Object.fromEntries(FAMILIES.map((f) => [f, null])) as Record<Family, number | null>;

describe("rTotalBreakdown", () => {
  it("takes the paper's example apart under the uniform preset (docs/metrics.md: 2.405)", () => {
    const families = { ...none(), task_success: 1, orchestration: 0.3, tool_use_correctness: 0.1, parallelism_speedup: 0.125, communication_efficiency: 1, cost: 0.12 };
    const parts = rTotalBreakdown(families, BUILTIN_PRESETS.uniform.weights);
    expect(parts.map((p) => [p.family, p.contribution])).toEqual([
      ["task_success", 1], ["orchestration", 0.3], ["parallelism_speedup", 0.125], ["communication_efficiency", 1], ["tool_use_correctness", 0.1], ["cost", -0.12],
    ]);
    expect(breakdownLines(parts)).toEqual([
      "task_success 1 × 1 = 1",
      "communication_efficiency 1 × 1 = 1",
      "orchestration 1 × 0.3 = 0.3",
      "parallelism_speedup 1 × 0.125 = 0.125",
      "cost -1 × 0.12 = -0.12",
      "tool_use_correctness 1 × 0.1 = 0.1",
    ]);
  });

  it("shows why a failed run can have a positive R_total: automatic families outweigh task_success -1", () => {
    const families = { ...none(), task_success: -1, communication_efficiency: 1, parallelism_speedup: 0.2 };
    const parts = rTotalBreakdown(families, BUILTIN_PRESETS.uniform.weights);
    expect(parts.reduce((s, p) => s + p.contribution, 0)).toBeCloseTo(0.2, 12);
    // equal effects in SPEC.md's family order
    expect(breakdownLines(parts)).toEqual(["task_success 1 × -1 = -1", "communication_efficiency 1 × 1 = 1", "parallelism_speedup 1 × 0.2 = 0.2"]);
  });

  it("says so when no family has a value", () => {
    expect(breakdownLines(rTotalBreakdown(none(), BUILTIN_PRESETS.uniform.weights))).toEqual(["no family has a trace value"]);
  });

  it("sums to R_total for any values and weights", () => {
    const value = fc.option(fc.double({ min: -1, max: 1, noNaN: true }), { nil: null });
    const weight = fc.double({ min: -5, max: 5, noNaN: true });
    fc.assert(fc.property(fc.tuple(...FAMILIES.map(() => value)), fc.tuple(...FAMILIES.map(() => weight)), (vs, ws) => {
      const families = Object.fromEntries(FAMILIES.map((f, i) => [f, vs[i]!])) as Record<Family, number | null>;
      const weights = Object.fromEntries(FAMILIES.map((f, i) => [f, ws[i]!])) as Record<Family, number>;
      const parts = rTotalBreakdown(families, weights);
      expect(parts.length).toBe(vs.filter((v) => v !== null).length);
      expect(parts.reduce((s, p) => s + p.contribution, 0)).toBe(rTotal(families, weights));
    }));
  });
});
