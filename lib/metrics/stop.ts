/**
 * Stop diagnostics (SPEC.md section 4, decision O5): did the run stop too
 * early, too late, or about right?
 */
import { isStopEvent } from "../graph/causal";
import { tokensOf, type TraceAnalysis } from "./analysis";
import { spawnedAgents } from "./e2";
import { STOP_REASONS, type StopReason } from "../trace/types";
import type { StopMetrics, Verdict } from "./types";

export interface StopResult {
  readonly metrics: StopMetrics;
  /** The reference event: the stop event, else the terminal event. */
  readonly ref: number;
  /** 1 for events that are neither the terminal, nor its ancestors, nor stop events. */
  readonly wasted: Uint8Array;
}

/** Computes the stop diagnostics; needs E1 for the verdict. O(V). */
export function computeStop(a: TraceAnalysis, e1: 0 | 1 | null): StopResult {
  const { graph } = a;
  const events = a.trace.events;
  const n = graph.n;
  const stop = graph.stop >= 0 ? events[graph.stop]! : undefined;
  const ref = graph.stop >= 0 ? graph.stop : graph.terminal;
  const refRank = graph.rank[ref]!;

  let tailTokens = 0;
  for (let p = refRank + 1; p < n; p++) tailTokens += tokensOf(events[graph.order[p]!]!);
  const tailEvents = n - 1 - refRank;

  const wasted = new Uint8Array(n);
  let wastedCount = 0;
  for (let i = 0; i < n; i++) {
    // terminalDist >= 0 covers the terminal (0) and its ancestors (> 0).
    if (a.terminalDist[i]! >= 0 || isStopEvent(events[i]!)) continue;
    wasted[i] = 1;
    wastedCount++;
  }
  const wastedRatio = wastedCount / n;

  return {
    metrics: {
      stop_reason: stopReason(stop?.reason),
      stop_t: stop ? stop.t : null,
      tail_events: tailEvents,
      tail_tokens: tailTokens,
      wasted_work_ratio: wastedRatio,
      verdict: verdict(a, e1, refRank, tailEvents, wastedRatio),
    },
    ref,
    wasted,
  };
}

function verdict(a: TraceAnalysis, e1: 0 | 1 | null, refRank: number, tailEvents: number, wastedRatio: number): Verdict {
  if (e1 === 0 && someSpawnedAgentNeverReturned(a, refRank)) return "premature";
  if (tailEvents > 0 || wastedRatio > 0.5) return "late";
  if (e1 === null) return "unknown";
  return "ok";
}

/** True when some spawned agent has no `return` event before the reference event in event order. */
function someSpawnedAgentNeverReturned(a: TraceAnalysis, refRank: number): boolean {
  const spawned = spawnedAgents(a.trace.events);
  if (spawned.size === 0) return false;
  const returned = new Set<string>();
  const events = a.trace.events;
  for (let p = 0; p < refRank; p++) {
    const e = events[a.graph.order[p]!]!;
    if (e.type === "return") returned.add(e.agent);
  }
  for (const agent of spawned) if (!returned.has(agent)) return true;
  return false;
}

const KNOWN_REASONS: ReadonlySet<string> = new Set(STOP_REASONS);

/** SPEC.md section 1: a reason outside the list counts as `other`. */
function stopReason(reason: string | undefined): StopReason | null {
  if (reason === undefined) return null;
  return KNOWN_REASONS.has(reason) ? (reason as StopReason) : "other";
}
