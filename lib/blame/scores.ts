/**
 * The scores of SPEC.md section 10 over a set of traces with a known
 * decisive error: top-1 and top-3 accuracy (ties counted as the expected
 * score of a random tie-break) and MRR, each with a Wilson 95 % interval.
 */
import { wilsonInterval } from "../stats/wilson";
import { agentKey } from "./rank";
import type { BlameRanking, LabelledTrace } from "./types";

/** Where the answer sits in a ranking: its rank and how many items share that rank (0 tied when absent). */
export interface AnswerPlace {
  rank: number;
  tied: number;
}

/** The place of the item matching `isAnswer` in a list of ranks, or null when it is not ranked. */
export function placeOf<T extends { rank: number }>(items: readonly T[], isAnswer: (item: T) => boolean): AnswerPlace | null {
  const answer = items.find(isAnswer);
  if (!answer) return null;
  return { rank: answer.rank, tied: items.filter((i) => i.rank === answer.rank).length };
}

/** Top-k credit of one trace: the share of the answer's tie group that falls within the first k ranks. */
export function topK(place: AnswerPlace | null, k: number): number {
  if (!place) return 0;
  const last = place.rank + place.tied - 1;
  if (place.rank > k) return 0;
  if (last <= k) return 1;
  return (k - place.rank + 1) / place.tied;
}

/** Reciprocal rank of one trace: a tie spanning ranks i..j counts the mean of 1/r over them. */
export function reciprocalRank(place: AnswerPlace | null): number {
  if (!place) return 0;
  let sum = 0;
  for (let r = place.rank; r < place.rank + place.tied; r++) sum += 1 / r;
  return sum / place.tied;
}

export interface Score {
  /** Mean over the traces. */
  value: number;
  /** Wilson 95 % interval with the mean as p over n traces. */
  low: number;
  high: number;
  n: number;
}

export interface LevelScores {
  top1: Score;
  top3: Score;
  mrr: Score;
}

export interface BlameScores {
  /** Traces scored. */
  n: number;
  step: LevelScores;
  agent: LevelScores;
}

export interface ScoredTrace {
  ranking: BlameRanking;
  decisive_event_id: string;
  decisive_agent: string;
}

function score(values: readonly number[]): Score {
  const n = values.length;
  const mean = n === 0 ? 0 : values.reduce((a, b) => a + b, 0) / n;
  const w = wilsonInterval(mean * n, n);
  return { value: mean, low: w?.low ?? 0, high: w?.high ?? 0, n };
}

function levelScores(places: readonly (AnswerPlace | null)[]): LevelScores {
  return { top1: score(places.map((p) => topK(p, 1))), top3: score(places.map((p) => topK(p, 3))), mrr: score(places.map(reciprocalRank)) };
}

/** Rankings aligned with `labelled` paired with their answers, over the traces `keep` selects that have a ranking. */
export function scoredTraces(labelled: readonly LabelledTrace[], rankings: readonly (BlameRanking | null | undefined)[], keep: (i: number) => boolean = () => true): ScoredTrace[] {
  return labelled.flatMap((t, i) => {
    const ranking = rankings[i];
    return keep(i) && ranking ? [{ ranking, decisive_event_id: t.decisive_event_id, decisive_agent: t.decisive_agent }] : [];
  });
}

/** Step and agent scores of a set of rankings against their decisive events. */
export function scoreRankings(traces: readonly ScoredTrace[]): BlameScores {
  const steps = traces.map((t) => placeOf(t.ranking.events, (e) => e.id === t.decisive_event_id));
  const agents = traces.map((t) => placeOf(t.ranking.agents, (a) => agentKey(a.agent) === agentKey(t.decisive_agent)));
  return { n: traces.length, step: levelScores(steps), agent: levelScores(agents) };
}

/** How often each method named the labelled step (step top-1, with its interval) on one system's labelled runs, as last scored. */
export interface SystemAccuracy {
  system: string;
  best: string | null;
  /** method -> step top-1 over the system's labelled runs */
  step_top1: Record<string, Score>;
}
