import fc from "fast-check";
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
    expect(labels.trace).toEqual({ task_success: { values: [0, 1] } });
    expect(labels.events.get("e3")).toEqual({ step_quality: { values: [-0.5, 0.5], adjudicated: 0.25 } });
    expect(labels.events.size).toBe(1);
  });

  it("gives the same values, and a bit-identical mean, whatever order the rows arrive in", () => {
    // 0.1 + 0.2 + 0.3 and 0.3 + 0.2 + 0.1 differ in the last bit: a mean must not depend on row order
    expect(0.1 + 0.2 + 0.3).not.toBe(0.3 + 0.2 + 0.1);
    const rows = (values: number[]) => values.map((value) => ({ event_id: "e1", family: "step_quality", value }));
    expect(labelValue(humanLabelsFrom(rows([0.1, 0.2, 0.3])).events.get("e1")!.step_quality)).toBe(
      labelValue(humanLabelsFrom(rows([0.3, 0.2, 0.1])).events.get("e1")!.step_quality),
    );
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 1, maxLength: 12 }), fc.nat(), (values, seed) => {
        const shuffled = [...values].sort((a, b) => ((a * 7919 + seed) % 1) - ((b * 7919 + seed) % 1));
        const a = humanLabelsFrom(rows(values)).events.get("e1")!.step_quality!;
        const b = humanLabelsFrom(rows(shuffled)).events.get("e1")!.step_quality!;
        expect(b.values).toEqual(a.values);
        expect(labelValue(b)).toBe(labelValue(a));
      }),
    );
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
