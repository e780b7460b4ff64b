/**
 * `learned_mix`: the event logit and the boosted stumps, each trained on
 * the same labelled traces, vote with equal weight: an event's score is the
 * mean of the two models' probability that it is the decisive error (each
 * sums to 1 over the trace, so the mean does too). A linear model and a
 * model of thresholds err in different places; on few labelled traces
 * their mean is steadier than either alone.
 */
import { stumpProbabilities, trainStumps, type StumpModel } from "./boosted";
import { contextOf } from "./input";
import { eventProbabilities, eventSettings, trainEventModel, withEventTrainings, type EventModel } from "./learned";
import type { LearnedMethod, LearnedModel } from "./methods";
import { toRanking } from "./rank";
import type { BlameInput, BlameRanking, LabelledTrace } from "./types";

export interface MixModel extends LearnedModel {
  readonly version: 1;
  readonly events: EventModel;
  readonly stumps: StumpModel;
}

export const MIX = "learned_mix";

export function trainMix(examples: readonly LabelledTrace[], method = MIX): MixModel {
  return { method, trained_on: examples.length, version: 1, events: trainEventModel(examples, method), stumps: trainStumps(examples, method) };
}

export function rankMix(model: MixModel, input: BlameInput, name = model.method): BlameRanking {
  const { p: a, signals } = eventProbabilities(model.events, input);
  const b = stumpProbabilities(model.stumps, input);
  // the signals are the event logit's (each feature's contribution): the stumps' thresholds do not add up the same way
  const scored = contextOf(input).ordered.map((event, k) => ({ event, score: (a[k]! + b[k]!) / 2, signals: signals[k]! }));
  return toRanking(name, scored, "sum");
}

export const learnedMix: LearnedMethod<MixModel> = withEventTrainings({
  name: MIX,
  learned: true,
  needs_group: false,
  description: "the mean of learned_events' and learned_stumps' probabilities, each model trained on the same traces; agents by the probability mass of their events",
  train: (examples) => trainMix(examples),
  rank: (model, input) => rankMix(model, input),
}, [eventSettings()]);
