/**
 * E2 parallelism, the work-span view (SPEC.md section 4): how much of the
 * work ran side by side, and how much of it mattered to the result.
 */
import { criticalMask, longestPaths } from "../graph/causal";
import type { TraceAnalysis } from "./analysis";
import type { E2Metrics } from "./types";

export interface E2Result {
  readonly metrics: E2Metrics;
  /** 1 for events on at least one longest causal path. */
  readonly critical: Uint8Array;
}

/** Computes E2. O(V + E + k log k), k = events with a duration. */
export function computeE2(a: TraceAnalysis): E2Result {
  const { graph, trace } = a;
  const n = graph.n;
  const paths = longestPaths(graph, a.topo);

  let busy = 0;
  let first = Infinity;
  let last = -Infinity;
  let timed = 0;
  for (let i = 0; i < n; i++) {
    const e = trace.events[i]!;
    const end = e.t_end ?? e.t;
    busy += end - e.t;
    if (e.t < first) first = e.t;
    if (end > last) last = end;
    if (end - e.t > 0) timed++;
  }
  const makespan = last - first;
  const speedup = busy === 0 || makespan === 0 ? null : busy / makespan;
  const maxConcurrency = timed === 0 ? 0 : maxOverlap(a, timed);

  return {
    metrics: {
      critical_steps: paths.length,
      step_parallelism: n / paths.length,
      busy_time: busy,
      makespan,
      speedup,
      max_concurrency: maxConcurrency,
      efficiency: speedup === null ? null : speedup / maxConcurrency,
      useful_agent_utilization: usefulAgentUtilization(a),
    },
    critical: criticalMask(paths),
  };
}

/**
 * The most half-open intervals [t, t_end) covering one instant: a sweep over
 * sorted starts and ends. An interval ending exactly where another starts
 * does not overlap it, so ends at an instant are retired before starts count.
 */
function maxOverlap(a: TraceAnalysis, count: number): number {
  const starts = new Float64Array(count);
  const ends = new Float64Array(count);
  let k = 0;
  for (const e of a.trace.events) {
    if (e.t_end !== undefined && e.t_end - e.t > 0) {
      starts[k] = e.t;
      ends[k] = e.t_end;
      k++;
    }
  }
  starts.sort();
  ends.sort();
  let best = 0;
  let retired = 0;
  for (let i = 0; i < count; i++) {
    while (retired < count && ends[retired]! <= starts[i]!) retired++;
    best = Math.max(best, i + 1 - retired);
  }
  return best;
}

/** Spawned agents with an event that is the terminal or one of its ancestors, over spawned agents. */
function usefulAgentUtilization(a: TraceAnalysis): number | null {
  const spawned = spawnedAgents(a.trace.events);
  if (spawned.size === 0) return null;
  const useful = new Set<string>();
  const events = a.trace.events;
  for (let i = 0; i < events.length; i++) {
    if (a.terminalDist[i]! >= 0) useful.add(events[i]!.agent);
  }
  let count = 0;
  for (const agent of spawned) if (useful.has(agent)) count++;
  return count / spawned.size;
}

/** The distinct `to` values of spawn events (a spawn without `to` spawns no one). */
export function spawnedAgents(events: readonly { type: string; to?: string }[]): Set<string> {
  const spawned = new Set<string>();
  for (const e of events) if (e.type === "spawn" && e.to !== undefined) spawned.add(e.to);
  return spawned;
}
