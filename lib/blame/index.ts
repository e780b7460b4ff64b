export * from "./types";
export { blameInput, stripTrace } from "./input";
export { scoreRankings, type BlameScores, type LevelScores, type Score } from "./scores";
export { evaluateMethods, evaluateMethod, pickBest, type MethodEvaluation } from "./evaluate";
export { kFolds, crossValidatedRankings, rankUnderCv, DEFAULT_CV, type CvOptions } from "./cv";
export { METHODS, methodByName } from "./registry";
