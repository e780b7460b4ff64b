/**
 * Cross-validation by trace: a learned method is only ever scored on traces
 * whose labels it did not see. Folds are deterministic: the traces are
 * shuffled by a seeded PRNG (mulberry32) and dealt round-robin into k folds.
 */
import { mulberry32 } from "../util/random";
import type { LearnedMethod, LearnedModel } from "./methods";
import type { BlameRanking, LabelledTrace } from "./types";

export interface CvOptions {
  /** Number of folds (default 5; fewer traces than k gives one fold per trace). */
  readonly k?: number;
  /** Seed of the shuffle (default 1). */
  readonly seed?: number;
  /**
   * How many times a learned method is cross-validated, each time with other
   * folds (seeds seed, seed + 1, ...), its scores pooled (default 1). Choosing
   * between methods on few traces is noisy; repeats make the choice steadier.
   */
  readonly repeats?: number;
  /**
   * The group of each trace (aligned with the traces; e.g. its task, see
   * `taskGroups`): folds are made of whole groups, so no group has traces on
   * both sides of a fold (a model never ranks a run of a task it was trained
   * on). Absent: every trace is its own group.
   */
  readonly groups?: readonly string[];
}

export const DEFAULT_CV = { k: 5, seed: 1 } as const;

/** The fold of each of n traces. */
export function kFolds(n: number, k: number = DEFAULT_CV.k, seed: number = DEFAULT_CV.seed): Int32Array {
  const folds = Math.max(1, Math.min(k, n));
  const random = mulberry32(seed);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const fold = new Int32Array(n);
  order.forEach((trace, position) => (fold[trace] = position % folds));
  return fold;
}

/**
 * The fold of each trace when folds are made of whole groups: the distinct
 * groups (in order of first appearance) are shuffled as kFolds shuffles traces
 * and dealt round-robin; every trace takes its group's fold. With every group
 * distinct this is kFolds exactly. Fewer groups than k: one fold per group.
 */
export function groupFolds(groups: readonly string[], k: number = DEFAULT_CV.k, seed: number = DEFAULT_CV.seed): Int32Array {
  const distinct = [...new Set(groups)];
  const byGroup = kFolds(distinct.length, k, seed);
  const index = new Map(distinct.map((g, i) => [g, i]));
  return Int32Array.from(groups, (g) => byGroup[index.get(g)!]!);
}

/** The folds of n traces under `options` (by group when it names the groups). */
export function foldsOf(n: number, options: CvOptions = {}): Int32Array {
  if (options.groups) {
    if (options.groups.length !== n) throw new Error(`groups: ${options.groups.length} for ${n} traces`);
    return groupFolds(options.groups, options.k, options.seed);
  }
  return kFolds(n, options.k, options.seed);
}

/**
 * The task of each labelled trace, for folds by task: its `task_id` (the
 * Who&When importer sets the question's id, which the same question keeps in
 * both subsets), else its text after the first event's normalisation
 * (lower case, runs of non-letters and non-digits as one space), else the trace id.
 */
export function taskGroups(labelled: readonly LabelledTrace[]): string[] {
  return labelled.map(({ input: { trace } }) => {
    if (trace.task_id) return `task:${trace.task_id}`;
    const first = trace.events[0]?.content;
    const text = typeof first === "string" ? first.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim() : "";
    return text ? `text:${text}` : `trace:${trace.trace_id}`;
  });
}

/** The model trained on every fold but `f`. */
function trainWithout<M extends LearnedModel>(method: LearnedMethod<M>, labelled: readonly LabelledTrace[], fold: Int32Array, f: number): M {
  return method.train(labelled.filter((_, i) => fold[i] !== f));
}

/** Every trace ranked by the model trained on the other folds (aligned with `labelled`). */
export function crossValidatedRankings<M extends LearnedModel>(method: LearnedMethod<M>, labelled: readonly LabelledTrace[], options: CvOptions = {}): BlameRanking[] {
  const fold = foldsOf(labelled.length, options);
  const rankings = new Array<BlameRanking>(labelled.length);
  const folds = new Set(fold);
  for (const f of folds) {
    const model = trainWithout(method, labelled, fold, f);
    labelled.forEach((t, i) => {
      if (fold[i] === f) rankings[i] = method.rank(model, t.input);
    });
  }
  return rankings;
}

/** Trace `index` ranked under CV: by the model trained on the folds it is not in (its own label never enters). */
export function rankUnderCv<M extends LearnedModel>(method: LearnedMethod<M>, labelled: readonly LabelledTrace[], index: number, options: CvOptions = {}): BlameRanking {
  const fold = foldsOf(labelled.length, options);
  return method.rank(trainWithout(method, labelled, fold, fold[index]!), labelled[index]!.input);
}
