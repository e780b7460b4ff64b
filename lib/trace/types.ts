import type { ModelCall } from "./calls";

/**
 * The orchestration trace: the paper's schema (arXiv 2605.02801) plus the
 * optional extensions of SPEC.md section 1. Pure types, shared by ingest,
 * compute and drawing.
 */

export const EVENT_TYPES = [
  "orchestrator_decision",
  "spawn",
  "despawn",
  "message",
  "tool_call",
  "tool_result",
  "return",
  "aggregate",
  "human_intervention",
  "safety_event",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EDGE_TYPES = [
  "temporal",
  "causal",
  "spawn",
  "message",
  "tool_dependency",
  "return",
  "aggregate",
  "safety_flow",
] as const;
export type EdgeType = (typeof EDGE_TYPES)[number];

export const TOPOLOGIES = [
  "centralized",
  "planner_executor_critic",
  "debate",
  "swarm",
  "hierarchical",
  "harness",
  "mixed",
  "unknown",
] as const;
export type Topology = (typeof TOPOLOGIES)[number];

export const DECISIONS = ["spawn", "delegate", "communicate", "aggregate", "stop", "continue"] as const;
export type Decision = (typeof DECISIONS)[number];

export const STOP_REASONS = [
  "complete",
  "quality_met",
  "budget_exhausted",
  "max_turns",
  "error",
  "user",
  "other",
] as const;
export type StopReason = (typeof STOP_REASONS)[number];

export const FAMILIES = [
  "task_success",
  "step_quality",
  "orchestration",
  "parallelism_speedup",
  "communication_efficiency",
  "tool_use_correctness",
  "stop_decision",
  "cost",
] as const;
export type Family = (typeof FAMILIES)[number];

/** One event. Unknown extra properties are kept in `extra`. */
export interface TraceEvent {
  id: string;
  t: number;
  type: EventType;
  agent: string;
  role?: string;
  from?: string;
  to?: string;
  tool?: string;
  content_ref?: string;
  trusted?: boolean;
  t_end?: number;
  content?: string;
  tokens?: number;
  status?: string;
  /** one of DECISIONS, or another value kept as it came (neither stop nor continue) */
  decision?: Decision | (string & {});
  /** one of STOP_REASONS, or another value kept as it came (counts as `other`) */
  reason?: StopReason | (string & {});
  /** by family name; other keys are kept and exported, and enter no credit */
  rewards?: Partial<Record<Family, number>> & Record<string, number | undefined>;
  /** Event properties outside the paper's schema and Baton's extensions, kept verbatim. */
  extra?: Record<string, unknown>;
}

/** A trace whose metadata is an object, as Baton's own generators and adapters write it. */
export type ObjectMetadataTrace = Omit<Trace, "metadata"> & { metadata?: Record<string, unknown> };

export interface TraceEdge {
  src: string;
  dst: string;
  type: EdgeType;
}

export interface Trace {
  trace_id: string;
  task_id: string;
  system?: string;
  topology?: Topology;
  group_id?: string;
  project?: string;
  /** any JSON value */
  metadata?: unknown;
  events: TraceEvent[];
  edges: TraceEdge[];
  rewards: Record<string, number>;
  costs: { tokens: number; wall_clock_s: number } & Record<string, number>;
  metrics?: Record<string, number>;
  /** the run's model calls (SPEC.md section 6), in call order; loaded only where a form needs them (lib/trace/calls.ts) */
  calls?: ModelCall[];
}
