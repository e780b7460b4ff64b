/**
 * Honest evaluation of learned attribution: every setting a learned method
 * has (L2 strength, boosting rounds and leaf penalty, the feature set) and
 * the choice of the best method itself is made on the training traces
 * alone, by an inner cross-validation, never on the traces scored.
 *
 *   nestedCv(labelled, families): outer k folds by trace; on each outer
 *     training part, every candidate of every family is scored by inner
 *     INNER_K-fold CV, each family keeps its best (pickBest), which is
 *     retrained on the whole training part and ranks the outer fold.
 *   trainTuned(examples, candidates): the same choice on all the examples
 *     (what a shipped or cross-system model is), then trained on them.
 */
import { learnedStumps, rankWithStumps, STUMPS, trainStumps, type StumpModel } from "./boosted";
import { foldsOf, DEFAULT_CV, type CvOptions } from "./cv";
import { evaluateMethods, evaluationOf, OWN_LABELS_NEEDED, pickBest, rankingsOf } from "./evaluate";
import type { FeatureSet } from "./features";
import { EVENT_LOGIT, eventSettings, learnedEvents, learnedJudged, prepareCandidates, rankWithEventModel, trainEventModel, withEventTrainings, type EventModel } from "./learned";
import type { BlameMethod, LearnedMethod, LearnedModel } from "./methods";
import { METHODS } from "./registry";
import { scoredTraces, scoreRankings, type BlameScores } from "./scores";
import { BlameNotApplicableError, type BlameInput, type BlameRanking, type LabelledTrace } from "./types";

const FEATURE_SETS: readonly FeatureSet[] = ["all", "portable"];
/** L2 strengths of the event logit tried by the inner folds. */
export const EVENT_L2_GRID = [0.1, 0.3, 1] as const;
/** Boosting rounds and leaf penalty of the stumps tried by the inner folds. */
export const STUMP_GRID = [{ rounds: 150, lambda: 10 }] as const;
/** Inner folds of nested CV (fewer than the outer ones: the choice needs a ranking, not a precise score). */
export const INNER_K = 3;
/** Inner CV is repeated with this many fold assignments, pooled: a choice made on one split of a few dozen traces is mostly noise. */
export const INNER_REPEATS = 3;
/** How a family's choice is made on a set of training traces (trainTuned, transfer). */
const INNER_CV: CvOptions = { k: INNER_K, seed: DEFAULT_CV.seed, repeats: INNER_REPEATS };

/** A grid point of `learned_events`: its model is an ordinary `learned_events` model (it ranks through that method). */
export function eventsCandidate(l2: number, features: FeatureSet): LearnedMethod<EventModel> {
  return withEventTrainings({
    name: `learned_events(l2=${l2},${features})`,
    learned: true,
    needs_group: false,
    description: `learned_events with L2 ${l2} on the ${features} feature set`,
    train: (examples) => trainEventModel(examples, learnedEvents.name, { logit: { ...EVENT_LOGIT, l2 }, features }),
    rank: (model, input) => rankWithEventModel(model, input, learnedEvents.name),
  }, [eventSettings({ logit: { ...EVENT_LOGIT, l2 }, features })]);
}

/** A grid point of `learned_stumps`. */
export function stumpsCandidate(rounds: number, lambda: number, features: FeatureSet): LearnedMethod<StumpModel> {
  return {
    name: `learned_stumps(rounds=${rounds},lambda=${lambda},${features})`,
    learned: true,
    needs_group: false,
    description: `learned_stumps with ${rounds} rounds and leaf L2 ${lambda} on the ${features} feature set`,
    train: (examples) => trainStumps(examples, learnedStumps.name, { ...STUMPS, rounds, lambda, features }),
    rank: (model, input) => rankWithStumps(model, input, learnedStumps.name),
  };
}

/** A grid point of `learned_judged` (the event logit with the judges' features). */
export function judgedCandidate(l2: number, features: FeatureSet): LearnedMethod<EventModel> {
  const options = { logit: { ...EVENT_LOGIT, l2 }, features, judges: true };
  return withEventTrainings({
    name: `learned_judged(l2=${l2},${features})`,
    learned: true,
    needs_group: false,
    judged: true,
    description: `learned_judged with L2 ${l2} on the ${features} feature set and the judges' features`,
    train: (examples) => trainEventModel(examples, learnedJudged.name, options),
    rank: (model, input) => rankWithEventModel(model, input, learnedJudged.name),
  }, [eventSettings(options)]);
}

