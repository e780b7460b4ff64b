/**
 * Every score the Attribution page shows for a set of labelled traces, in
 * one pure function: each method under CV (overall and by system), nested
 * CV, cross-system transfer and the simulated guided mode. Minutes of CPU
 * for a few hundred runs; the server runs it in a process of its own.
 */
import { DEFAULT_CV } from "./cv";
import { evaluateMethods, pickBest, type MethodEvaluation } from "./evaluate";
import type { LearnedMethod } from "./methods";
import { METHODS } from "./registry";
import { scoreRankings } from "./scores";
import { simulateGuided, type GuidedSimulation } from "./simulate";
import { nestedCv, transfer, type NestedResult, type TransferResult } from "./tuned";
import type { BlameRanking, LabelledTrace } from "./types";

export interface ReportInput {
  labelled: readonly LabelledTrace[];
  /** trace id of each labelled trace (aligned) */
  traceIds: readonly string[];
  /** system of each labelled trace (aligned) */
  systems: readonly (string | null)[];
  /** stored judge attributions as rankings, per judge method, aligned with `labelled` (null where a judge has none) */
  judged: readonly (readonly [string, readonly (BlameRanking | null)[]])[];
}

export interface SystemReport {
  system: string | null;
  traces: number;
  best: string | null;
  methods: MethodEvaluation[];
  cross_system: { trained_on: number; methods: TransferResult[] };
}

export interface Report {
  best: string | null;
  methods: MethodEvaluation[];
  nested: NestedResult[];
  by_system: SystemReport[];
  guided: GuidedSimulation;
}

function scoreAll(labelled: readonly LabelledTrace[], judged: ReportInput["judged"]): { best: string | null; methods: MethodEvaluation[] } {
  const methods = evaluateMethods(labelled, DEFAULT_CV);
  // a judge is scored like the others but never picked as best: best must be able to rank any trace
  return { best: pickBest(methods), methods: [...methods, ...scoreJudges(labelled, judged)] };
}

function scoreJudges(labelled: readonly LabelledTrace[], judged: ReportInput["judged"]): MethodEvaluation[] {
  return judged.map(([method, rankings]) => {
    const scored = labelled.flatMap((t, i) => (rankings[i] ? [{ ranking: rankings[i], decisive_event_id: t.decisive_event_id, decisive_agent: t.decisive_agent }] : []));
    return { method, learned: false, scores: scored.length > 0 ? scoreRankings(scored) : null, not_applicable: labelled.length - scored.length, cv: null };
  });
}

export function attributionReport({ labelled, traceIds, systems, judged }: ReportInput): Report {
  const distinct = [...new Set(systems)].sort((a, b) => (a ?? "").localeCompare(b ?? ""));
  const overall = scoreAll(labelled, judged);
  const learned = METHODS.filter((m): m is LearnedMethod => m.learned);
  const bySystem = distinct.length < 2 ? [] : distinct.map((system): SystemReport => {
    const keep = (_: unknown, i: number) => systems[i] === system;
    const subset = labelled.filter(keep);
    const others = labelled.filter((_, i) => systems[i] !== system);
    return {
      system,
      traces: subset.length,
      ...scoreAll(subset, judged.map(([m, r]) => [m, r.filter(keep)] as const)),
      cross_system: { trained_on: others.length, methods: transfer(others, subset, learned) },
    };
  });
  return {
    best: overall.best,
    methods: overall.methods,
    nested: nestedCv(labelled, undefined, DEFAULT_CV),
    by_system: bySystem,
    guided: simulateGuided(labelled, traceIds, overall.best),
  };
}
