/**
 * Scores of every method on a set of labelled traces (SPEC.md section 10);
 * learned methods are cross-validated inside, so no trace is scored by a
 * model that saw its label.
 */
import { crossValidatedRankings, DEFAULT_CV, type CvOptions } from "./cv";
import { prepareCandidates } from "./learned";
import type { BlameMethod } from "./methods";
import { METHODS } from "./registry";
import { scoredTraces, scoreRankings, type BlameScores } from "./scores";
import { BlameNotApplicableError, type BlameRanking, type LabelledTrace } from "./types";

export interface MethodEvaluation {
  method: string;
  learned: boolean;
  /** Scores over the traces the method could rank; null when it could rank none. */
  scores: BlameScores | null;
  /** Traces it could not rank (no group for a group method). */
  not_applicable: number;
  /** How the learned methods were scored: k folds by trace with this shuffle seed; null for heuristics. */
  cv: { k: number; seed: number } | null;
}

/** Rankings of every labelled trace by one method (CV for learned ones); null where not applicable. */
export function rankingsOf(method: BlameMethod, labelled: readonly LabelledTrace[], cv: CvOptions = {}): (BlameRanking | null)[] {
  if (method.learned) return crossValidatedRankings(method, labelled, cv);
  return labelled.map((t) => {
    try {
      return method.rank(t.input);
    } catch (e) {
      if (e instanceof BlameNotApplicableError) return null;
      throw e;
    }
  });
}

export function evaluateMethod(method: BlameMethod, labelled: readonly LabelledTrace[], cv: CvOptions = {}): MethodEvaluation {
  const k = cv.k ?? DEFAULT_CV.k;
  const seed = cv.seed ?? DEFAULT_CV.seed;
  const repeats = method.learned ? Math.max(1, cv.repeats ?? 1) : 1;
  const runs = Array.from({ length: repeats }, (_, r) => rankingsOf(method, labelled, { k, seed: seed + r, groups: cv.groups }));
  return evaluationOf(method, labelled, runs, method.learned ? { k, seed } : null);
}

/**
 * A method's evaluation from rankings already made: one array per CV repeat
 * (aligned with `labelled`, pooled), over the traces `keep` selects.
 */
export function evaluationOf(method: BlameMethod, labelled: readonly LabelledTrace[], runs: readonly (readonly (BlameRanking | null)[])[], cv: MethodEvaluation["cv"], keep: (i: number) => boolean = () => true): MethodEvaluation {
  const scored = runs.flatMap((rankings) => scoredTraces(labelled, rankings, keep));
  return {
    method: method.name,
    learned: method.learned,
    scores: scored.length > 0 ? scoreRankings(scored) : null,
    not_applicable: labelled.filter((_, i) => keep(i) && !runs[0]![i]).length,
    cv,
  };
}

/** A set of labelled traces (a project's, or one system's in it) needs this many before a choice of method is made on it alone. */
export const OWN_LABELS_NEEDED = 10;

/** Every registered method (or the given ones) on the labelled traces. */
export function evaluateMethods(labelled: readonly LabelledTrace[], cv: CvOptions = {}, methods: readonly BlameMethod[] = METHODS): MethodEvaluation[] {
  // the event models of every fold trained ahead, together (the same models)
  const seed = cv.seed ?? DEFAULT_CV.seed;
  for (let r = 0; r < Math.max(1, cv.repeats ?? 1); r++) prepareCandidates(methods, labelled, { k: cv.k ?? DEFAULT_CV.k, seed: seed + r, groups: cv.groups });
  return methods.map((m) => evaluateMethod(m, labelled, cv));
}

let leftOut: ReadonlySet<string> | undefined;
/** The registered methods `method=best` never picks (`in_best: false`); read on first use (the registry imports this module's importers). */
const notInBest = () => (leftOut ??= new Set(METHODS.filter((m) => m.in_best === false).map((m) => m.name)));

/**
 * `method=best`: the best cross-validated step accuracy (top-1) among the
 * methods that ranked every trace, then agent accuracy, then MRR; null when
 * none did. A method with `in_best: false` is never picked.
 */
export function pickBest(evaluations: readonly MethodEvaluation[]): string | null {
  let best: MethodEvaluation | null = null;
  const key = (e: MethodEvaluation) => [e.scores!.step.top1.value, e.scores!.agent.top1.value, e.scores!.step.mrr.value];
  const left = notInBest();
  for (const e of evaluations) {
    if (!e.scores || e.not_applicable > 0 || left.has(e.method)) continue;
    if (!best) {
      best = e;
      continue;
    }
    const [a, b] = [key(e), key(best)];
    const i = a.findIndex((x, j) => x !== b[j]);
    if (i >= 0 && a[i]! > b[i]!) best = e;
  }
  return best?.method ?? null;
}
