import { describe, expect, it } from "vitest";
import { humanLabelsFrom, labelValue } from "../rewards/labels";
import { withJudgeValues } from "./merge";

describe("withJudgeValues (humans and adjudications win)", () => {
  const human = humanLabelsFrom([{ event_id: "e4", family: "step_quality", value: 0.5 }], [{ event_id: "e8", family: "step_quality", value: -0.5 }]);
  const merged = withJudgeValues(human, [
    { event_id: "e4", family: "step_quality", value: -1 }, // a person labelled e4
    { event_id: "e7", family: "step_quality", value: 0.4 },
    { event_id: "e7", family: "step_quality", value: 0.8 }, // a second judge: averaged
    { event_id: "e8", family: "step_quality", value: 1 }, // adjudicated
    { event_id: null, family: "task_success", value: 0 },
    { event_id: "e7", family: "not_a_family", value: 1 },
  ]);
  it("fills only units people left empty, averaging judges", () => {
    expect(labelValue(merged.events.get("e4")?.step_quality)).toBe(0.5);
    expect(labelValue(merged.events.get("e7")?.step_quality)).toBeCloseTo(0.6, 12);
    expect(labelValue(merged.events.get("e8")?.step_quality)).toBe(-0.5);
    expect(merged.trace.task_success?.values).toEqual([0]);
  });
  it("leaves people's labels untouched", () => {
    expect(labelValue(human.events.get("e7")?.step_quality)).toBeNull();
    expect(human.trace.task_success).toBeUndefined();
  });
});