export const EVENTS_GRID: readonly LearnedMethod[] = FEATURE_SETS.flatMap((f) => EVENT_L2_GRID.map((l2) => eventsCandidate(l2, f)));
export const STUMPS_GRID: readonly LearnedMethod[] = FEATURE_SETS.flatMap((f) => STUMP_GRID.map((s) => stumpsCandidate(s.rounds, s.lambda, f)));
/** What a model is chosen from when no one looked at the traces it will rank. */
export const LEARNED_GRID: readonly LearnedMethod[] = [...EVENTS_GRID, ...STUMPS_GRID];
/** `learned_judged`'s grid: the event logit's L2 and feature sets, with the judges' features. */
export const JUDGED_GRID: readonly LearnedMethod[] = FEATURE_SETS.flatMap((f) => EVENT_L2_GRID.map((l2) => judgedCandidate(l2, f)));

/**
 * Families scored under nested CV: each is a list of candidates, of which
 * the inner folds keep one. `best` is what `method=best` does (every
 * registered method that ranks every trace, and the grid). When `methods`
 * hold a judged one (registry.ts methodsFor: some judge answered about the
 * labelled traces), `learned_judged (tuned)` (JUDGED_GRID) as well, and its
 * grid among `best`'s candidates; else exactly the families without judges.
 */
export function defaultFamilies(methods: readonly BlameMethod[] = METHODS): Record<string, readonly BlameMethod[]> {
  const best = [...methods.filter((m) => !m.needs_group && m.in_best !== false), ...LEARNED_GRID];
  if (!methods.some((m) => m.judged === true)) {
    return {
      "learned_events (tuned)": EVENTS_GRID,
      "learned_stumps (tuned)": STUMPS_GRID,
      "learned (tuned)": LEARNED_GRID,
      "best (nested)": best,
    };
  }
  return {
    "learned_events (tuned)": EVENTS_GRID,
    "learned_stumps (tuned)": STUMPS_GRID,
    "learned (tuned)": LEARNED_GRID,
    "learned_judged (tuned)": JUDGED_GRID,
    "best (nested)": [...best, ...JUDGED_GRID],
  };
}

/** The inner CV's shuffle seed for an outer fold: different from the outer shuffle and from fold to fold. */
export const innerSeed = (seed: number, fold: number) => seed * 1009 + fold + 1;

/** A candidate chosen by inner CV on `examples`, trained on all of them (null model for a heuristic). */
export interface TunedModel extends LearnedModel {
  readonly chosen: string;
  readonly model: LearnedModel | null;
}

/** The candidate with the best CV'd step accuracy on the examples (pickBest), trained on all of them. */
export function trainTuned(examples: readonly LabelledTrace[], candidates: readonly BlameMethod[], inner: CvOptions = INNER_CV, name = "tuned"): TunedModel {
  const chosen = pickBest(evaluateMethods(examples, inner, candidates)) ?? candidates[0]!.name;
  const method = candidates.find((c) => c.name === chosen)!;
  return { method: name, trained_on: examples.length, chosen, model: method.learned ? method.train(examples) : null };
}

export function rankTuned(model: TunedModel, candidates: readonly BlameMethod[], input: BlameInput): BlameRanking {
  const method = candidates.find((c) => c.name === model.chosen);
  if (!method) throw new BlameNotApplicableError(model.method, `unknown candidate ${model.chosen}`);
  return method.learned ? method.rank(model.model!, input) : method.rank(input);
}

export interface NestedResult {
  family: string;
  scores: BlameScores;
  /** The candidate each outer fold's inner CV kept, by fold. */
  chosen: string[];
}

/**
 * Every family under nested CV: outer `outer.k` folds by trace; on each
 * outer training part every candidate is scored once by inner CV (INNER_K
 * folds, seed innerSeed), each family takes its best, retrains it on the training
 * part and ranks the held-out fold. No trace's label enters any choice made
 * for its own ranking. Fewer than 2k traces (or, with `outer.groups`, 2k
 * groups): nothing (too few for inner folds).
 */
export function nestedCv(labelled: readonly LabelledTrace[], families: Record<string, readonly BlameMethod[]> = defaultFamilies(), outer: CvOptions = DEFAULT_CV): NestedResult[] {
  return nestedRankings(labelled, families, outer).map(({ family, rankings, chosen }) => ({
    family,
    scores: scoreRankings(scoredTraces(labelled, rankings)),
    chosen,
  }));
}

