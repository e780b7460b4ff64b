/** Small hand-built rollouts for the decision tests: a chain of events, one causal edge from each to the next unless given. */
import type { Trace, TraceEdge, TraceEvent } from "../trace/types";

type Ev = Omit<TraceEvent, "id" | "t"> & { id?: string; t?: number };

export function rollout(traceId: string, success: boolean | null, events: Ev[], opts: { edges?: TraceEdge[]; group?: string; policy?: string | number } = {}): Trace {
  const full = events.map((e, i) => ({ ...e, id: e.id ?? `e${i + 1}`, t: e.t ?? i }));
  const edges = opts.edges ?? full.slice(1).map((e, i) => ({ src: full[i]!.id, dst: e.id, type: "causal" as const }));
  return {
    trace_id: traceId,
    task_id: "task-1",
    group_id: opts.group ?? "g1",
    events: full,
    edges,
    rewards: success === null ? {} : { team: success ? 1 : -1 },
    costs: { tokens: 0, wall_clock_s: 0 },
    ...(opts.policy !== undefined && { metadata: { policy_version: opts.policy } }),
  };
}

export const orch = { agent: "orch", role: "orchestrator" } as const;
