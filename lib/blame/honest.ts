/**
 * What `method=best` ranks new runs of one system with, fit on a project's
 * labelled runs: every candidate scored by inner CV on the labelled runs
 * (folds by task when `inner.groups` is given), the pick made on the
 * system's own runs when it has OWN_LABELS_NEEDED of them (else on all),
 * trained on every labelled run. Used to score runs no choice has seen
 * (a hold-out, later runs, another system).
 */
import type { CvOptions } from "./cv";
import { evaluationOf, OWN_LABELS_NEEDED, pickBest, rankingsOf } from "./evaluate";
import type { BlameMethod } from "./methods";
import { scoreRankings, type BlameScores } from "./scores";
import { INNER_K, INNER_REPEATS } from "./tuned";
import type { BlameInput, BlameRanking, LabelledTrace } from "./types";

export interface FittedPick {
  chosen: string;
  rank: (input: BlameInput) => BlameRanking;
}

export const FIT_INNER_CV: CvOptions = { k: INNER_K, seed: 1, repeats: INNER_REPEATS };

export function fitPick(train: readonly LabelledTrace[], systems: readonly (string | null)[], system: string | null, candidates: readonly BlameMethod[], inner: CvOptions = FIT_INNER_CV): FittedPick {
  const ranked = candidates.map((m) => ({ m, runs: Array.from({ length: m.learned ? Math.max(1, inner.repeats ?? 1) : 1 }, (_, r) => rankingsOf(m, train, { ...inner, seed: (inner.seed ?? 1) + r })) }));
  const own = (i: number) => systems[i] === system;
  const keep = train.filter((_, i) => own(i)).length >= OWN_LABELS_NEEDED ? own : () => true;
  const chosen = pickBest(ranked.map(({ m, runs }) => evaluationOf(m, train, runs, null, keep))) ?? candidates[0]!.name;
  const method = candidates.find((c) => c.name === chosen)!;
  if (!method.learned) return { chosen, rank: (input) => method.rank(input) };
  const model = method.train(train);
  return { chosen, rank: (input) => method.rank(model, input) };
}

/** Scores of a fitted pick on runs it has never seen. */
export function scoreFitted(fitted: FittedPick, test: readonly LabelledTrace[]): BlameScores {
  return scoreRankings(test.map((t) => ({ ranking: fitted.rank(t.input), decisive_event_id: t.decisive_event_id, decisive_agent: t.decisive_agent })));
}
