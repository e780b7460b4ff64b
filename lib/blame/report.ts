/**
 * Every score the Attribution page shows for a set of labelled traces, in
 * one pure function: each method under CV (overall and by system), nested
 * CV, cross-system transfer and the simulated guided mode. Minutes of CPU
 * for a few hundred runs; the server runs it in a process of its own.
 */
import { DEFAULT_CV, taskGroups } from "./cv";
import { evaluationOf, OWN_LABELS_NEEDED, pickBest, rankingsOf, type MethodEvaluation } from "./evaluate";
import { prepareCandidates } from "./learned";
import type { BlameMethod, LearnedMethod } from "./methods";
import { methodsFor } from "./registry";
import { scoredTraces, scoreRankings, type BlameScores } from "./scores";
import { withTrainingCache } from "./train-cache";
import { simulateGuidedWith, type GuidedSimulation } from "./simulate";
import { defaultFamilies, mergeNested, nestedFold, nestedFolds, transfer, type NestedFold, type NestedResult, type TransferResult } from "./tuned";
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
  /**
   * What `method=best` stands for on this system's traces: the best CV'd step accuracy over them
   * (null with fewer than OWN_LABELS_NEEDED of them: the overall best applies)
   */
  best: string | null;
  /** scored on this system's traces; a learned method trained (under CV) on every labelled trace, as the project's model is */
  methods: MethodEvaluation[];
  /** the nested CV of every labelled trace, scored on this system's */
  nested: NestedResult[];
  /** nested CV with folds by task (no task on both sides of a fold), scored on this system's */
  nested_by_task: NestedResult[];
  cross_system: { trained_on: number; methods: TransferResult[] };
}

/**
 * The estimate to expect on runs never labelled (what the Attribution page leads with): `best (nested)` under nested CV
 * whose outer and inner folds are made of whole tasks (taskGroups), so that no question is ranked by a model (or a
 * choice) that saw another run of it; overall and per system, with `best (nested)` trained on the other systems
 * beside it (cross-system: what to expect from a system with no labels of its own yet).
 */
export interface LeadingEstimate {
  label: "nested CV by task";
  /** outer folds (inner: INNER_K), by task */
  k: number;
  /** distinct tasks among the labelled runs */
  tasks: number;
  /** null with fewer than 2k labelled runs */
  scores: BlameScores | null;
  by_system: { system: string | null; scores: BlameScores | null; cross_system: BlameScores | null }[];
}

export interface Report {
  best: string | null;
  methods: MethodEvaluation[];
  nested: NestedResult[];
  /** nested CV with folds by task, overall */
  nested_by_task: NestedResult[];
  estimate: LeadingEstimate;
  by_system: SystemReport[];
  guided: GuidedSimulation;
}

function scoreJudges(labelled: readonly LabelledTrace[], judged: ReportInput["judged"], keep: (i: number) => boolean): MethodEvaluation[] {
  return judged.map(([method, rankings]) => {
    const scored = scoredTraces(labelled, rankings, keep);
    const n = labelled.filter((_, i) => keep(i)).length;
    return { method, learned: false, scores: scored.length > 0 ? scoreRankings(scored) : null, not_applicable: n - scored.length, cv: null };
  });
}

/**
 * Seconds of the report per event of the labelled runs, per thread, on an idle 2-core machine, when some runs share a
 * task (a second nested CV, by task). Its trainings read every event of the training runs, as many of them whatever
 * the count, so the time grows with the events: 100 Who&When runs of both systems (3,041 events) took 59.5 s of wall
 * time in two threads and 117.4 s in one (`npm run bench:blame -- --report --runs 100 --threads 2|1`, load average
 * 1.7-2.2), 0.039 s per event and thread; the 138 runs (3,803 events, more of them short) then took 75.0 s in two
 * threads (this gives 74 s; counted by runs, the same fit gave 83 s). What the Attribution page promises before a
 * scoring has progressed enough to tell; a busy machine takes longer, which the progress then shows.
 */
export const SECONDS_PER_EVENT = 0.039;

/**
 * Wall seconds of a scoring of labelled runs holding `events` events computed in `threads` threads
 * (BATON_BLAME_THREADS, at most the cores): the work shared evenly (the helpers start on the parts while this thread
 * scores the methods).
 */
export function estimatedSeconds(events: number, threads = 1): number {
  return Math.max(1, Math.round((events * SECONDS_PER_EVENT) / Math.max(1, threads)));
}

/** Share of the report's work in the methods under CV (this thread, first), as its progress counts it. */
const METHODS_SHARE = 0.1;
/** CPU time of a system's cross-system part, in outer folds of a nested CV (measured on Who&When runs). */
const TRANSFER_WEIGHT = 1.5;