/**
 * nestedCv's rankings of every trace (aligned with `labelled`), per family.
 * With `systems` (aligned with `labelled`), the models are still trained on
 * every training trace, but each system's traces are ranked by the pick its
 * own training traces score best (inner CV rankings scored on them alone),
 * as `method=best` does in a project holding several systems; a system
 * with fewer than OWN_LABELS_NEEDED training traces takes the pick of all of them.
 */
export function nestedRankings(labelled: readonly LabelledTrace[], families: Record<string, readonly BlameMethod[]> = defaultFamilies(), outer: CvOptions = DEFAULT_CV, systems?: readonly (string | null)[], onFold?: (done: number, folds: number) => void): { family: string; rankings: BlameRanking[]; chosen: string[] }[] {
  const folds = nestedFolds(labelled, outer);
  if (folds.length === 0) return [];
  const parts = folds.map((f) => {
    const part = nestedFold(labelled, families, outer, systems, f);
    onFold?.(f + 1, folds.length);
    return part;
  });
  return mergeNested(labelled.length, families, parts);
}

/** The outer folds of nestedRankings (none with fewer than 2k traces or, by group, 2k groups: too few for inner folds). */
export function nestedFolds(labelled: readonly LabelledTrace[], outer: CvOptions = DEFAULT_CV): number[] {
  const k = outer.k ?? DEFAULT_CV.k;
  if (labelled.length < 2 * k) return [];
  // folds by group need as many groups (else an inner fold may hold every training run of a group-poor outer part)
  if (outer.groups && new Set(outer.groups).size < 2 * k) return [];
  return [...new Set(outerFoldsOf(labelled, outer))].sort((a, b) => a - b);
}

// folds by group (outer.groups: e.g. by task) keep a group on one side of the outer split, and of every inner one
const outerFoldsOf = (labelled: readonly LabelledTrace[], outer: CvOptions) => foldsOf(labelled.length, { k: outer.k ?? DEFAULT_CV.k, seed: outer.seed ?? DEFAULT_CV.seed, groups: outer.groups });

/** One outer fold of nestedRankings: the traces it holds (ascending) and, per family (in the families' order), their rankings and the picks made. */
export interface NestedFold {
  traces: number[];
  families: { rankings: BlameRanking[]; chosen: string[] }[];
}

// a heuristic ranks a trace the same in every fold: once per set of traces (and method)
const fixedRankings = new WeakMap<readonly LabelledTrace[], Map<BlameMethod, (BlameRanking | null)[]>>();
function fixedOf(labelled: readonly LabelledTrace[], method: BlameMethod): (BlameRanking | null)[] {
  let byMethod = fixedRankings.get(labelled);
  if (!byMethod) fixedRankings.set(labelled, (byMethod = new Map<BlameMethod, (BlameRanking | null)[]>()));
  let rankings = byMethod.get(method);
  if (!rankings) byMethod.set(method, (rankings = rankingsOf(method, labelled)));
  return rankings;
}

/**
 * Outer fold `f` of nestedRankings, on its own: what it computes depends on no other fold, so folds can be computed
 * apart (in another thread) and merged (mergeNested), the same rankings to the bit.
 */
