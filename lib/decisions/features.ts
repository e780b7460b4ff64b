/**
 * What a trace decided, per orchestration sub-decision (O1 spawn, O2
 * delegate, O3 communicate, O4 aggregate, O5 stop), as the few numbers the
 * decision analytics bucket by. Stored per trace (lib/server/decisions) so
 * that the analytics are one SQL query over stored columns.
 */
import { buildCausalGraph, isStopEvent, predecessors, successors, type CausalGraph } from "../graph/causal";
import type { Trace, TraceEvent } from "../trace/types";

export interface DecisionFeatures {
  /** O1: a `spawn` event or an `orchestrator_decision` with decision `spawn`. */
  spawn_taken: boolean;
  /** Spawned agents (SPEC.md section 1): distinct `to` of spawn events. */
  agents_spawned: number;
  /** O2: an `orchestrator_decision` with decision `delegate`. */
  delegate_taken: boolean;
  /** Roles delegated to, distinct and sorted (see {@link delegateTarget}). */
  delegate_roles: string[];
  /** O3: a `message` event or an `orchestrator_decision` with decision `communicate`. */
  communicate_taken: boolean;
  messages: number;
  /** `message` events / distinct agents of the trace. */
  messages_per_agent: number;
  /** O4: an `aggregate` event or an `orchestrator_decision` with decision `aggregate`. */
  aggregate_taken: boolean;
  /** The most direct causal predecessors of one `aggregate` event; null without aggregate events. */
  aggregate_fan_in: number | null;
  /** O5: a stop event (`orchestrator_decision` with decision `stop`). */
  stop_taken: boolean;
  /** metadata.policy_version (a string, or a number as text); null when absent. */
  policy_version: string | null;
}

/** A delegation when nobody is named: shown as such, never guessed. */
export const UNNAMED_TARGET = "(unnamed)";

/** The role of each agent: the role of its first event (in array order) that has one. */
export function agentRoles(events: readonly TraceEvent[]): Map<string, string> {
  const roles = new Map<string, string>();
  for (const e of events) if (e.role !== undefined && !roles.has(e.agent)) roles.set(e.agent, e.role);
  return roles;
}

/**
 * Whom a delegate decision hands the work to: its own `to`, else the `to` of
 * its first direct causal successor (in event order) that names one (the
 * spawn or message that carries the delegation out); as a role when that
 * agent has one, else the agent's name; {@link UNNAMED_TARGET} when none.
 */
export function delegateTarget(g: CausalGraph, events: readonly TraceEvent[], roles: Map<string, string>, v: number): string {
  let to = events[v]!.to;
  if (to === undefined) {
    const next = [...successors(g, v)].filter((s) => events[s]!.to !== undefined).sort((a, b) => g.rank[a]! - g.rank[b]!);
    to = next.length > 0 ? events[next[0]!]!.to : undefined;
  }
  return to === undefined ? UNNAMED_TARGET : (roles.get(to) ?? to);
}

const isDecision = (e: TraceEvent, d: string) => e.type === "orchestrator_decision" && e.decision === d;

/** The decision features of one trace. O(events + edges). */
export function decisionFeatures(trace: Trace, graph: CausalGraph = buildCausalGraph(trace)): DecisionFeatures {
  const { events } = trace;
  const roles = agentRoles(events);
  const spawned = new Set<string>();
  const delegateRoles = new Set<string>();
  const agents = new Set<string>();
  let spawn = false;
  let delegate = false;
  let communicate = false;
  let aggregate = false;
  let stop = false;
  let messages = 0;
  let fanIn: number | null = null;
  events.forEach((e, i) => {
    agents.add(e.agent);
    if (e.type === "spawn") {
      spawn = true;
      if (e.to !== undefined) spawned.add(e.to);
    }
    if (isDecision(e, "spawn")) spawn = true;
    if (isDecision(e, "delegate")) {
      delegate = true;
      delegateRoles.add(delegateTarget(graph, events, roles, i));
    }
    if (e.type === "message") {
      communicate = true;
      messages++;
    }
    if (isDecision(e, "communicate")) communicate = true;
    if (e.type === "aggregate") {
      aggregate = true;
      fanIn = Math.max(fanIn ?? 0, predecessors(graph, i).length);
    }
    if (isDecision(e, "aggregate")) aggregate = true;
    if (isStopEvent(e)) stop = true;
  });
  return {
    spawn_taken: spawn,
    agents_spawned: spawned.size,
    delegate_taken: delegate,
    delegate_roles: [...delegateRoles].sort(),
    communicate_taken: communicate,
    messages,
    messages_per_agent: agents.size === 0 ? 0 : messages / agents.size,
    aggregate_taken: aggregate,
    aggregate_fan_in: fanIn,
    stop_taken: stop,
    policy_version: policyVersion(trace.metadata),
  };
}

/** metadata.policy_version as text (numbers too: checkpoints are often step counts). */
export function policyVersion(metadata: unknown): string | null {
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) return null;
  const v = (metadata as Record<string, unknown>).policy_version;
  if (typeof v === "string") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return null;
}
