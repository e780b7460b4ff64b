import { describe, expect, it } from "vitest";
import { makeTrace, type TraceSpec } from "../graph/fixtures";
import { analyzeTrace } from "./analysis";
import { computeE1 } from "./e1";
import { NO_LABELS } from "../rewards/labels";
import { RICH, SINGLE, STOPPED } from "./fixtures";
import { computeStop } from "./stop";

function stopOf(spec: TraceSpec) {
  const trace = makeTrace(spec);
  return computeStop(analyzeTrace(trace), computeE1(trace, NO_LABELS));
}

const withoutTail: TraceSpec = { ...STOPPED, events: STOPPED.events.filter((e) => e.id !== "ex") };

describe("computeStop", () => {
  it("measures the tail after the stop event", () => {
    const r = stopOf(STOPPED);
    expect(r.metrics.stop_reason).toBe("quality_met");
    expect(r.metrics.stop_t).toBe(6);
    expect(r.metrics.tail_events).toBe(1); // ex
    expect(r.metrics.tail_tokens).toBe(3);
    // not ag, its ancestors o1 sp w1 r1 c1, or the stop st: ex, 1 of 8
    expect(r.metrics.wasted_work_ratio).toBeCloseTo(1 / 8, 9);
    expect(r.metrics.verdict).toBe("late"); // E1 = 1 (team 1), tail 1
    expect(r.ref).toBe(6);
  });

  it("uses the terminal event as reference when there is no stop", () => {
    const r = stopOf(RICH);
    expect(r.metrics.stop_reason).toBeNull();
    expect(r.metrics.stop_t).toBeNull();
    expect(r.metrics.tail_events).toBe(1); // x after g
    expect(r.metrics.tail_tokens).toBe(40);
    // s3, b3, x: 3 of 11
    expect(r.metrics.wasted_work_ratio).toBeCloseTo(3 / 11, 9);
    expect(r.ref).toBe(9);
    // E1 = 0 (reported) and B never returns before g
    expect(r.metrics.verdict).toBe("premature");
  });

  it("says ok for a clean successful run, unknown without E1", () => {
    expect(stopOf(withoutTail).metrics).toMatchObject({ tail_events: 0, tail_tokens: 0, wasted_work_ratio: 0, verdict: "ok" });
    expect(stopOf({ ...withoutTail, rewards: {} }).metrics.verdict).toBe("unknown");
    expect(stopOf(SINGLE).metrics).toMatchObject({ tail_events: 0, wasted_work_ratio: 0, verdict: "unknown" });
  });

  it("is premature only when a spawned agent has not returned before the stop", () => {
    const failed: TraceSpec = { ...withoutTail, rewards: { team: -1 } };
    // W returned at t=3, before the stop at t=6
    expect(stopOf(failed).metrics.verdict).toBe("ok");
    const lateReturn: TraceSpec = {
      ...failed,
      events: failed.events.map((e) => (e.id === "r1" ? { ...e, t: 6.5 } : e)),
    };
    // r1 now comes after st in event order, and is in the tail
    expect(stopOf(lateReturn).metrics.verdict).toBe("premature");
  });

  it("is late when more than half the work is wasted", () => {
    const spec: TraceSpec = {
      events: [
        { id: "a", t: 0, type: "tool_call", agent: "A" },
        { id: "b", t: 1, type: "tool_call", agent: "B" },
        { id: "g", t: 2, type: "aggregate", agent: "O" },
      ],
      rewards: { team: 1 },
    };
    // a and b do not reach g: 2 of 3 > 0.5
    expect(stopOf(spec).metrics).toMatchObject({ tail_events: 0, verdict: "late" });
    expect(stopOf(spec).metrics.wasted_work_ratio).toBeCloseTo(2 / 3, 9);
  });
});
