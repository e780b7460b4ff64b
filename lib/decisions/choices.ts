/**
 * The decisions a rollout made, as labels that compare across rollouts:
 * every orchestrator_decision value, spawn targets and delegate targets (as
 * roles where the agent has one), stop reasons. A group's successful
 * rollouts are compared with its failed ones: which choices only one side made.
 */
import { buildCausalGraph, isStopEvent } from "../graph/causal";
import type { Trace } from "../trace/types";
import { agentRoles, delegateTarget } from "./features";

/** The distinct choice labels of one trace, sorted. */
export function traceChoices(trace: Trace): string[] {
  const graph = buildCausalGraph(trace);
  const roles = agentRoles(trace.events);
  const out = new Set<string>();
  trace.events.forEach((e, i) => {
    if (e.type === "orchestrator_decision" && e.decision !== undefined) out.add(`decision ${e.decision}`);
    if (e.type === "spawn" && e.to !== undefined) out.add(`spawn → ${roles.get(e.to) ?? e.to}`);
    if (e.type === "orchestrator_decision" && e.decision === "delegate") out.add(`delegate → ${delegateTarget(graph, trace.events, roles, i)}`);
    if (isStopEvent(e)) out.add(`stop: ${e.reason ?? "(no reason)"}`);
  });
  return [...out].sort();
}

export interface ChoiceCount {
  choice: string;
  /** Rollouts of that side that made it. */
  rollouts: number;
}

export interface ChoiceContrast {
  /** Made by at least one successful rollout and by no failed one. */
  success_only: ChoiceCount[];
  /** Made by at least one failed rollout and by no successful one. */
  failure_only: ChoiceCount[];
}

/** Contrasts the choices of successful (E1 = 1) and failed (E1 = 0) rollouts; E1 null rollouts take no side. */
export function contrastChoices(rollouts: readonly { e1: 0 | 1 | null; choices: readonly string[] }[]): ChoiceContrast {
  const count = (side: 0 | 1) => {
    const m = new Map<string, number>();
    for (const r of rollouts) if (r.e1 === side) for (const c of r.choices) m.set(c, (m.get(c) ?? 0) + 1);
    return m;
  };
  const s = count(1);
  const f = count(0);
  const only = (mine: Map<string, number>, other: Map<string, number>) =>
    [...mine].filter(([c]) => !other.has(c)).map(([choice, n]) => ({ choice, rollouts: n })).sort((a, b) => b.rollouts - a.rollouts || (a.choice < b.choice ? -1 : 1));
  return { success_only: only(s, f), failure_only: only(f, s) };
}