export function nestedFold(labelled: readonly LabelledTrace[], families: Record<string, readonly BlameMethod[]>, outer: CvOptions, systems: readonly (string | null)[] | undefined, f: number): NestedFold {
  const seed = outer.seed ?? DEFAULT_CV.seed;
  const fold = outerFoldsOf(labelled, outer);
  const all = [...new Map(Object.values(families).flat().map((m) => [m.name, m])).values()];
  const fixed = new Map(all.filter((m) => !m.learned).map((m) => [m.name, fixedOf(labelled, m)]));
  const names = Object.keys(families);
  const traces = labelled.flatMap((_, i) => (fold[i] === f ? [i] : []));
  const rankings = new Map(names.map((n) => [n, new Array<BlameRanking>(traces.length)]));
  const chosen = new Map(names.map((n) => [n, [] as string[]]));
  const systemOf = (i: number) => systems?.[i] ?? null;
  const index = labelled.flatMap((_, i) => (fold[i] !== f ? [i] : []));
  const train = index.map((i) => labelled[i]!);
  const innerGroups = outer.groups && index.map((i) => outer.groups![i]!);
  const innerCv = { k: INNER_K, seed: innerSeed(seed, f), repeats: INNER_REPEATS };
  // every candidate's inner rankings of the training part (repeats for learned ones), aligned with `train`
  for (let r = 0; r < INNER_REPEATS; r++) prepareCandidates(all, train, { k: INNER_K, seed: innerCv.seed + r, groups: innerGroups });
  const inner = all.map((m) => ({ method: m, runs: m.learned ? Array.from({ length: INNER_REPEATS }, (_, r) => rankingsOf(m, train, { k: INNER_K, seed: innerCv.seed + r, groups: innerGroups })) : [index.map((i) => fixed.get(m.name)![i]!)] }));
  const pickFor = (members: Set<string>, keep: (j: number) => boolean) => pickBest(inner.filter((c) => members.has(c.method.name)).map((c) => evaluationOf(c.method, train, c.runs, null, keep)))!;
  const trained = new Map<string, LearnedModel | null>();
  const groups = systems ? [...new Set(labelled.map((_, i) => systemOf(i)))] : [null];
  for (const family of names) {
    const members = new Set(families[family]!.map((m) => m.name));
    const overall = pickFor(members, () => true);
    for (const system of groups) {
      const own = (j: number) => !systems || systemOf(index[j]!) === system;
      const pick = systems && train.filter((_, j) => own(j)).length >= OWN_LABELS_NEEDED ? pickFor(members, own) : overall;
      chosen.get(family)!.push(systems ? `${system ?? "(none)"}: ${pick}` : pick);
      const method = all.find((m) => m.name === pick)!;
      if (method.learned && !trained.has(pick)) trained.set(pick, method.train(train));
      traces.forEach((i, j) => {
        if (!systems || systemOf(i) === system) rankings.get(family)![j] = method.learned ? method.rank(trained.get(pick)!, labelled[i]!.input) : fixed.get(pick)![i]!;
      });
    }
  }
  return { traces, families: names.map((n) => ({ rankings: rankings.get(n)!, chosen: chosen.get(n)! })) };
}

/** nestedRankings from its folds (nestedFold, in fold order). */
export function mergeNested(n: number, families: Record<string, readonly BlameMethod[]>, folds: readonly NestedFold[]): { family: string; rankings: BlameRanking[]; chosen: string[] }[] {
  return Object.keys(families).map((family, k) => {
    const rankings = new Array<BlameRanking>(n);
    const chosen: string[] = [];
    for (const part of folds) {
      part.traces.forEach((i, j) => (rankings[i] = part.families[k]!.rankings[j]!));
      chosen.push(...part.families[k]!.chosen);
    }
    return { family, rankings, chosen };
  });
}

export interface TransferResult {
  method: string;
  scores: BlameScores;
  /** For a family: the candidate chosen on the training traces. */
  chosen?: string;
}

/**
 * Trained on one set of traces, scored on another (another system): every
 * learned method at its defaults, and every family tuned by CV on the
 * training traces only. Nothing when there are fewer than 2k training
 * traces or no test trace.
 */
export function transfer(train: readonly LabelledTrace[], test: readonly LabelledTrace[], methods: readonly LearnedMethod[], families: Record<string, readonly BlameMethod[]> = defaultFamilies(), inner: CvOptions = INNER_CV): TransferResult[] {
  if (train.length < 2 * (inner.k ?? INNER_K) || test.length === 0) return [];
  const score = (rank: (input: BlameInput) => BlameRanking) => scoreRankings(test.map((t) => ({ ranking: rank(t.input), decisive_event_id: t.decisive_event_id, decisive_agent: t.decisive_agent })));
  prepareCandidates(methods, train, null);
  const out: TransferResult[] = methods.map((m) => {
    const model = m.train(train);
    return { method: m.name, scores: score((input) => m.rank(model, input)) };
  });
  const all = [...new Map(Object.values(families).flat().map((m) => [m.name, m])).values()];
  const evaluations = evaluateMethods(train, inner, all);
  for (const [family, members] of Object.entries(families)) {
    const names = new Set(members.map((m) => m.name));
    const pick = pickBest(evaluations.filter((e) => names.has(e.method)))!;
    const method = all.find((m) => m.name === pick)!;
    const model = method.learned ? method.train(train) : null;
    out.push({ method: family, chosen: pick, scores: score((input) => (method.learned ? method.rank(model!, input) : method.rank(input))) });
  }
  return out;
}
