import { describe, expect, it } from "vitest";
import { makeTrace, type TraceSpec } from "../graph/fixtures";
import { analyzeTrace } from "../metrics/analysis";
import { computeMetrics } from "../metrics/index";
import { loadExampleTrace } from "../metrics/fixtures";
import type { Trace } from "../trace/types";
import { MESSAGES, SLOW, TOKENS, TOOLS } from "./fixtures";
import { humanLabelsFrom, NO_LABELS, type HumanLabels, type AnnotationRow, type AdjudicationRow } from "./labels";
import { resolveRewards } from "./resolve";

function resolve(trace: Trace, labels: HumanLabels = NO_LABELS, budget = 100_000) {
  return resolveRewards(analyzeTrace(trace), computeMetrics(trace, labels), labels, budget);
}
const resolveSpec = (spec: TraceSpec, labels?: HumanLabels, budget?: number) => resolve(makeTrace(spec), labels, budget);
const values = (arr: Float64Array) => [...arr].map((v) => (Number.isNaN(v) ? null : v));

describe("R_f, the trace value", () => {
  it("resolves every family of the paper's example", () => {
    const r = resolve(loadExampleTrace());
    expect(r.families.task_success).toBe(1); // channel team
    expect(r.families.step_quality).toBeNull(); // no process channel, nothing automatic
    expect(r.families.orchestration).toBe(0.3); // channel orchestration
    // automatic: speedup is null (no durations) so x = step_parallelism = 8/7; 1 - 7/8
    expect(r.families.parallelism_speedup).toBeCloseTo(0.125, 9);
    expect(r.families.communication_efficiency).toBe(1); // 1 - 2 x 0
    expect(r.families.tool_use_correctness).toBe(0.1); // channel tool
    expect(r.families.stop_decision).toBeNull();
    expect(r.families.cost).toBeCloseTo(0.12, 9); // 12000 / 100000
    expect(r.sources).toEqual({
      task_success: "channel",
      step_quality: null,
      orchestration: "channel",
      parallelism_speedup: "auto",
      communication_efficiency: "auto",
      tool_use_correctness: "channel",
      stop_decision: null,
      cost: "auto",
    });
  });

  it("prefers human trace labels: the mean, adjudicated when set; task_success as 2 x mean - 1", () => {
    const rows: AnnotationRow[] = [
      { event_id: null, family: "step_quality", value: 0.2 },
      { event_id: null, family: "step_quality", value: 0.6 },
      { event_id: null, family: "task_success", value: 1 },
      { event_id: null, family: "task_success", value: 1 },
      { event_id: null, family: "task_success", value: 0 },
      { event_id: null, family: "cost", value: 0.1 },
    ];
    const adjudications: AdjudicationRow[] = [{ event_id: null, family: "cost", value: -0.5 }];
    const r = resolveSpec({ ...MESSAGES, rewards: { process: 0.9, team: -1 } }, humanLabelsFrom(rows, adjudications));
    expect(r.families.step_quality).toBeCloseTo(0.4, 9); // (0.2 + 0.6) / 2 beats the process channel
    expect(r.families.task_success).toBeCloseTo(1 / 3, 9); // 2 x 2/3 - 1
    expect(r.families.cost).toBe(-0.5);
    expect(r.sources.step_quality).toBe("human");
  });

  it("clamps automatic values to [-1, 1]", () => {
    // speedup = busy 1 / makespan 10 = 0.1; 1 - 1/0.1 = -9 -> -1
    expect(resolveSpec(SLOW).families.parallelism_speedup).toBe(-1);
    // costs.tokens 250000 / 100000 = 2.5 -> min(1, .) = 1
    expect(resolveSpec(TOKENS).families.cost).toBe(1);
    expect(resolveSpec(TOKENS, NO_LABELS, 1_000_000).families.cost).toBeCloseTo(0.25, 9);
  });

  it("derives communication efficiency from redundancy", () => {
    const spec: TraceSpec = {
      events: ["x", "x", "x", "y"].map((content, i) => ({ id: `m${i}`, t: i, type: "message", agent: "A", content })),
    };
    // 2 keys for 4 messages: redundancy 0.5; 1 - 2 x 0.5 = 0
    expect(resolveSpec(spec).families.communication_efficiency).toBeCloseTo(0, 9);
    expect(resolveSpec(TOKENS).families.communication_efficiency).toBeNull(); // no messages
  });

  it("derives tool use correctness from the tool calls' results", () => {
    // t1 +1, t2 -1 (all results failed), t3 +1 (one result ok), t4 no result: (1 - 1 + 1) / 3
    const r = resolveSpec(TOOLS);
    expect(r.families.tool_use_correctness).toBeCloseTo(1 / 3, 9);
    expect(r.sources.tool_use_correctness).toBe("auto");
    expect(resolveSpec(MESSAGES).families.tool_use_correctness).toBeNull(); // tc has no result
  });
});

