/** Every attribution method by name. */
import { CREDIT_METHODS } from "../credit/index";
import { rankAnswerOrigin } from "./answer";
import { needsGroup, rankByNegativeCredit } from "./credit";
import { rankDivergence, rankErrors } from "./errors";
import { frequentAgent, frequentStep } from "./frequency";
import { learnedStumps } from "./boosted";
import { learnedCombined } from "./combined";
import { learnedMix } from "./ensemble";
import { hasJudges } from "./judge";
import { learnedEvents, learnedJudged, learnedWords } from "./learned";
import type { BlameMethod, HeuristicMethod } from "./methods";
import type { LabelledTrace } from "./types";
import { rankFirstStep, rankLastEvent, rankMostActive, rankRandom } from "./priors";

const creditMethods: HeuristicMethod[] = CREDIT_METHODS.map((m) => ({
  name: `neg_credit_${m}`,
  learned: false,
  needs_group: needsGroup(m),
  description: `most negative ${m} credit first (uniform preset); agents by ascending sum`,
  rank: (input) => rankByNegativeCredit(m, input),
}));

const heuristic = (name: string, description: string, rank: HeuristicMethod["rank"], needs_group = false): HeuristicMethod => ({ name, learned: false, needs_group, description, rank });

export const METHODS: readonly BlameMethod[] = [
  ...creditMethods,
  heuristic("random", "no evidence: every step and every agent ties (people excluded), the expected score of a random pick", rankRandom),
  heuristic("first_step", "the earliest step after the task first (people excluded); agents by their earliest step", rankFirstStep),
  heuristic("last_event", "the last event first", rankLastEvent),
  heuristic("most_active_agent", "the agent with the most steps; its events tie", rankMostActive),
  heuristic("errors", "the step that caused the first failed event, then the failure itself; later errors weigh less", rankErrors),
  heuristic("answer_origin", "the first event that wrote down the run's final answer, then the steps just before it", rankAnswerOrigin),
  heuristic("divergence", "the failed rollout's event where its group's successes and failures part ways", rankDivergence, true),
  frequentAgent,
  frequentStep,
  learnedEvents,
  learnedWords,
  learnedCombined,
  learnedStumps,
  learnedMix,
];

/**
 * Methods that read the judges' answers about a trace (`judged`): not in METHODS, so that where no judge answered
 * every list, score and choice is what it was; methodsFor adds them where some did.
 */
export const JUDGED_METHODS: readonly BlameMethod[] = [learnedJudged];

/** The methods scored on a set of labelled traces: METHODS, and JUDGED_METHODS when a judge answered about one of them. */
export function methodsFor(labelled: readonly LabelledTrace[]): readonly BlameMethod[] {
  return labelled.some((t) => hasJudges(t.input)) ? [...METHODS, ...JUDGED_METHODS] : METHODS;
}

export function methodByName(name: string): BlameMethod | undefined {
  return METHODS.find((m) => m.name === name) ?? JUDGED_METHODS.find((m) => m.name === name);
}
