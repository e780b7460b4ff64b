/**
 * E4 protocol overhead (SPEC.md section 4): the share of work spent on
 * coordination, how far errors spread, and how far untrusted input flows.
 */
import { forwardReach } from "../graph/causal";
import type { EventType } from "../trace/types";
import { tokensOf, type TraceAnalysis } from "./analysis";
import type { E4Metrics } from "./types";

/** Event types that coordinate work rather than do it. */
export const COORDINATION_TYPES: ReadonlySet<EventType> = new Set<EventType>([
  "orchestrator_decision",
  "spawn",
  "despawn",
  "message",
  "return",
  "aggregate",
]);

export interface E4Result {
  readonly metrics: E4Metrics;
  readonly tainted: Uint8Array;
  /** Events with status `error`, and safety events. */
  readonly errorSource: Uint8Array;
  /** Causal descendants of an error source that are not sources themselves. */
  readonly errorDescendant: Uint8Array;
}

/** Computes E4. O(V + E). */
export function computeE4(a: TraceAnalysis): E4Result {
  const { graph } = a;
  const events = a.trace.events;
  const n = graph.n;

  let allTokens = 0;
  let coordinationTokens = 0;
  let coordinationEvents = 0;
  const errorSource = new Uint8Array(n);
  const errorSources: number[] = [];
  const taintSources: number[] = [];
  // human_intervention and safety_event are firewalls: never tainted, pass nothing on.
  const firewall = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const e = events[i]!;
    const tokens = tokensOf(e);
    allTokens += tokens;
    if (COORDINATION_TYPES.has(e.type)) {
      coordinationEvents++;
      coordinationTokens += tokens;
    }
    if (e.status === "error" || e.type === "safety_event") {
      errorSource[i] = 1;
      errorSources.push(i);
    }
    if (e.type === "human_intervention" || e.type === "safety_event") firewall[i] = 1;
    else if (e.trusted === false) taintSources.push(i);
  }

  const reached = forwardReach(graph, errorSources);
  const errorDescendant = new Uint8Array(n);
  let amplified = 0;
  for (let i = 0; i < n; i++) {
    if (reached[i] === 1 && errorSource[i] === 0) {
      errorDescendant[i] = 1;
      amplified++;
    }
  }

  const tainted = forwardReach(graph, taintSources, firewall);
  let taintedCount = 0;
  for (let i = 0; i < n; i++) taintedCount += tainted[i]!;

  return {
    metrics: {
      protocol_overhead: allTokens > 0 ? coordinationTokens / allTokens : coordinationEvents / n,
      error_amplification: amplified / n,
      tainted_events: taintedCount,
      terminal_tainted: tainted[graph.terminal] === 1,
    },
    tainted,
    errorSource,
    errorDescendant,
  };
}
