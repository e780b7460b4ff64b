/**
 * The agent scorer of the learned method: a conditional logit over the
 * agents of a trace ("which agent broke this run"), on features per agent:
 * its share of the steps, when it first speaks, its role, its errors, its
 * words, and the blame mass the event model puts on its events. Agent
 * targets are easier than step targets, and an agent's whole record says
 * more than its single most suspicious step.
 */
import { cachedFeatures, eventProbabilities, type EventModel } from "./learned";
import { contextOf } from "./input";
import { isHuman } from "./priors";
import { agentKey } from "./rank";
import { softmax, trainLogit, dot, type ChoiceSet, type LogitOptions, type SparseRow } from "./softmax";
import type { BlameInput, LabelledTrace } from "./types";

/** Named event features averaged over an agent's events (its typical step). */
const MEAN_OF = ["agent_share", "agent_appearance", "agent_first_speaker", "role_orchestrator", "role_worker", "role_expert", "role_code_executor", "type_return", "type_tool_call", "type_tool_result", "type_message", "type_orchestrator_decision", "type_aggregate", "status_error", "caused_error", "caused_first_error", "next_fails", "text_code_block", "text_error_word", "text_apology", "text_hedge", "text_inability", "text_success_claim", "text_search", "text_assumption_data", "text_length", "next_text_error_word", "next_text_inability", "next_text_stalled"];
/** Named event features whose maximum over the agent's events matters (it did this at least once). */
const MAX_OF = ["pos_first_step", "pos_second_step", "pos_last_step", "caused_error", "caused_first_error", "text_code_block", "text_exit_nonzero", "text_assumption_data", "next_text_error_word"];

export interface AgentCandidate {
  agent: string;
  key: string;
  named: Record<string, number>;
}

/** One candidate per non-human agent of the trace (case-insensitive names), in order of first appearance. */
export function agentCandidates(input: BlameInput, eventModel: EventModel | null): AgentCandidate[] {
  const { ordered } = contextOf(input);
  const features = cachedFeatures(input);
  const p = eventModel ? eventProbabilities(eventModel, input).p : null;
  const byKey = new Map<string, { agent: string; ks: number[] }>();
  ordered.forEach((e, k) => {
    if (isHuman(e)) return;
    const key = agentKey(e.agent);
    const entry = byKey.get(key) ?? { agent: e.agent, ks: [] };
    entry.ks.push(k);
    byKey.set(key, entry);
  });
  return [...byKey.entries()].map(([key, { agent, ks }]) => {
    const named: Record<string, number> = {};
    for (const name of MEAN_OF) named[`mean_${name}`] = ks.reduce((a, k) => a + (features[k]!.named[name] ?? 0), 0) / ks.length;
    for (const name of MAX_OF) named[`max_${name}`] = Math.max(...ks.map((k) => features[k]!.named[name] ?? 0));
    named.first_position = ks[0]! / Math.max(1, ordered.length - 1);
    named.log_events = Math.log1p(ks.length) / 5;
    if (p) {
      const mass = ks.reduce((a, k) => a + p[k]!, 0);
      named.event_mass = mass;
      named.event_max = Math.max(...ks.map((k) => p[k]!));
      named.event_top = ks.some((k) => p[k] === Math.max(...p)) ? 1 : 0;
    }
    return { agent, key, named };
  });
}

export interface AgentModel {
  readonly named: Record<string, number>;
  readonly l2: number;
}

export const AGENT_LOGIT: Required<LogitOptions> = { l2: 0.1, iterations: 250, rate: 0.05 };

function toRow(c: AgentCandidate, column: ReadonlyMap<string, number>): SparseRow {
  const idx: number[] = [];
  const val: number[] = [];
  for (const [name, x] of Object.entries(c.named)) {
    const i = column.get(name);
    if (i !== undefined && x !== 0) {
      idx.push(i);
      val.push(x);
    }
  }
  return { idx, val };
}

/** Trains the agent logit; `eventModelOf(t)` gives the event model that scores trace t (never one trained on t when it matters). */
export function trainAgentModel(examples: readonly LabelledTrace[], eventModelOf: (t: LabelledTrace) => EventModel | null, options: LogitOptions = {}): AgentModel {
  const candidates = examples.map((t) => agentCandidates(t.input, eventModelOf(t)));
  const names = [...new Set(candidates.flatMap((cs) => cs.flatMap((c) => Object.keys(c.named))))].sort();
  const column = new Map(names.map((n, i) => [n, i]));
  const sets: ChoiceSet[] = [];
  examples.forEach((t, i) => {
    const chosen = candidates[i]!.findIndex((c) => c.key === agentKey(t.decisive_agent));
    if (chosen >= 0) sets.push({ rows: candidates[i]!.map((c) => toRow(c, column)), chosen });
  });
  const logit = { ...AGENT_LOGIT, ...options };
  const w = trainLogit(sets, names.length, logit);
  const named: Record<string, number> = {};
  names.forEach((n, i) => (named[n] = w[i]!));
  return { named, l2: logit.l2 };
}

/** Agent key -> probability of being the decisive agent. */
export function agentProbabilities(model: AgentModel, input: BlameInput, eventModel: EventModel | null): Map<string, number> {
  const candidates = agentCandidates(input, eventModel);
  const names = Object.keys(model.named);
  const column = new Map(names.map((n, i) => [n, i]));
  const weights = names.map((n) => model.named[n]!);
  const p = softmax(candidates.map((c) => dot(weights, toRow(c, column))));
  return new Map(candidates.map((c, i) => [c.key, p[i]!]));
}
