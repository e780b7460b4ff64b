/**
 * Where each reward family attaches (its anchors) and how it spreads
 * (SPEC.md section 2, from seed 000).
 */
import { isStopEvent, type CausalGraph } from "../graph/causal";
import { FAMILIES, type EventType, type Family, type TraceEvent } from "../trace/types";

export { FAMILIES, type Family };

export type Propagation = "all_ancestors" | "local" | "three_hops" | "stop_and_continue";

export interface FamilyRule {
  readonly propagation: Propagation;
  /** Decay per causal hop (or the share of the continue decision for stop_decision). */
  readonly gamma: number | null;
}

export const FAMILY_RULES: Readonly<Record<Family, FamilyRule>> = {
  task_success: { propagation: "all_ancestors", gamma: 0.7 },
  step_quality: { propagation: "local", gamma: null },
  orchestration: { propagation: "three_hops", gamma: 0.5 },
  parallelism_speedup: { propagation: "local", gamma: null },
  communication_efficiency: { propagation: "local", gamma: null },
  tool_use_correctness: { propagation: "local", gamma: null },
  stop_decision: { propagation: "stop_and_continue", gamma: 0.5 },
  cost: { propagation: "local", gamma: null },
};

/** How far orchestration credit travels back from its anchor. */
export const ORCHESTRATION_MAX_HOPS = 3;

/** The only event types that receive orchestration credit. */
export const ORCHESTRATION_RECEIVERS: ReadonlySet<EventType> = new Set<EventType>(["orchestrator_decision", "spawn", "aggregate"]);

export const ANCHOR_TYPES: Readonly<Partial<Record<Family, ReadonlySet<EventType>>>> = {
  step_quality: new Set<EventType>(["message", "return", "aggregate", "orchestrator_decision"]),
  orchestration: new Set<EventType>(["spawn", "aggregate"]),
  parallelism_speedup: new Set<EventType>(["spawn"]),
  communication_efficiency: new Set<EventType>(["message"]),
  tool_use_correctness: new Set<EventType>(["tool_call"]),
};

/**
 * The anchors of a family, as event indices in array order. task_success:
 * the terminal event; stop_decision: every stop event, else the terminal;
 * cost: every event; the rest by event type. O(V).
 */
export function anchorsOf(g: CausalGraph, family: Family): Int32Array {
  if (family === "task_success") return Int32Array.of(g.terminal);
  if (family === "cost") return Int32Array.from({ length: g.n }, (_, i) => i);
  if (family === "stop_decision") {
    const stops = collect(g.events, isStopEvent);
    return stops.length > 0 ? stops : Int32Array.of(g.terminal);
  }
  const types = ANCHOR_TYPES[family]!;
  return collect(g.events, (e) => types.has(e.type));
}

function collect(events: readonly TraceEvent[], test: (e: TraceEvent) => boolean): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < events.length; i++) if (test(events[i]!)) out.push(i);
  return Int32Array.from(out);
}
