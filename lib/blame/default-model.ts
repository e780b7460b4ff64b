/**
 * The attribution model Baton ships: what `method=best` ranks with in a
 * project that has too few traces with a decisive error to learn or choose
 * from. Trained by `npm run blame:train-default` on the labelled Who&When
 * runs (both subsets): the candidate of LEARNED_GRID with the best 5-fold
 * cross-validated step accuracy there, retrained on all of them. The JSON
 * holds derived weights only, never a run's content. Its scores on runs it
 * was not trained on (CV, and trained on one system, scored on the other)
 * are in docs/metrics.md; on a Who&When run it is not honest, it saw them.
 */
import file from "./default-model.json";
import type { LearnedModel } from "./methods";
import { methodByName } from "./registry";
import { BlameNotApplicableError, type BlameInput, type BlameRanking } from "./types";

export interface DefaultModelFile {
  readonly version: 1;
  /** Where the labelled traces came from. */
  readonly source: string;
  /** How many labelled traces it was trained on. */
  readonly traces: number;
  readonly trained_at: string;
  /** How the candidate was chosen, and which one. */
  readonly selected_by: string;
  readonly chosen: string;
  /** The trained model of a registered learned method (`model.method`). */
  readonly model: LearnedModel;
}

export const DEFAULT_MODEL = file as unknown as DefaultModelFile;

/** A project needs at least this many labelled traces (other than the one ranked) before `best` learns from its own. */
export { OWN_LABELS_NEEDED } from "./evaluate";

/** One trace ranked by the shipped model. */
export function rankWithDefaultModel(input: BlameInput): BlameRanking {
  const method = methodByName(DEFAULT_MODEL.model.method);
  if (!method?.learned) throw new BlameNotApplicableError(DEFAULT_MODEL.model.method, "the shipped model names no learned method");
  return method.rank(DEFAULT_MODEL.model, input);
}