/**
 * A part of the report computed on its own, in this thread or a helper's: an outer fold of the nested CV (by run, or
 * by task), or one system's cross-system scores. None depends on another: computed anywhere, in any order, each gives
 * the same result to the bit (training is deterministic), and they are merged in a fixed order.
 */
export type ReportPart = { part: "nested"; byTask: boolean; fold: number } | { part: "transfer"; system: string | null };
export type PartResult = NestedFold | TransferResult[];

const distinctSystems = (systems: readonly (string | null)[]) => [...new Set(systems)].sort((a, b) => (a ?? "").localeCompare(b ?? ""));
const learnedOf = (methods: readonly BlameMethod[]) => methods.filter((m): m is LearnedMethod => m.learned);

/** The report's parts, the longest first (what helpers and this thread claim in turn). */
export function reportParts({ labelled, systems }: Pick<ReportInput, "labelled" | "systems">): ReportPart[] {
  const distinct = distinctSystems(systems);
  const groups = taskGroups(labelled);
  // with every task distinct, folds by task are the folds by trace (groupFolds = kFolds): the same rankings, computed once
  const shared = new Set(groups).size < groups.length;
  return [
    ...(distinct.length >= 2 ? distinct.map((system): ReportPart => ({ part: "transfer", system })) : []),
    ...nestedFolds(labelled, DEFAULT_CV).map((fold): ReportPart => ({ part: "nested", byTask: false, fold })),
    ...(shared ? nestedFolds(labelled, { ...DEFAULT_CV, groups }).map((fold): ReportPart => ({ part: "nested", byTask: true, fold })) : []),
  ];
}

/** One part of the report of `input`. */
export function runPart({ labelled, systems }: Pick<ReportInput, "labelled" | "systems">, part: ReportPart): PartResult {
  // with judges' answers about the runs, `learned_judged` and its family as well (registry.ts methodsFor)
  const methods = methodsFor(labelled);
  if (part.part === "nested") {
    const outer = part.byTask ? { ...DEFAULT_CV, groups: taskGroups(labelled) } : DEFAULT_CV;
    return nestedFold(labelled, defaultFamilies(methods), outer, distinctSystems(systems).length >= 2 ? systems : undefined, part.fold);
  }
  const keep = (i: number) => systems[i] === part.system;
  return transfer(
    labelled.filter((_, i) => !keep(i)),
    labelled.filter((_, i) => keep(i)),
    learnedOf(methods),
    defaultFamilies(methods),
  );
}

/**
 * Other threads computing parts of the same report (lib/server/blame/report-threads.ts): each claims its next part as
 * this thread does, by `Atomics.add(claims, 0, 1)` (the part's index in reportParts; past the end: no part left).
 */
export interface ReportHelpers {
  start(input: ReportInput, claims: Int32Array): void;
  /** The parts helpers computed since the last call, as [index, result]; with `wait`, at least one (blocking); a helper's error is thrown. */
  receive(wait: boolean): [number, PartResult][];
  stop(): void;
}

/**
 * `onProgress(share)`: called as parts finish, with the share of the work done (0..1). With `helpers`, the parts are
 * computed in several threads at once: the same report, sooner.
 */
export function attributionReport(input: ReportInput, onProgress: (share: number) => void = () => {}, helpers?: ReportHelpers): Report {
  return withTrainingCache(() => report(input, onProgress, helpers));
}

function report(input: ReportInput, onProgress: (share: number) => void, helpers: ReportHelpers | undefined): Report {
  const { labelled, systems } = input;
  const distinct = distinctSystems(systems);
  const several = distinct.length >= 2;
  const parts = reportParts(input);
  const results = new Array<PartResult | undefined>(parts.length);
  const claims = new Int32Array(new SharedArrayBuffer(8));
  const helping = helpers !== undefined && parts.length > 1;
  // helpers start (and claim parts) while this thread scores the methods
  if (helping) helpers.start(input, claims);
  try {
    // every method ranks every trace once (a learned one under CV over all of them); systems are scored from the same rankings
    const methods = methodsFor(labelled);
    prepareCandidates(methods, labelled, DEFAULT_CV);
    const ranked = methods.map((method, i) => {
      const rankings = rankingsOf(method, labelled, DEFAULT_CV);
      onProgress((METHODS_SHARE * (i + 1)) / methods.length);
      return { method, rankings };
    });
    const weight = (p: ReportPart) => (p.part === "transfer" ? TRANSFER_WEIGHT : 1);
    const total = parts.reduce((a, p) => a + weight(p), 0);
    let doneWeight = 0;
    let done = 0;
    const finish = ([i, result]: [number, PartResult]) => {
      results[i] = result;
      done++;
      doneWeight += weight(parts[i]!);
      onProgress(METHODS_SHARE + ((1 - METHODS_SHARE) * doneWeight) / total);
    };
    for (;;) {
      if (helping) helpers.receive(false).forEach(finish);
      const i = Atomics.add(claims, 0, 1);
      if (i >= parts.length) break;
      finish([i, runPart(input, parts[i]!)]);
    }
    while (done < parts.length) helpers!.receive(true).forEach(finish);
    return assemble(input, ranked, parts, results as PartResult[], distinct, several);
  } finally {
    if (helping) helpers.stop();
  }
}

