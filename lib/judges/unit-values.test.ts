import { describe, expect, it } from "vitest";
import { unitValues } from "./unit-values";

const answer = (judge: string, family: string, value: number, reason: string | null = "because") => ({ judge, family, value, reason, model: "m", at: "2026-12-03T00:00:00.000Z" });

describe("unitValues", () => {
  it("says which value credit uses: an adjudication, else people's mean, else the judges' mean", () => {
    const rows = unitValues(
      ["step_quality", "orchestration", "cost"],
      [{ family: "step_quality", value: 1 }, { family: "step_quality", value: 0 }, { family: "orchestration", value: -1 }],
      [{ family: "orchestration", value: 0.5 }],
      [answer("b", "step_quality", -1), answer("a", "cost", 0.5, "many tokens"), answer("b", "cost", -0.5, null), answer("a", "tool_use_correctness", 1)],
    );
    expect(rows.map((r) => [r.family, r.in_credit, r.value])).toEqual([
      ["step_quality", "people", 0.5],
      ["orchestration", "adjudication", 0.5],
      ["cost", "judges", 0],
      // a family the unit does not anchor, but a judge answered: after the unit's own
      ["tool_use_correctness", "judges", 1],
    ]);
    expect(rows[0]!.people).toEqual({ count: 2, mean: 0.5, adjudicated: null });
    expect(rows[0]!.judges.map((j) => j.judge)).toEqual(["b"]);
    expect(rows[2]!.judges.map((j) => [j.judge, j.value, j.reason])).toEqual([["a", 0.5, "many tokens"], ["b", -0.5, null]]);
  });

  it("a family nobody labelled is there with nothing in credit", () => {
    expect(unitValues(["task_success"], [], [], [])).toEqual([
      { family: "task_success", people: { count: 0, mean: null, adjudicated: null }, judges: [], in_credit: "none", value: null },
    ]);
  });
});
