/**
 * `learned`: a conditional logit over the events of a trace on the features
 * of features.ts (named features and hashed n-grams), trained on labelled
 * traces. The model is plain JSON (weights by feature name), so a server can
 * store it per project and retrain it when labels change. Agents are ranked
 * by the probability mass of their events.
 */
import { eventFeatures, featureFilter, type EventFeatures, type FeatureSet } from "./features";
import { foldsOf, type CvOptions } from "./cv";
import { contextOf } from "./input";
import { judgeFeatures } from "./judge";
import type { BlameMethod, LearnedMethod, LearnedModel } from "./methods";
import { toRanking } from "./rank";
import { dot, softmax, trainLogit, trainLogitBatch, type ChoiceSet, type LogitOptions, type SparseRow, type TailedRow } from "./softmax";
import { HASH_BUCKETS } from "./text";
import { shareModel, sharedModel, sharedTraining, sharingTrainings } from "./train-cache";
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
  /** Trained with the judges' features as well (judge.ts judgeFeatures): `learned_judged`'s models only. */
  readonly judges?: true;
}

export const EVENT_LOGIT: Required<LogitOptions> = { l2: 0.1, iterations: 250, rate: 0.05 };
const HASH_VALUE = 0.25;
/** Contributions to a score smaller than this are left out of `signals` (they still count in the score). */
const SIGNAL_FLOOR = 0.05;

const featureCache = new WeakMap<BlameInput, EventFeatures[]>();
const judgedCache = new WeakMap<BlameInput, EventFeatures[]>();
/** An input's event features; with `judges`, the judges' features as well (judgeFeatures; none when no judge answered). */
export function cachedFeatures(input: BlameInput, judges = false): EventFeatures[] {
  if (judges) {
    let j = judgedCache.get(input);
    if (!j) {
      const plain = cachedFeatures(input);
      const extra = judgeFeatures(input);
      judgedCache.set(input, (j = extra ? plain.map((f, k) => ({ named: { ...f.named, ...extra[k] }, hashed: f.hashed })) : plain));
    }
    return j;
  }
  let f = featureCache.get(input);
  if (!f) featureCache.set(input, (f = eventFeatures(input)));
  return f;
}

/** Feature name -> column; hashed buckets come after the named columns. */
function columns(examples: readonly LabelledTrace[], set: FeatureSet, judges = false): string[] {
  const keep = featureFilter(set);
  const names = new Set<string>();
  for (const t of examples) for (const f of cachedFeatures(t.input, judges)) for (const name of Object.keys(f.named)) if (keep(name)) names.add(name);
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
  /** The judges' features as well (`learned_judged`). */
  judges?: boolean;
}

/** Everything an event model's weights depend on besides its training traces. */
export interface EventSettings {
  readonly words: boolean;
  readonly hashValue: number;
  readonly logit: Required<LogitOptions>;
  readonly features: FeatureSet;
  /** only when true (the settings of every other model are what they were before judges) */
  readonly judges?: true;
}

export function eventSettings(options: EventModelOptions = {}): EventSettings {
  return { words: options.words ?? false, hashValue: options.hashValue ?? HASH_VALUE, logit: { ...EVENT_LOGIT, ...options.logit }, features: options.features ?? "all", ...(options.judges && { judges: true as const }) };
}

// the weights do not depend on the method's name: one training serves every method that trains this model
const cacheKey = (settings: EventSettings) => `events ${JSON.stringify(settings)}`;

export function trainEventModel(examples: readonly LabelledTrace[], method = "learned", options: EventModelOptions = {}): EventModel {
  const settings = eventSettings(options);
  const model = sharedTraining(cacheKey(settings), examples, () => trainEventWeights(examples, settings));
  return { ...model, method };
}

/** An event model to train: its settings, on these examples. */
export interface EventTraining {
  readonly examples: readonly LabelledTrace[];
  readonly settings: EventSettings;
}

