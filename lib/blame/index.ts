/**
 * Failure attribution (SPEC.md section 10): which step, and which agent,
 * broke a failed run.
 *
 *   Trace (+ group) -> blameInput (drops metadata and events' extra: no label passes)
 *     -> rankTrace(method, input, {model}) -> BlameRanking {method, events[], agents[]}
 *   labelled traces -> evaluateMethods (learned methods k-fold CV'd by trace) -> pickBest
 *   ranking + a person's answers -> guided.ts (bisection weighted by the ranking)
 *
 * Input: `BlameInput` = `{trace, group}`, built only by `blameInput(trace, group?)`:
 * `trace` is a validated Trace, `group` the other rollouts sharing its
 * group_id (needed by the methods with `needs_group`).
 */
import { methodByName, METHODS } from "./registry";
import { BlameNotApplicableError, type BlameInput, type BlameRanking } from "./types";
import type { LearnedModel } from "./methods";

export * from "./types";
export { blameInput, orderedEventIds, stripTrace } from "./input";
export { scoredTraces, scoreRankings, topK, reciprocalRank, type BlameScores, type LevelScores, type Score } from "./scores";
export { evaluateMethods, evaluateMethod, pickBest, rankingsOf, type MethodEvaluation } from "./evaluate";
export { kFolds, groupFolds, foldsOf, taskGroups, crossValidatedRankings, rankUnderCv, DEFAULT_CV, type CvOptions } from "./cv";
export { METHODS, JUDGED_METHODS, methodsFor, methodByName } from "./registry";
export { withJudges, hasJudges, judgeFeatures } from "./judge";
export type { BlameMethod, HeuristicMethod, LearnedMethod, LearnedModel, MethodInfo } from "./methods";
export { learnedModelSchema } from "./methods";
export { simulateGuided, type GuidedRun, type GuidedSimulation } from "./simulate";
export { startGuided, nextQuestion, answerQuestion, runGuided, type GuidedState, type GuidedStep, type GuidedAnswer, type Contradiction } from "./guided";

/** Every method: name, whether it learns from labelled traces, whether it needs a group, one line. */
export const BLAME_METHODS = METHODS.map(({ name, learned, needs_group, description }) => ({ name, learned, needs_group, description }));

/** The name `method=best` stands for: resolve it with pickBest(evaluateMethods(labelled traces)). */
export const BEST = "best";

export class UnknownBlameMethodError extends Error {
  constructor(readonly method: string) {
    super(`unknown attribution method "${method}"; one of ${METHODS.map((m) => m.name).join(", ")}`);
    this.name = "UnknownBlameMethodError";
  }
}

/**
 * One trace ranked by one method. A learned method needs its trained model
 * (`train(labelled)` of the method, stored as JSON); without one it is not
 * applicable. Throws UnknownBlameMethodError and BlameNotApplicableError.
 */
export function rankTrace(method: string, input: BlameInput, options: { model?: LearnedModel } = {}): BlameRanking {
  const m = methodByName(method);
  if (!m) throw new UnknownBlameMethodError(method);
  if (!m.learned) return m.rank(input);
  if (!options.model) throw new BlameNotApplicableError(method, "no trained model (it needs labelled traces)");
  if (options.model.method !== method) throw new BlameNotApplicableError(method, `the model given was trained for ${options.model.method}`);
  return m.rank(options.model, input);
}
export { nestedCv, nestedRankings, transfer, trainTuned, rankTuned, defaultFamilies, innerSeed, INNER_K, LEARNED_GRID, JUDGED_GRID, EVENTS_GRID, STUMPS_GRID, EVENT_L2_GRID, STUMP_GRID, type NestedResult, type TransferResult, type TunedModel } from "./tuned";