describe("r_f(a), the anchor values", () => {
  it("takes human values, then the event's own reward, then a share of an explicit R_f", () => {
    const labels = humanLabelsFrom(
      [
        { event_id: null, family: "step_quality", value: 0.2 },
        { event_id: null, family: "step_quality", value: 0.6 },
        { event_id: "m1", family: "step_quality", value: 0.5 },
        { event_id: "m1", family: "step_quality", value: 1 },
        { event_id: "tc", family: "step_quality", value: 1 },
        { event_id: "ag", family: "step_quality", value: 1 },
      ],
      [{ event_id: "ag", family: "step_quality", value: -0.2 }],
    );
    const r = resolveSpec(MESSAGES, labels);
    // anchors m1 m2 m3 ag; R = 0.4 (human), share 0.4 / 4 = 0.1
    // m1: mean(0.5, 1) beats its own -1; m2: own -0.4; m3: share; tc: not an anchor; ag: adjudicated
    expect(values(r.values.step_quality)).toEqual([0.75, -0.4, 0.1, null, -0.2]);
  });

  it("shares a channel value over all anchors", () => {
    // R = 0.9 from `process`: m3 and ag get 0.9 / 4
    const r = resolveSpec(MESSAGES);
    expect(values(r.values.step_quality)).toEqual([-1, -0.4, 0.225, null, 0.225]);
  });

  it("keeps event values without R_f, and gives nothing else", () => {
    const r = resolveSpec({ ...MESSAGES, rewards: {} });
    expect(r.families.step_quality).toBeNull();
    expect(values(r.values.step_quality)).toEqual([-1, -0.4, null, null, null]);
  });

  it("puts an explicit tool R_f before the automatic tool values", () => {
    const explicit = resolveSpec({ ...TOOLS, rewards: { tool: 0.4 } });
    // positions t1=0 t2=2 t3=5 t4=8: 0.4 / 4 each
    expect([0, 2, 5, 8].map((i) => explicit.values.tool_use_correctness[i])).toEqual([0.1, 0.1, 0.1, 0.1]);
    const automatic = resolveSpec(TOOLS);
    // automatic R never fills tool anchors: t4 has no value
    expect(values(automatic.values.tool_use_correctness).filter((v) => v !== null)).toEqual([1, -1, 1]);
    expect(Number.isNaN(automatic.values.tool_use_correctness[8]!)).toBe(true);
  });

  it("shares cost by tokens, equally when there are none", () => {
    // R_cost = 1 (clamped); tokens 10, 30, 0, 60 of 100
    expect(values(resolveSpec(TOKENS).values.cost)).toEqual([0.1, 0.3, 0, 0.6]);
    // example trace: no event tokens, R_cost = 0.12 over 8 events
    const example = resolve(loadExampleTrace());
    for (const v of example.values.cost) expect(v).toBeCloseTo(0.015, 9);
  });

  it("shares an automatic R_f over its anchors", () => {
    // SLOW: R_parallelism = -1 over spawns s1, s2
    expect(values(resolveSpec(SLOW).values.parallelism_speedup)).toEqual([-0.5, -0.5]);
  });

  it("anchors stop_decision at the terminal when there is no stop event", () => {
    const labels = humanLabelsFrom([{ event_id: null, family: "stop_decision", value: 0.4 }]);
    const r = resolveSpec(TOKENS, labels);
    expect([...r.anchors.stop_decision]).toEqual([3]);
    expect(values(r.values.stop_decision)).toEqual([null, null, null, 0.4]);
  });
});