/**
 * Trains ahead, inside a shared-training scope (train-cache.ts), the event models of `settings` on `examples` that it
 * does not hold yet: those sharing their Adam steps and hash value in one batch (trainLogitBatch), each the very model
 * trainEventModel would train alone. Outside such a scope nothing (nothing would keep them).
 */
export function prepareEventModels(examples: readonly LabelledTrace[], settings: readonly EventSettings[]): void {
  prepareTrainings(examples, [{ over: examples, trainings: settings.map((s) => ({ examples, settings: s })) }]);
}

/**
 * Trains ahead the event models of `hosts` (each a list of trainings on examples drawn, in order, from its `over`, itself
 * drawn from `universe`): a host's models without words in batches over its `over` (each model on its own examples: a set mask),
 * the models with words of every host in batches over `universe`. Each model is the very model trainEventModel would
 * train alone on its examples; a model left alone in its batch is left to trainEventModel.
 */
export function prepareTrainings(universe: readonly LabelledTrace[], hosts: readonly { over: readonly LabelledTrace[]; trainings: readonly EventTraining[] }[]): void {
  if (!sharingTrainings()) return;
  const seen = new Set<string>();
  // batch key -> [host examples, trainings]
  const batches = new Map<string, { over: readonly LabelledTrace[]; trainings: EventTraining[] }>();
  hosts.forEach((host, h) => {
    for (const training of host.trainings) {
      const key = cacheKey(training.settings);
      const id = `${key}|${trainingKey(training.examples)}`;
      if (seen.has(id) || sharedModel(key, training.examples) !== undefined) continue;
      seen.add(id);
      const { logit, hashValue, words } = training.settings;
      // a model with words reads long rows the others skip: it is batched with the other models with words, over the universe
      const over = words ? universe : host.over;
      // a model with the judges' features reads other rows: batched with its kind only
      const batch = JSON.stringify([logit.iterations, logit.rate, hashValue, words, words ? -1 : h, ...(training.settings.judges ? ["judges"] : [])]);
      const entry = batches.get(batch) ?? { over, trainings: [] };
      entry.trainings.push(training);
      batches.set(batch, entry);
    }
  });
  for (const { over, trainings } of batches.values()) {
    if (new Set(over).size < over.length) continue;
    const fits = trainings.filter((t) => t.examples.length > 0 && subsequence(t.examples, over));
    if (fits.length < 2) continue;
    const models = trainEventWeightsBatch(over, fits);
    fits.forEach((t, k) => shareModel(cacheKey(t.settings), t.examples, models[k]!));
  }
}

const trainingIds = new WeakMap<LabelledTrace, number>();
let nextTrainingId = 0;
const trainingKey = (examples: readonly LabelledTrace[]) =>
  examples
    .map((t) => {
      let id = trainingIds.get(t);
      if (id === undefined) trainingIds.set(t, (id = nextTrainingId++));
      return id;
    })
    .join(",");

/** Whether `part` is `whole` with some traces left out (the same order). */
function subsequence(part: readonly LabelledTrace[], whole: readonly LabelledTrace[]): boolean {
  let at = 0;
  for (const t of part) {
    while (at < whole.length && whole[at] !== t) at++;
    if (at === whole.length) return false;
    at++;
  }
  return true;
}

/** What a method trains on a set of examples, besides nothing (prepareCandidates trains it ahead). */
type TrainingsOf = (examples: readonly LabelledTrace[]) => EventTraining[];
const trainingsOf = new WeakMap<BlameMethod, TrainingsOf>();

/**
 * Marks `method` as training event models of `settings` on the examples it is given, and those `more` gives (e.g. on
 * some of them): what prepareCandidates trains ahead for it.
 */
export function withEventTrainings<M extends BlameMethod>(method: M, settings: readonly EventSettings[], more?: TrainingsOf): M {
  trainingsOf.set(method, (examples) => [...settings.map((s) => ({ examples, settings: s })), ...(more ? more(examples) : [])]);
  return method;
}

/**
 * Before every one of `methods` is trained under CV (`cv`) on `labelled`: the event models they will train on each
 * fold's training part, trained ahead in batches (prepareTrainings). Changes no model, only when it is trained.
 */
