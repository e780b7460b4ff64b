import { describe, expect, it } from "vitest";
import { humanLabelsFrom, labelValue } from "./labels";

describe("humanLabelsFrom", () => {
  it("groups rows by unit and family, adjudications beside the values", () => {
    const labels = humanLabelsFrom(
      [
        { event_id: null, family: "task_success", value: 1 },
        { event_id: null, family: "task_success", value: 0 },
        { event_id: "e3", family: "step_quality", value: 0.5 },
        { event_id: "e3", family: "step_quality", value: -0.5 },
        { event_id: "e3", family: "made_up", value: 1 },
      ],
      [{ event_id: "e3", family: "step_quality", value: 0.25 }],
    );
    expect(labels.trace).toEqual({ task_success: { values: [1, 0] } });
    expect(labels.events.get("e3")).toEqual({ step_quality: { values: [0.5, -0.5], adjudicated: 0.25 } });
    expect(labels.events.size).toBe(1);
  });
});

describe("labelValue", () => {
  it("is the adjudicated value, else the mean, else null", () => {
    expect(labelValue({ values: [0.2, 0.4], adjudicated: -1 })).toBe(-1);
    expect(labelValue({ values: [0.2, 0.4] })).toBeCloseTo(0.3, 9);
    expect(labelValue({ values: [], adjudicated: null })).toBeNull();
    expect(labelValue(undefined)).toBeNull();
  });
});
