import { describe, expect, it } from "vitest";
import { chainTrace, makeTrace } from "../graph/fixtures";
import { humanLabelsFrom } from "../rewards/labels";
import { loadExampleTrace, RICH, STOPPED } from "./fixtures";
import { analyzeTrace, computeMetrics, computeMetricsDetailed, ROLE, roleNames } from "./index";

describe("computeMetrics on the paper's example trace", () => {
  // e1 -> e2, e3 (spawns) -> e4 (message) -> e5 (tool_call) -> e6 (tool_result, untrusted) -> e7 (return) -> e8 (aggregate)
  const metrics = computeMetrics(loadExampleTrace());

  it("matches the hand-computed values", () => {
    expect(metrics.version).toBe("baton-spec-4");
    expect(metrics.e1).toBe(1); // reported task_success 1 >= 0.5
    expect(metrics.e2.critical_steps).toBe(7); // e1 e2 e4 e5 e6 e7 e8
    expect(metrics.e2.step_parallelism).toBeCloseTo(8 / 7, 9);
    expect(metrics.e2.busy_time).toBe(0); // no t_end anywhere
    expect(metrics.e2.makespan).toBe(7); // t 7 - t 0
    expect(metrics.e2.speedup).toBeNull();
    expect(metrics.e2.max_concurrency).toBe(0);
    expect(metrics.e2.efficiency).toBeNull();
    expect(metrics.e2.useful_agent_utilization).toBe(1); // planner_1 (e4) and executor_1 (e5, e7) feed e8
    expect(metrics.e3).toEqual({ message_redundancy: 0, dead_message_rate: 0, aggregate_diversity: 1 });
    // coordination: e1, e2, e3, e4, e7, e8 = 6 of 8 (no event tokens)
    expect(metrics.e4.protocol_overhead).toBeCloseTo(6 / 8, 9);
    expect(metrics.e4.error_amplification).toBe(0);
    expect(metrics.e4.tainted_events).toBe(3); // e6, e7, e8
    expect(metrics.e4.terminal_tainted).toBe(true);
    expect(metrics.stop).toEqual({
      stop_reason: null,
      stop_t: null,
      tail_events: 0,
      tail_tokens: 0,
      wasted_work_ratio: 0,
      verdict: "ok",
    });
    expect(metrics.reported).toEqual({ task_success: 1, protocol_overhead: 0.18, error_amplification: 0 });
  });

  it("serialises with explicit nulls, no undefined or NaN", () => {
    const json = JSON.stringify(metrics);
    expect(json).not.toContain("NaN");
    expect(JSON.parse(json)).toEqual(metrics);
    expect(Object.keys(metrics.e2)).toHaveLength(8);
  });

  it("lets human labels override the reported task success", () => {
    const labels = humanLabelsFrom([0, 0, 1].map((value) => ({ event_id: null, family: "task_success", value })));
    const labelled = computeMetrics(loadExampleTrace(), labels);
    expect(labelled.e1).toBe(0);
    // E1 = 0 and planner_1 has no return event before the reference e8 (executor_1 returns at e7)
    expect(labelled.stop.verdict).toBe("premature");
  });
});

describe("roles", () => {
  it("packs every metric's verdict on each event", () => {
    const { roles } = computeMetricsDetailed(analyzeTrace(makeTrace(RICH)));
    // positions: d1 s1 s2 s3 a1 b1 a2 b2 b3 g x
    expect(roleNames(roles[10]!)).toEqual(["critical", "tainted", "errorDescendant", "tail", "wasted"]); // x
    expect(roleNames(roles[9]!)).toEqual(["critical", "terminal", "tainted", "errorDescendant"]); // g
    expect(roleNames(roles[8]!)).toEqual(["deadMessage", "errorDescendant", "wasted"]); // b3
    expect(roleNames(roles[5]!)).toEqual(["critical", "contributes", "errorSource"]); // b1
    expect(roleNames(roles[3]!)).toEqual(["wasted"]); // s3
  });

  it("marks the stop event and what follows it", () => {
    const { roles } = computeMetricsDetailed(analyzeTrace(makeTrace(STOPPED)));
    expect(roles[6]! & ROLE.stop).toBe(ROLE.stop);
    expect(roles[5]! & ROLE.terminal).toBe(ROLE.terminal);
    expect(roleNames(roles[7]!)).toEqual(["deadMessage", "tail", "wasted"]); // ex
  });
});

describe("scale", () => {
  it("computes all metrics of a 100k-event chain", () => {
    const metrics = computeMetrics(chainTrace(100_000));
    expect(metrics.e2.critical_steps).toBe(100_000);
    expect(metrics.e2.step_parallelism).toBe(1);
    expect(metrics.e3.dead_message_rate).toBe(0); // every message feeds the final aggregate
    expect(metrics.e3.message_redundancy).toBe(0); // no content: keyed by id
  });
});
