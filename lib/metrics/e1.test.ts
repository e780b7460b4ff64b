import { describe, expect, it } from "vitest";
import { humanLabelsFrom, NO_LABELS } from "../rewards/labels";
import { computeE1 } from "./e1";

const trace = (metrics?: Record<string, number>, rewards: Record<string, number> = {}) => ({ metrics, rewards });
const labels = (...values: number[]) =>
  humanLabelsFrom(values.map((value) => ({ event_id: null, family: "task_success", value })));

describe("computeE1", () => {
  it("takes the majority of human trace-level labels first", () => {
    expect(computeE1(trace({ task_success: 0 }), labels(1, 1, 0))).toBe(1); // 2 of 3 succeed
    expect(computeE1(trace({ task_success: 1 }), labels(0, 0, 1))).toBe(0);
  });

  it("gives null on a tie and stops there", () => {
    expect(computeE1(trace({ task_success: 1 }, { team: 1 }), labels(1, 0))).toBeNull();
  });

  it("lets an adjudicated value replace the labels", () => {
    const adjudicated = humanLabelsFrom(
      [{ event_id: null, family: "task_success", value: 0 }, { event_id: null, family: "task_success", value: 0 }],
      [{ event_id: null, family: "task_success", value: 1 }],
    );
    expect(computeE1(trace(), adjudicated)).toBe(1);
  });

  it("ignores event-level task_success labels", () => {
    const onEvent = humanLabelsFrom([{ event_id: "e1", family: "task_success", value: 1 }]);
    expect(computeE1(trace({ task_success: 0 }), onEvent)).toBe(0);
  });

  it("reads the reported metric with a 0.5 threshold", () => {
    expect(computeE1(trace({ task_success: 0.5 }), NO_LABELS)).toBe(1);
    expect(computeE1(trace({ task_success: 0.49 }), NO_LABELS)).toBe(0);
  });

  it("then the task_success channel (over team), positive means success", () => {
    expect(computeE1(trace(undefined, { team: 1, task_success: -0.2 }), NO_LABELS)).toBe(0);
    expect(computeE1(trace(undefined, { team: 0.3 }), NO_LABELS)).toBe(1);
    expect(computeE1(trace(undefined, { team: 0 }), NO_LABELS)).toBe(0);
  });

  it("is null when nothing says", () => {
    expect(computeE1(trace({ protocol_overhead: 1 }, { verifier: 1 }), NO_LABELS)).toBeNull();
  });
});
