/**
 * Small typed trace fixtures for unit tests, and the helper that fills in
 * the fields a fixture does not care about. Data only: no expectations.
 */
import type { EdgeType, Trace, TraceEdge, TraceEvent } from "../trace/types";

/** An edge as [src, dst] (type `causal`) or [src, dst, type]. */
export type EdgeSpec = readonly [string, string] | readonly [string, string, EdgeType];

export interface TraceSpec {
  readonly trace_id?: string;
  readonly group_id?: string;
  readonly events: readonly TraceEvent[];
  readonly edges?: readonly EdgeSpec[];
  readonly rewards?: Record<string, number>;
  readonly tokens?: number;
  readonly metrics?: Record<string, number>;
}

/** Builds a Trace from a compact spec (costs.tokens defaults to 0). */
export function makeTrace(spec: TraceSpec): Trace {
  const edges: TraceEdge[] = (spec.edges ?? []).map(([src, dst, type]) => ({ src, dst, type: type ?? "causal" }));
  return {
    trace_id: spec.trace_id ?? "fixture",
    task_id: "fixture-task",
    ...(spec.group_id !== undefined ? { group_id: spec.group_id } : {}),
    events: spec.events.map((e) => ({ ...e })),
    edges,
    rewards: { ...(spec.rewards ?? {}) },
    costs: { tokens: spec.tokens ?? 0, wall_clock_s: 0 },
    ...(spec.metrics !== undefined ? { metrics: { ...spec.metrics } } : {}),
  };
}

/**
 * A diamond with a shortcut, a parallel edge, a temporal back edge and an
 * isolated event:
 *
 *   a -> b -> d -> e      a -> e (shortcut)     b -> d twice (causal, message)
 *   a -> c -> d           e -> a (temporal: ignored)      f alone
 */
export const DIAMOND: TraceSpec = {
  events: [
    { id: "a", t: 0, type: "orchestrator_decision", agent: "orch", decision: "spawn" },
    { id: "b", t: 1, type: "spawn", agent: "orch", to: "B" },
    { id: "c", t: 1, type: "spawn", agent: "orch", to: "C" },
    { id: "d", t: 2, type: "message", agent: "B" },
    { id: "e", t: 3, type: "aggregate", agent: "orch" },
    { id: "f", t: 3, type: "tool_call", agent: "C" },
  ],
  edges: [
    ["a", "b", "spawn"],
    ["a", "c", "spawn"],
    ["b", "d"],
    ["b", "d", "message"],
    ["c", "d"],
    ["d", "e", "aggregate"],
    ["a", "e"],
    ["e", "a", "temporal"],
  ],
};

/** Events out of time order, with ties in t, two aggregates at the same t and two stop decisions. */
export const TIES: TraceSpec = {
  events: [
    { id: "x", t: 2, type: "aggregate", agent: "orch" },
    { id: "y", t: 1, type: "orchestrator_decision", agent: "orch", decision: "stop", reason: "complete" },
    { id: "z", t: 1, type: "orchestrator_decision", agent: "orch", decision: "stop", reason: "user" },
    { id: "w", t: 0, type: "message", agent: "A" },
    { id: "v", t: 2, type: "aggregate", agent: "orch" },
  ],
};

/** No aggregate: the terminal is the last event in event order (ties broken by array position). */
export const NO_AGGREGATE: TraceSpec = {
  events: [
    { id: "p", t: 5, type: "message", agent: "A" },
    { id: "q", t: 5, type: "tool_call", agent: "A" },
    { id: "r", t: 1, type: "return", agent: "A" },
  ],
};

/** A causal chain of `n` events e0 -> e1 -> ... (the last one an aggregate). */
export function chainTrace(n: number): Trace {
  const events: TraceEvent[] = new Array<TraceEvent>(n);
  const edges: TraceEdge[] = new Array<TraceEdge>(Math.max(0, n - 1));
  for (let i = 0; i < n; i++) {
    events[i] = { id: `e${i}`, t: i, type: i === n - 1 ? "aggregate" : "message", agent: "a" };
    if (i > 0) edges[i - 1] = { src: `e${i - 1}`, dst: `e${i}`, type: "causal" };
  }
  return { trace_id: `chain-${n}`, task_id: "chain", events, edges, rewards: {}, costs: { tokens: 0, wall_clock_s: 0 } };
}
