/**
 * Metrics of one trace (SPEC.md section 4). One entry point,
 * {@link computeMetrics}, returns the API JSON; {@link computeMetricsDetailed}
 * also returns per-event roles and reuses a prepared {@link TraceAnalysis}.
 *
 *   trace -> analyzeTrace (graph, topo, BFS from terminal)
 *         -> E1 | E2 | E3 | E4 -> stop (needs E1) -> roles
 */
import { NO_LABELS, type HumanLabels } from "../rewards/labels";
import type { Trace } from "../trace/types";
import { analyzeTrace, type TraceAnalysis } from "./analysis";
import { computeE1 } from "./e1";
import { computeE2 } from "./e2";
import { computeE3 } from "./e3";
import { computeE4 } from "./e4";
import { packRoles } from "./roles";
import { computeStop } from "./stop";
import { SPEC_VERSION, type TraceMetrics } from "./types";

export { analyzeTrace, type TraceAnalysis } from "./analysis";
export { ROLE, roleNames, type RoleName } from "./roles";
export * from "./types";
export * from "./catalogue";

export interface DetailedMetrics {
  readonly metrics: TraceMetrics;
  /** Role flags per event (array order); see {@link ROLE}. */
  readonly roles: Uint16Array;
}

/** All metrics of a trace in the shape of `GET /api/traces/{id}/metrics`. O(V + E). */
export function computeMetrics(trace: Trace, labels: HumanLabels = NO_LABELS): TraceMetrics {
  return computeMetricsDetailed(analyzeTrace(trace), labels).metrics;
}

/** Metrics plus per-event roles, from an analysis that credit can share. O(V + E). */
export function computeMetricsDetailed(a: TraceAnalysis, labels: HumanLabels = NO_LABELS): DetailedMetrics {
  const e1 = computeE1(a.trace, labels);
  const e2 = computeE2(a);
  const e3 = computeE3(a);
  const e4 = computeE4(a);
  const stop = computeStop(a, e1);
  const metrics: TraceMetrics = {
    version: SPEC_VERSION,
    e1,
    e2: e2.metrics,
    e3: e3.metrics,
    e4: e4.metrics,
    stop: stop.metrics,
    reported: { ...(a.trace.metrics ?? {}) },
  };
  const roles = packRoles({
    critical: e2.critical,
    terminal: a.graph.terminal,
    terminalDist: a.terminalDist,
    deadMessage: e3.deadMessage,
    tainted: e4.tainted,
    errorSource: e4.errorSource,
    errorDescendant: e4.errorDescendant,
    stop: a.graph.stop,
    rank: a.graph.rank,
    refRank: a.graph.rank[stop.ref]!,
    wasted: stop.wasted,
  });
  return { metrics, roles };
}
