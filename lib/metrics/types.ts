/**
 * Shapes of the computed metrics: exactly the JSON of
 * `GET /api/traces/{id}/metrics` (SPEC.md sections 4 and 7). Absent values
 * are `null`, never undefined or NaN.
 */
import type { StopReason } from "../trace/types";

/** Every computed response carries this version; a change of meaning is a new version. */
export const SPEC_VERSION = "baton-spec-4";
export type SpecVersion = typeof SPEC_VERSION;

export const VERDICTS = ["premature", "late", "unknown", "ok"] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface E2Metrics {
  critical_steps: number;
  step_parallelism: number;
  busy_time: number;
  makespan: number;
  speedup: number | null;
  max_concurrency: number;
  efficiency: number | null;
  useful_agent_utilization: number | null;
}

export interface E3Metrics {
  message_redundancy: number | null;
  dead_message_rate: number | null;
  aggregate_diversity: number | null;
}

export interface E4Metrics {
  protocol_overhead: number;
  error_amplification: number;
  tainted_events: number;
  terminal_tainted: boolean;
}

export interface StopMetrics {
  stop_reason: StopReason | null;
  stop_t: number | null;
  tail_events: number;
  tail_tokens: number;
  wasted_work_ratio: number;
  verdict: Verdict;
}

export interface TraceMetrics {
  version: SpecVersion;
  /** E1 task success: 1, 0 or null. */
  e1: 0 | 1 | null;
  e2: E2Metrics;
  e3: E3Metrics;
  e4: E4Metrics;
  stop: StopMetrics;
  /** The trace's own `metrics` object, shown beside the computed values, never instead of them. */
  reported: Record<string, number>;
}
