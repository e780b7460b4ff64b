/**
 * Cross-validation by trace: a learned method is only ever scored on traces
 * whose labels it did not see. Folds are deterministic: the traces are
 * shuffled by a seeded PRNG (mulberry32) and dealt round-robin into k folds.
 */
import { mulberry32 } from "../demo/random";
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

/** The model trained on every fold but `f`. */
function trainWithout<M extends LearnedModel>(method: LearnedMethod<M>, labelled: readonly LabelledTrace[], fold: Int32Array, f: number): M {
  return method.train(labelled.filter((_, i) => fold[i] !== f));
}

/** Every trace ranked by the model trained on the other folds (aligned with `labelled`). */
export function crossValidatedRankings<M extends LearnedModel>(method: LearnedMethod<M>, labelled: readonly LabelledTrace[], options: CvOptions = {}): BlameRanking[] {
  const fold = kFolds(labelled.length, options.k, options.seed);
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
  const fold = kFolds(labelled.length, options.k, options.seed);
  return method.rank(trainWithout(method, labelled, fold, fold[index]!), labelled[index]!.input);
}