export function prepareCandidates(methods: readonly BlameMethod[], labelled: readonly LabelledTrace[], cv: CvOptions | null): void {
  if (!sharingTrainings()) return;
  const wanted = methods.flatMap((m) => trainingsOf.get(m) ?? []);
  if (wanted.length === 0) return;
  const parts = cv === null ? [labelled] : (() => {
    const fold = foldsOf(labelled.length, cv);
    return [...new Set(fold)].map((f) => labelled.filter((_, i) => fold[i] !== f));
  })();
  prepareTrainings(labelled, parts.map((part) => ({ over: part, trainings: wanted.flatMap((w) => w(part)) })));
}

/**
 * Event models trained together over `examples` (see trainLogitBatch), all of them sharing Adam steps, rate and hash
 * value, each on its own examples (some of `examples`, in order): exactly the models trainEventWeights gives one by one.
 */
function trainEventWeightsBatch(examples: readonly LabelledTrace[], models: readonly EventTraining[]): EventModel[] {
  const { logit, hashValue } = models[0]!.settings;
  const judges = models[0]!.settings.judges === true;
  const names = columns(examples, "all", judges);
  const column = new Map(names.map((n, i) => [n, i]));
  const sets: { rows: TailedRow[]; chosen: number }[] = [];
  const setOf: LabelledTrace[] = [];
  examples.forEach((t) => {
    const chosen = contextOf(t.input).ordered.findIndex((e) => e.id === t.decisive_event_id);
    if (chosen < 0) return;
    sets.push({ rows: cachedFeatures(t.input, judges).map((f) => tailedRow(f, column, hashValue)), chosen });
    setOf.push(t);
  });
  const batch = models.map(({ settings, examples: own }) => {
    // its columns: those it would have alone (the named features of its examples, of its feature set)
    const mine = own === examples && settings.features === "all" ? null : new Set(columns(own, settings.features, judges));
    const members = own === examples ? null : new Set(own);
    return {
      l2: settings.logit.l2,
      tail: settings.words,
      columns: mine ? Uint8Array.from(names, (n) => (mine.has(n) ? 1 : 0)) : undefined,
      sets: members ? Uint8Array.from(setOf, (t) => (members.has(t) ? 1 : 0)) : undefined,
    };
  });
  const weights = trainLogitBatch(sets, names.length, names.length + HASH_BUCKETS, batch, { iterations: logit.iterations, rate: logit.rate });
  return models.map(({ settings }, k) => {
    const w = weights[k]!;
    const own = batch[k]!;
    const named: Record<string, number> = {};
    names.forEach((n, i) => {
      if (!own.columns || own.columns[i]) named[n] = w[i]!;
    });
    const trained = own.sets ? own.sets.reduce((a, b) => a + b, 0) : sets.length;
    return { method: "", trained_on: trained, version: 1, named, hashed: settings.words ? Array.from(w.subarray(names.length)) : new Array<number>(HASH_BUCKETS).fill(0), hash_value: hashValue, l2: settings.logit.l2, ...(judges && { judges: true as const }) } satisfies EventModel;
  });
}

/** A row of every named column, then the hashed words (read only by a model with words). */
function tailedRow(f: EventFeatures, column: ReadonlyMap<string, number>, hashValue: number): TailedRow {
  const named = row(f, column, hashValue, false);
  const words = row(f, column, hashValue, true);
  return { idx: words.idx, val: words.val, tail: named.idx.length };
}

