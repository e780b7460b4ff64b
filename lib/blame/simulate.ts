/**
 * The guided mode simulated on labelled runs: "still on track after step k?"
 * answered truthfully from each run's decisive event, with a method's
 * cross-validated ranking as the prior, against plain bisection.
 */
import { DEFAULT_CV, type CvOptions } from "./cv";
import { rankingsOf } from "./evaluate";
import { orderedEventIds } from "./input";
import { runGuided } from "./guided";
import { methodByName } from "./registry";
import type { BlameRanking, LabelledTrace } from "./types";

export interface GuidedRun {
  trace_id: string;
  events: number;
  /** the steps asked about, in order, with the truthful answer */
  questions: { event_id: string; on_track: boolean }[];
  plain_answers: number;
  found: boolean;
}

/** The simulation over a set of runs: its prior method, the mean answers with and without it, and every run. */
export interface GuidedSimulation {
  method: string | null;
  mean_answers: number | null;
  plain_mean_answers: number | null;
  runs: GuidedRun[];
}

export function simulateGuided(labelled: readonly LabelledTrace[], traceIds: readonly string[], best: string | null, cv: CvOptions = DEFAULT_CV): GuidedSimulation {
  const method = best === null ? undefined : methodByName(best);
  return simulateGuidedWith(labelled, traceIds, method ? rankingsOf(method, labelled, cv) : labelled.map(() => null), best);
}

/** The same with each run's prior ranking given (aligned with `labelled`; null: plain bisection); `method` names the prior. */
export function simulateGuidedWith(labelled: readonly LabelledTrace[], traceIds: readonly string[], priors: readonly (BlameRanking | null)[], method: string | null): GuidedSimulation {
  const best = method;
  const runs = labelled.map((t, i): GuidedRun => {
    const ids = orderedEventIds(t.input);
    const d = ids.indexOf(t.decisive_event_id);
    const guided = runGuided(ids, priors[i] ?? null, (k) => k < d);
    return { trace_id: traceIds[i]!, events: ids.length, questions: guided.answers.map((a) => ({ event_id: a.event_id, on_track: a.on_track })), plain_answers: runGuided(ids, null, (k) => k < d).answers.length, found: guided.decisive_index === d };
  });
  const mean = (f: (r: GuidedRun) => number) => (runs.length > 0 ? runs.reduce((s, r) => s + f(r), 0) / runs.length : null);
  return { method: best, mean_answers: mean((r) => r.questions.length), plain_mean_answers: mean((r) => r.plain_answers), runs };
}

