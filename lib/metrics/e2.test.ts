import { describe, expect, it } from "vitest";
import { makeTrace } from "../graph/fixtures";
import { analyzeTrace } from "./analysis";
import { computeE2 } from "./e2";
import { RICH, SINGLE, STOPPED } from "./fixtures";

describe("computeE2", () => {
  it("computes the work-span view of RICH", () => {
    const { metrics, critical } = computeE2(analyzeTrace(makeTrace(RICH)));
    // longest paths: d1 s1 a1 a2 g x and d1 s2 b1 b2 g x, 6 events each
    expect(metrics.critical_steps).toBe(6);
    expect(metrics.step_parallelism).toBeCloseTo(11 / 6, 9);
    // durations: d1 1 + a1 3 + b1 2 + a2 1 + b2 1 + b3 0.5 + g 1 = 9.5
    expect(metrics.busy_time).toBeCloseTo(9.5, 9);
    // last end: x at t=8 (no t_end); first t: 0
    expect(metrics.makespan).toBeCloseTo(8, 9);
    expect(metrics.speedup).toBeCloseTo(9.5 / 8, 9);
    // at t=4: a1 [2,5), b2 [4,5), b3 [4,4.5); b1 [2,4) has ended (half-open)
    expect(metrics.max_concurrency).toBe(3);
    expect(metrics.efficiency).toBeCloseTo(9.5 / 8 / 3, 9);
    // spawned A, B, C; C has no event at all
    expect(metrics.useful_agent_utilization).toBeCloseTo(2 / 3, 9);
    // positions: d1 s1 s2 s3 a1 b1 a2 b2 b3 g x; s3 and b3 are on no longest path
    expect([...critical]).toEqual([1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1]);
  });

  it("gives null speedup and efficiency when no event has a duration", () => {
    const { metrics } = computeE2(analyzeTrace(makeTrace(STOPPED)));
    expect(metrics.critical_steps).toBe(6); // o1 sp w1 r1 ag st
    expect(metrics.step_parallelism).toBeCloseTo(8 / 6, 9);
    expect(metrics.busy_time).toBe(0);
    expect(metrics.makespan).toBe(7);
    expect(metrics.speedup).toBeNull();
    expect(metrics.max_concurrency).toBe(0);
    expect(metrics.efficiency).toBeNull();
    expect(metrics.useful_agent_utilization).toBe(1); // W's w1 and r1 feed ag
  });

  it("gives null utilization without spawned agents and null speedup for a zero makespan", () => {
    const { metrics } = computeE2(analyzeTrace(makeTrace(SINGLE)));
    expect(metrics).toEqual({
      critical_steps: 1,
      step_parallelism: 1,
      busy_time: 0,
      makespan: 0,
      speedup: null,
      max_concurrency: 0,
      efficiency: null,
      useful_agent_utilization: null,
    });
  });

  it("counts a spawn without `to` as spawning no one", () => {
    const trace = makeTrace({ events: [{ id: "s", t: 0, type: "spawn", agent: "orch" }] });
    expect(computeE2(analyzeTrace(trace)).metrics.useful_agent_utilization).toBeNull();
  });

  it("does not overlap intervals that only touch", () => {
    const trace = makeTrace({
      events: [
        { id: "p", t: 0, t_end: 2, type: "tool_call", agent: "A" },
        { id: "q", t: 2, t_end: 4, type: "tool_call", agent: "B" },
        { id: "r", t: 1, t_end: 1, type: "tool_call", agent: "C" },
      ],
    });
    const { metrics } = computeE2(analyzeTrace(trace));
    expect(metrics.max_concurrency).toBe(1); // r has no duration; p ends where q starts
    expect(metrics.speedup).toBeCloseTo(4 / 4, 9); // busy 2 + 2, makespan 4 - 0
    expect(metrics.efficiency).toBeCloseTo(1, 9);
  });
});