function trainEventWeights(examples: readonly LabelledTrace[], o: EventSettings): EventModel {
  const judges = o.judges === true;
  const names = columns(examples, o.features, judges);
  const column = new Map(names.map((n, i) => [n, i]));
  const sets: ChoiceSet[] = [];
  for (const t of examples) {
    const chosen = contextOf(t.input).ordered.findIndex((e) => e.id === t.decisive_event_id);
    if (chosen < 0) continue;
    sets.push({ rows: cachedFeatures(t.input, judges).map((f) => row(f, column, o.hashValue, o.words)), chosen });
  }
  const w = trainLogit(sets, names.length + HASH_BUCKETS, o.logit);
  const named: Record<string, number> = {};
  names.forEach((n, i) => (named[n] = w[i]!));
  return { method: "", trained_on: sets.length, version: 1, named, hashed: o.words ? Array.from(w.subarray(names.length)) : new Array<number>(HASH_BUCKETS).fill(0), hash_value: o.hashValue, l2: o.logit.l2, ...(judges && { judges: true as const }) };
}

// a model's probabilities of an input, kept while both live: one trained model ranks the same runs for several methods
// (learned_events, its grid twin, the halves of learned_mix and learned) and feeds the agent logit
const probabilitiesOf = new WeakMap<Record<string, number>, { hashed: readonly number[]; hashValue: number; byInput: WeakMap<BlameInput, { p: number[]; signals: Record<string, number>[] }> }>();

/** Each event's probability of being the decisive one, with the contributions that made its score. */
export function eventProbabilities(model: EventModel, input: BlameInput): { p: number[]; signals: Record<string, number>[] } {
  let kept = probabilitiesOf.get(model.named);
  if (!kept || kept.hashed !== model.hashed || kept.hashValue !== model.hash_value) probabilitiesOf.set(model.named, (kept = { hashed: model.hashed, hashValue: model.hash_value, byInput: new WeakMap() }));
  let out = kept.byInput.get(input);
  if (!out) kept.byInput.set(input, (out = computeProbabilities(model, input)));
  // fresh arrays and signal records for every caller (a ranking holds its signals)
  return { p: [...out.p], signals: out.signals.map((s) => ({ ...s })) };
}

function computeProbabilities(model: EventModel, input: BlameInput): { p: number[]; signals: Record<string, number>[] } {
  const features = cachedFeatures(input, model.judges === true);
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

export const learnedEvents: LearnedMethod<EventModel> = withEventTrainings({
  name: "learned_events",
  learned: true,
  needs_group: false,
  description: "conditional logit over the events of a trace (position, structure, errors, text markers, credit); agents by the probability mass of their events",
  train: (examples) => trainEventModel(examples, "learned_events"),
  rank: (model, input) => rankWithEventModel(model, input, "learned_events"),
}, [eventSettings()]);

const WORDS: EventModelOptions = { words: true, logit: { l2: 0.02 } };

/**
 * The same logit with hashed n-grams of the content as well (more capacity, more to memorise). Not a candidate of
 * `method=best`: its words are one system's vocabulary, the least portable of the signals, and its long rows made a
 * quarter of a scoring's CPU time in the inner folds that choose `best`.
 */
export const learnedWords: LearnedMethod<EventModel> = withEventTrainings({
  name: "learned_words",
  learned: true,
  needs_group: false,
  in_best: false,
  description: "learned_events plus hashed unigrams and bigrams of each event's content",
  train: (examples) => trainEventModel(examples, "learned_words", WORDS),
  rank: (model, input) => rankWithEventModel(model, input, "learned_words"),
}, [eventSettings(WORDS)]);

const JUDGED: EventModelOptions = { judges: true };

/**
 * `learned_events` with what the project's LLM judges answered about each event as features as well (judge.ts
 * judgeFeatures). Registered apart (registry.ts JUDGED_METHODS): scored, and a candidate of `method=best`, only where
 * the labelled traces have judges' answers; without any its model is `learned_events`' to the bit.
 */
export const learnedJudged: LearnedMethod<EventModel> = withEventTrainings({
  name: "learned_judged",
  learned: true,
  needs_group: false,
  judged: true,
  description: "learned_events plus the project's LLM judges' answers about each event (the step each named, the steps next to it, the steps their questions cleared)",
  train: (examples) => trainEventModel(examples, "learned_judged", JUDGED),
  rank: (model, input) => rankWithEventModel(model, input, "learned_judged"),
}, [eventSettings(JUDGED)]);
