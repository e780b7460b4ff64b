/**
 * Scores -> a ranking: events by descending score (ties kept in event
 * order), agents by their own scores, both with competition ranks. People
 * are never suspect agents: the agent ranking leaves them out.
 */
import type { TraceEvent } from "../trace/types";
import type { BlameRanking, RankedAgent, RankedEvent } from "./types";

/** How agent names are compared (SPEC.md section 10): case-insensitively, trimmed. */
export function agentKey(agent: string): string {
  return agent.trim().toLowerCase();
}

/** People (the task giver) are not suspects: `human` agents, `user` roles and human interventions. */
export function isHuman(e: TraceEvent): boolean {
  return e.type === "human_intervention" || e.role === "user" || agentKey(e.agent) === "human";
}

/** Scores closer than this (relative) are a tie: float noise must not break one. */
const TIE = 1e-12;
const tied = (a: number, b: number) => Math.abs(a - b) <= TIE * Math.max(1, Math.abs(a), Math.abs(b));

/** Competition ranks (1, 1, 3) of items already sorted by descending score. */
function competitionRanks(scores: readonly number[]): number[] {
  const ranks: number[] = [];
  for (let i = 0; i < scores.length; i++) ranks.push(i > 0 && tied(scores[i]!, scores[i - 1]!) ? ranks[i - 1]! : i + 1);
  return ranks;
}

export interface ScoredEvent {
  event: TraceEvent;
  score: number;
  signals: Record<string, number>;
}

/** How a method turns its event scores into agent scores. */
export type AgentRule = "sum" | "max";

/**
 * The ranking of scored events (given in event order). Agents are scored by
 * `agentScores` when given, else by the rule over their events.
 */
export function toRanking(method: string, scored: readonly ScoredEvent[], rule: AgentRule | ReadonlyMap<string, number> = "sum"): BlameRanking {
  const order = scored.map((_, i) => i).sort((a, b) => scored[b]!.score - scored[a]!.score || a - b);
  const eventRanks = competitionRanks(order.map((i) => scored[i]!.score));
  const events: RankedEvent[] = order.map((i, r) => {
    const s = scored[i]!;
    return { id: s.event.id, agent: s.event.agent, rank: eventRanks[r]!, score: s.score, signals: s.signals };
  });
  return { method, events, agents: rankAgents(scored, rule) };
}

function rankAgents(scored: readonly ScoredEvent[], rule: AgentRule | ReadonlyMap<string, number>): RankedAgent[] {
  const names = new Map<string, string>();
  const totals = new Map<string, number>();
  for (const { event, score } of scored) {
    if (isHuman(event)) continue;
    const key = agentKey(event.agent);
    if (!names.has(key)) names.set(key, event.agent);
    const previous = totals.get(key);
    if (typeof rule !== "string") totals.set(key, rule.get(key) ?? 0);
    else if (rule === "sum") totals.set(key, (previous ?? 0) + score);
    else totals.set(key, previous === undefined ? score : Math.max(previous, score));
  }
  const keys = [...names.keys()];
  const sorted = keys.map((k, i) => ({ k, i })).sort((a, b) => totals.get(b.k)! - totals.get(a.k)! || a.i - b.i);
  const ranks = competitionRanks(sorted.map(({ k }) => totals.get(k)!));
  return sorted.map(({ k }, r) => ({ agent: names.get(k)!, rank: ranks[r]!, score: totals.get(k)! }));
}
