/**
 * `learned`: a conditional logit over the events of a trace on the features
 * of features.ts (named features and hashed n-grams), trained on labelled
 * traces. The model is plain JSON (weights by feature name), so a server can
 * store it per project and retrain it when labels change. Agents are ranked
 * by the probability mass of their events.
 */
import { eventFeatures, featureFilter, type EventFeatures, type FeatureSet } from "./features";
import { contextOf } from "./input";
import type { LearnedMethod, LearnedModel } from "./methods";
import { toRanking } from "./rank";
import { dot, softmax, trainLogit, type ChoiceSet, type LogitOptions, type SparseRow } from "./softmax";
import { HASH_BUCKETS } from "./text";
import { sharedTraining } from "./train-cache";
import type { BlameInput, BlameRanking, LabelledTrace } from "./types";

export interface EventModel extends LearnedModel {
  readonly version: 1;
  /** Weight per named feature. */
  readonly named: Record<string, number>;
  /** Weight per hashed n-gram bucket (HASH_BUCKETS of them). */
  readonly hashed: number[];
  /** Value a present n-gram takes (the named features are about [0, 1]). */
  readonly hash_value: number;
  readonly l2: number;
}

export const EVENT_LOGIT: Required<LogitOptions> = { l2: 0.1, iterations: 250, rate: 0.05 };
const HASH_VALUE = 0.25;
/** Contributions to a score smaller than this are left out of `signals` (they still count in the score). */
const SIGNAL_FLOOR = 0.05;

const featureCache = new WeakMap<BlameInput, EventFeatures[]>();
export function cachedFeatures(input: BlameInput): EventFeatures[] {
  let f = featureCache.get(input);
  if (!f) featureCache.set(input, (f = eventFeatures(input)));
  return f;
}

/** Feature name -> column; hashed buckets come after the named columns. */
function columns(examples: readonly LabelledTrace[], set: FeatureSet): string[] {
  const keep = featureFilter(set);
  const names = new Set<string>();
  for (const t of examples) for (const f of cachedFeatures(t.input)) for (const name of Object.keys(f.named)) if (keep(name)) names.add(name);
  return [...names].sort();
}

function row(f: EventFeatures, column: ReadonlyMap<string, number>, hashValue: number, includeWords: boolean): SparseRow {
  const idx: number[] = [];
  const val: number[] = [];
  for (const [name, x] of Object.entries(f.named)) {
    const c = column.get(name);
    if (c !== undefined && x !== 0) {
      idx.push(c);
      val.push(x);
    }
  }
  if (includeWords) {
    for (const b of f.hashed) {
      idx.push(column.size + b);
      val.push(hashValue);
    }
  }
  return { idx, val };
}

export interface EventModelOptions {
  words?: boolean;
  logit?: LogitOptions;
  hashValue?: number;
  /** Named features it may use (default all); the model holds weights for those only. */
  features?: FeatureSet;
}

export function trainEventModel(examples: readonly LabelledTrace[], method = "learned", options: EventModelOptions = {}): EventModel {
  const settings = { words: options.words ?? false, hashValue: options.hashValue ?? HASH_VALUE, logit: { ...EVENT_LOGIT, ...options.logit }, features: options.features ?? "all" };
  // the weights do not depend on the method's name: one training serves every method that trains this model
  const model = sharedTraining(`events ${JSON.stringify(settings)}`, examples, () => trainEventWeights(examples, settings));
  return { ...model, method };
}

function trainEventWeights(examples: readonly LabelledTrace[], o: { words: boolean; hashValue: number; logit: Required<LogitOptions>; features: FeatureSet }): EventModel {
  const names = columns(examples, o.features);
  const column = new Map(names.map((n, i) => [n, i]));
  const sets: ChoiceSet[] = [];
  for (const t of examples) {
    const chosen = contextOf(t.input).ordered.findIndex((e) => e.id === t.decisive_event_id);
    if (chosen < 0) continue;
    sets.push({ rows: cachedFeatures(t.input).map((f) => row(f, column, o.hashValue, o.words)), chosen });
  }
  const w = trainLogit(sets, names.length + HASH_BUCKETS, o.logit);
  const named: Record<string, number> = {};
  names.forEach((n, i) => (named[n] = w[i]!));
  return { method: "", trained_on: sets.length, version: 1, named, hashed: o.words ? Array.from(w.subarray(names.length)) : new Array<number>(HASH_BUCKETS).fill(0), hash_value: o.hashValue, l2: o.logit.l2 };
}

/** Each event's probability of being the decisive one, with the contributions that made its score. */
export function eventProbabilities(model: EventModel, input: BlameInput): { p: number[]; signals: Record<string, number>[] } {
  const features = cachedFeatures(input);
  const names = Object.keys(model.named);
  const column = new Map(names.map((n, i) => [n, i]));
  const weights = [...names.map((n) => model.named[n]!), ...model.hashed];
  const scores = features.map((f) => dot(weights, row(f, column, model.hash_value, true)));
  const signals = features.map((f) => {
    const s: Record<string, number> = {};
    for (const [name, x] of Object.entries(f.named)) {
      const c = (model.named[name] ?? 0) * x;
      if (Math.abs(c) >= SIGNAL_FLOOR) s[name] = c;
    }
    const words = f.hashed.reduce((a, b) => a + (model.hashed[b] ?? 0) * model.hash_value, 0);
    if (Math.abs(words) >= SIGNAL_FLOOR) s.words = words;
    return s;
  });
  return { p: softmax(scores), signals };
}

export function rankWithEventModel(model: EventModel, input: BlameInput, name = model.method): BlameRanking {
  const { p, signals } = eventProbabilities(model, input);
  const scored = contextOf(input).ordered.map((event, k) => ({ event, score: p[k]!, signals: signals[k]! }));
  return toRanking(name, scored, "sum");
}

export const learnedEvents: LearnedMethod<EventModel> = {
  name: "learned_events",
  learned: true,
  needs_group: false,
  description: "conditional logit over the events of a trace (position, structure, errors, text markers, credit); agents by the probability mass of their events",
  train: (examples) => trainEventModel(examples, "learned_events"),
  rank: (model, input) => rankWithEventModel(model, input, "learned_events"),
};

/** The same logit with hashed n-grams of the content as well (more capacity, more to memorise). */
export const learnedWords: LearnedMethod<EventModel> = {
  name: "learned_words",
  learned: true,
  needs_group: false,
  description: "learned_events plus hashed unigrams and bigrams of each event's content",
  train: (examples) => trainEventModel(examples, "learned_words", { words: true, logit: { l2: 0.02 } }),
  rank: (model, input) => rankWithEventModel(model, input, "learned_words"),
};