function assemble({ labelled, traceIds, systems, judged }: ReportInput, ranked: { method: BlameMethod; rankings: (BlameRanking | null)[] }[], parts: readonly ReportPart[], results: readonly PartResult[], distinct: (string | null)[], several: boolean): Report {
  const cv = { k: DEFAULT_CV.k, seed: DEFAULT_CV.seed };
  // a judge is scored like the others but never picked as best: best must be able to rank any trace
  const scoreAll = (keep: (i: number) => boolean) => {
    const methods = ranked.map(({ method, rankings }) => evaluationOf(method, labelled, [rankings], method.learned ? cv : null, keep));
    return { best: pickBest(methods), methods: [...methods, ...scoreJudges(labelled, judged, keep)] };
  };
  const overall = scoreAll(() => true);
  const families = defaultFamilies(ranked.map((r) => r.method));
  const foldsOf = (byTask: boolean) => parts.flatMap((p, i) => (p.part === "nested" && p.byTask === byTask ? [{ fold: p.fold, result: results[i] as NestedFold }] : [])).sort((a, b) => a.fold - b.fold).map((p) => p.result);
  const merged = (folds: NestedFold[]) => (folds.length === 0 ? [] : mergeNested(labelled.length, families, folds));
  const nested = merged(foldsOf(false));
  const groups = taskGroups(labelled);
  const shared = new Set(groups).size < groups.length;
  const byTask = shared ? merged(foldsOf(true)) : nested;
  const nestedOf = (keep: (i: number) => boolean, from = nested) =>
    from.map(({ family, rankings, chosen }) => ({
      family,
      scores: scoreRankings(scoredTraces(labelled, rankings, keep)),
      chosen,
    }));
  const bySystem = !several ? [] : distinct.map((system): SystemReport => {
    const keep = (i: number) => systems[i] === system;
    const subset = labelled.filter((_, i) => keep(i));
    const scored = scoreAll(keep);
    const part = parts.findIndex((p) => p.part === "transfer" && p.system === system);
    const cross_system = { trained_on: labelled.length - subset.length, methods: results[part] as TransferResult[] };
    return {
      system,
      traces: subset.length,
      best: subset.length >= OWN_LABELS_NEEDED ? scored.best : null,
      methods: scored.methods,
      nested: nestedOf(keep),
      nested_by_task: nestedOf(keep, byTask),
      cross_system,
    };
  });
  // the guided mode's prior for a run: the best method of its system, else the overall best
  const bestOf = (i: number) => bySystem.find((s) => s.system === systems[i])?.best ?? overall.best;
  const priors = labelled.map((_, i) => ranked.find((r) => r.method.name === bestOf(i))?.rankings[i] ?? null);
  const nestedByTask = nestedOf(() => true, byTask);
  const bestOfFamily = (results: readonly { family?: string; method?: string; scores: BlameScores }[]) => results.find((r) => (r.family ?? r.method) === "best (nested)")?.scores ?? null;
  const estimate: LeadingEstimate = {
    label: "nested CV by task",
    k: DEFAULT_CV.k,
    tasks: new Set(groups).size,
    scores: bestOfFamily(nestedByTask),
    by_system: bySystem.map((s) => ({ system: s.system, scores: bestOfFamily(s.nested_by_task), cross_system: bestOfFamily(s.cross_system.methods) })),
  };
  return {
    best: overall.best,
    methods: overall.methods,
    nested: nestedOf(() => true),
    nested_by_task: nestedByTask,
    estimate,
    by_system: bySystem,
    guided: simulateGuidedWith(labelled, traceIds, priors, bySystem.some((s) => s.best && s.best !== overall.best) ? bySystem.map((s) => `${s.system ?? "(no system)"}: ${s.best ?? overall.best}`).join(", ") : overall.best),
  };
}
