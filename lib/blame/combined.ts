/**
 * `learned`: the event logit ranks the events, the agent logit ranks the
 * agents. The agent logit reads the event model's blame mass; so that the
 * mass it learns from looks like the mass it will see on a new trace, each
 * training trace's mass comes from an event model trained without that
 * trace (inner folds).
 */
import { agentProbabilities, trainAgentModel, type AgentModel } from "./agents";
import { kFolds } from "./cv";
import { eventSettings, rankWithEventModel, trainEventModel, withEventTrainings, type EventModel } from "./learned";
import type { LearnedMethod, LearnedModel } from "./methods";
import { agentKey } from "./rank";
import type { BlameInput, BlameRanking, LabelledTrace } from "./types";

export interface CombinedModel extends LearnedModel {
  readonly version: 1;
  readonly events: EventModel;
  readonly agents: AgentModel;
}

/** Inner folds for the agent logit's event mass. */
const INNER_FOLDS = 3;

/** The examples of each inner fold's event model. */
function innerParts(examples: readonly LabelledTrace[]): LabelledTrace[][] {
  const fold = kFolds(examples.length, INNER_FOLDS, 7);
  return [...new Set(fold)].map((f) => examples.filter((_, i) => fold[i] !== f));
}

export function trainCombined(examples: readonly LabelledTrace[]): CombinedModel {
  const events = trainEventModel(examples, "learned");
  const fold = kFolds(examples.length, INNER_FOLDS, 7);
  const inner = innerParts(examples).map((part) => trainEventModel(part, "learned"));
  const index = new Map(examples.map((t, i) => [t, i]));
  const agents = trainAgentModel(examples, (t) => (examples.length >= 2 * INNER_FOLDS ? inner[fold[index.get(t)!]!]! : events));
  return { method: "learned", trained_on: events.trained_on, version: 1, events, agents };
}

export function rankCombined(model: CombinedModel, input: BlameInput): BlameRanking {
  const ranking = rankWithEventModel(model.events, input, "learned");
  const p = agentProbabilities(model.agents, input, model.events);
  // The agent logit's probability averaged with the event model's mass: two views of the same question.
  const scores = new Map(ranking.agents.map((a) => [agentKey(a.agent), ((p.get(agentKey(a.agent)) ?? 0) + a.score) / 2]));
  const sorted = [...ranking.agents].sort((a, b) => scores.get(agentKey(b.agent))! - scores.get(agentKey(a.agent))!);
  let rank = 0;
  const agents = sorted.map((a, i) => {
    const score = scores.get(agentKey(a.agent))!;
    if (i === 0 || score !== scores.get(agentKey(sorted[i - 1]!.agent))) rank = i + 1;
    return { agent: a.agent, rank, score };
  });
  return { method: "learned", events: ranking.events, agents };
}

export const learnedCombined: LearnedMethod<CombinedModel> = withEventTrainings({
  name: "learned",
  learned: true,
  needs_group: false,
  description: "learned_events for the steps; agents by the mean of its mass and an agent logit (share of steps, first appearance, role, error and text-marker rates, the event model's mass)",
  train: trainCombined,
  rank: rankCombined,
}, [eventSettings()], (examples) => innerParts(examples).map((part) => ({ examples: part, settings: eventSettings() })));
