import { describe, expect, it } from "vitest";
import { collusionByCheckpoint, type CollusionInput } from "./collusion";

const g = (policy_version: string | null, units: number, msd: number | null, judge = "j"): CollusionInput => ({
  project: "default", judge, family: "task_success", policy_version, units, mean_signed_difference: msd,
});

describe("collusionByCheckpoint", () => {
  it("measures each checkpoint's judge-minus-people difference from the first checkpoint with enough units", () => {
    const rows = collusionByCheckpoint([g("v3", 3, 0.4), g("v1", 2, 0.9), g("v2", 4, 0.1), g("v4", 5, 0.3), g(null, 9, 1)], ["v1", "v2", "v3", "v4"]);
    expect(rows.map((r) => [r.policy_version, r.baseline_policy_version, r.value === null ? null : Number(r.value.toFixed(12)), r.flagged])).toEqual([
      ["v1", "v2", null, false], // 2 units: too few to say
      ["v2", "v2", 0, false],
      ["v3", "v2", 0.3, true], // 0.4 - 0.1 passes the threshold 0.25
      ["v4", "v2", 0.2, false],
    ]);
  });
  it("a judge lenient at every checkpoint alike is biased, not colluding", () => {
    const rows = collusionByCheckpoint([g("a", 5, 0.6), g("b", 5, 0.6)], ["a", "b"]);
    expect(rows.every((r) => !r.flagged && r.value === 0)).toBe(true);
  });
  it("keeps judges apart, and a judge without a baseline has no value", () => {
    const rows = collusionByCheckpoint([g("a", 1, 0, "x"), g("b", 2, 0.9, "x"), g("a", 3, 0, "y"), g("b", 3, -0.5, "y")], ["a", "b"]);
    expect(rows.filter((r) => r.judge === "x").map((r) => r.value)).toEqual([null, null]);
    expect(rows.filter((r) => r.judge === "y").map((r) => r.value)).toEqual([0, -0.5]);
  });
});
