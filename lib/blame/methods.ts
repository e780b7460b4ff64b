import { z } from "zod";
/** The shapes of attribution methods: heuristics rank directly, learned ones train a JSON model first. */
import type { BlameInput, BlameRanking, LabelledTrace } from "./types";

export interface MethodInfo {
  readonly name: string;
  readonly learned: boolean;
  /** True when the method needs the other rollouts of the trace's group. */
  readonly needs_group: boolean;
  /** One line, for docs and the UI. */
  readonly description: string;
  /**
   * false: never what `method=best` picks, nor a candidate of the nested CV's `best (nested)`; it is still scored,
   * and ranks when asked for by name.
   */
  readonly in_best?: false;
  /**
   * true: it reads the judges' answers about the trace (BlameInput.judges), which the server attaches only for such a
   * method; scored only where the labelled traces have some (registry.ts JUDGED_METHODS).
   */
  readonly judged?: true;
}

export interface HeuristicMethod extends MethodInfo {
  readonly learned: false;
  rank(input: BlameInput): BlameRanking;
}

/** What every learned model carries besides its parameters (all of it plain JSON). */
/** What every stored model holds (its method's own fields besides): what a model read back from the database is checked against. */
export const learnedModelSchema = z.looseObject({ method: z.string().min(1), trained_on: z.number().int().nonnegative() });

export interface LearnedModel {
  readonly method: string;
  /** How many labelled traces it was trained on. */
  readonly trained_on: number;
}

export interface LearnedMethod<M extends LearnedModel = LearnedModel> extends MethodInfo {
  readonly learned: true;
  train(examples: readonly LabelledTrace[]): M;
  rank(model: M, input: BlameInput): BlameRanking;
}

export type BlameMethod = HeuristicMethod | LearnedMethod;
