import "server-only";
import type { GuidedSimulation, MethodEvaluation, NestedResult } from "@/lib/blame";
import { availableParallelism } from "node:os";
import { estimatedSeconds, type LeadingEstimate, type SystemReport } from "@/lib/blame/report";
import { setting } from "../config";
import type { SPEC_VERSION } from "@/lib/metrics";
import { blameEvaluationSchema, type scoringStatusSchema } from "@/lib/api/blame-evaluation";
import { sameType } from "@/lib/api/contract";
import type { z } from "zod";
import { pool } from "../db/client";
import { storedOrNull } from "../db/stored";
import { labelledRows, type LabelledFilter } from "./labelled";
import { cancelScoring, enqueueScoring, ensureScoringWorker } from "./scoring";
import { scoreLabelled, scoringKey } from "./score-labelled";

/** `GET /api/blame/evaluation`: every method scored on the labelled traces of a filter (SPEC.md section 10), overall and by system. */
export interface BlameEvaluationResponse {
  version: typeof SPEC_VERSION;
  filter: { project: string | null; system: string | null };
  /** labelled traces scored */
  traces: number;
  /** how learned methods were scored */
  cv: { k: number; seed: number; by: "trace" };
  /** the method `method=best` stands for here: the best cross-validated step accuracy (then agent accuracy, then MRR) */
  best: string | null;
  methods: MethodEvaluation[];
  /**
   * Scores with nothing tuned on the traces scored: outer k-fold CV by trace, and on each outer training part
   * every setting of the learned methods (L2, boosting rounds and leaf penalty, feature set) and the best pick
   * itself (`best (nested)`: what method=best does) chosen by inner k-fold CV; `chosen` is what each outer fold kept
   * (with several systems, per system: "<system>: <candidate>", each system's pick made on its own training traces).
   * Empty with fewer than 2k labelled traces.
   */
  nested: NestedResult[];
  /**
   * The same nested CV with folds made of whole tasks (a run's task_id: runs of one question never on both sides of
   * an outer or inner fold); equal to `nested` when every run has a task of its own.
   */
  nested_by_task?: NestedResult[];
  /**
   * The estimate to expect on runs not labelled yet, which the Attribution page leads with: `best (nested)` under nested
   * CV by task, overall and per system, with the same pick trained on the other systems beside it (`cross_system`).
   * Absent from scores computed before it existed.
   */
  estimate?: LeadingEstimate;
  /**
   * per system (when the filter holds several): every method scored on the system's traces (learned ones trained under CV on
   * all the filter's, as the project's model is), its own `best` (what method=best uses for its traces; null below 10 traces),
   * nested CV scored on them, and `cross_system`: every learned method trained on the labelled traces of the other systems
   * (settings and best chosen by CV there), scored on this system's
   */
  by_system: SystemReport[];
  /**
   * The guided mode on each labelled run with a truthful annotator (who answers from the decisive error):
   * the best method's ranking (cross-validated) as prior; `plain` is bisection without one
   */
  guided: GuidedSimulation;
  /** SPEC.md section 5: of the traces with >= 2 annotators' decisive errors, the share on which all name the same event (and, apart, the same agent) */
  agreement: { traces: number; same_event: number | null; same_agent: number | null };
  computed_at: string;
}

/** Where one scoring (one labelled set) stands: computed once by a background job, read by everyone who asks. */
export interface ScoringStatus {
  state: "queued" | "running" | "done" | "failed" | "cancelled";
  /** share of the work done, 0..1 */
  progress: number;
  /** labelled traces it scores */
  traces: number;
  queued_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** seconds until its scores are ready (an estimate on this machine; null once finished) */
  estimate_seconds: number | null;
  /** why it failed, or why it was cancelled */
  error?: string;
}

sameType<z.output<typeof blameEvaluationSchema>, BlameEvaluationResponse>();
sameType<z.output<typeof scoringStatusSchema>, ScoringStatus>();

/** What a caller reads: the state of the scoring of the labelled set it asked about, its scores once done, else the last scores of the filter it may read. */
export interface BlameEvaluationAnswer {
  scoring: ScoringStatus;
  result: BlameEvaluationResponse | null;
  /** whether `result` scores the labelled set as it is now */
  fresh: boolean;
}

interface ScoringRow {
  key: string;
  trace_keys: string[];
  state: ScoringStatus["state"];
  progress: number;
  error: string | null;
  /** as stored: read through storedScores */
  result: unknown;
  queued_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

/** Whether a caller who reads `readable` (null: every project) may read every trace a result covers. */
export async function mayReadAll(traceKeys: readonly string[], readable: readonly string[] | undefined): Promise<boolean> {
  if (!readable) return true;
  const { rows } = await pool().query<{ n: number }>(
    "SELECT count(*)::int AS n FROM traces t JOIN projects p ON p.id = t.project_id WHERE t.trace_id = ANY($1::text[]) AND p.name = ANY($2::text[])",
    [traceKeys, readable],
  );
  return rows[0]!.n === new Set(traceKeys).size;
}

/** The threads a scoring computes in: BATON_BLAME_THREADS, at most the cores. */
const scoringThreads = () => Math.min(setting("BATON_BLAME_THREADS"), availableParallelism());

/** `events`: of the runs the scoring covers (its time grows with them). */
function statusOf(row: ScoringRow, events: number, now = Date.now()): ScoringStatus {
  const traces = row.trace_keys.length;
  let estimate: number | null = null;
  if (row.state === "queued") estimate = estimatedSeconds(events, scoringThreads());
  else if (row.state === "running") {
    const elapsed = (now - (row.started_at ?? row.queued_at).getTime()) / 1000;
    // early on, the progress says little: the estimate for this many runs, less the time spent
    estimate = row.progress >= 0.1 ? (elapsed / row.progress) * (1 - row.progress) : Math.max(estimatedSeconds(events, scoringThreads()) - elapsed, 1);
    estimate = Math.max(1, Math.round(estimate));
  }
  return {
    state: row.state,
    progress: row.progress,
    traces,
    queued_at: row.queued_at.toISOString(),
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
    estimate_seconds: estimate,
    ...(row.error && { error: row.error }),
  };
}

const COLUMNS = "key, trace_keys, state, progress, error, result, queued_at, started_at, finished_at";

/** A finished scoring's stored scores (blame_scorings.result), or null when there are none or they do not parse (logged). */
export function storedScores(value: unknown, key: string): BlameEvaluationResponse | null {
  return value === null ? null : storedOrNull(blameEvaluationSchema, value, () => `the stored scores of blame scoring ${key.slice(0, 12)}`);
}

/** A finished scoring whose scores do not parse is failed, with the reason: the next ask after ten minutes scores the set again. */
async function failUnreadable(row: ScoringRow): Promise<ScoringRow> {
  const error = "its stored scores do not parse (see the log)";
  await pool().query("UPDATE blame_scorings SET state = 'failed', error = $2 WHERE key = $1 AND state = 'done'", [row.key, error]);
  return { ...row, state: "failed", error };
}

/**
 * The scores of every method on the labelled traces of a filter, never waiting for them: the scoring of the labelled
 * set as it is now (one per distinct input, shared by every caller and process, computed by a background job that
 * this queues when it is new, or was cancelled), its scores once done, else the last scores of the same filter the
 * caller may read all of. Nothing labelled is scored here at once (there is nothing to compute).
 */
export async function blameEvaluation(f: LabelledFilter): Promise<BlameEvaluationAnswer> {
  const rows = await labelledRows(f);
  const filter = { project: f.project ?? null, system: f.system ?? null };
  if (rows.length === 0) return nothingLabelled(filter);
  const key = await scoringKey(rows);
  const traceKeys = rows.map((r) => r.trace_id);
  // a cancelled scoring, or one that failed over ten minutes ago, is queued again by the next ask
  const again = "(blame_scorings.state = 'cancelled' OR blame_scorings.state = 'failed' AND blame_scorings.finished_at < now() - interval '10 minutes')";
  const { rows: upserted } = await pool().query<ScoringRow & { requeue: boolean }>(
    `INSERT INTO blame_scorings (key, project, system, trace_keys, state) VALUES ($1, $2, $3, $4, 'queued')
     ON CONFLICT (key) DO UPDATE SET asked_at = now(),
       state = CASE WHEN ${again} THEN 'queued' ELSE blame_scorings.state END,
       progress = CASE WHEN ${again} THEN 0 ELSE blame_scorings.progress END,
       error = CASE WHEN ${again} THEN NULL ELSE blame_scorings.error END,
       started_at = CASE WHEN ${again} THEN NULL ELSE blame_scorings.started_at END,
       finished_at = CASE WHEN ${again} THEN NULL ELSE blame_scorings.finished_at END,
       queued_at = CASE WHEN ${again} THEN now() ELSE blame_scorings.queued_at END
     RETURNING ${COLUMNS}, (xmax = 0 OR state = 'queued' AND queued_at = now()) AS requeue`,
    [key, filter.project, filter.system, traceKeys],
  );
  let row: ScoringRow = upserted[0]!;
  const scores = row.state === "done" ? storedScores(row.result, key) : null;
  if (row.state === "done" && scores === null) row = await failUnreadable(row);
  if (upserted[0]!.requeue) await enqueueScoring({ key, filter: f });
  // a process that asks works the queue too (the one that queued the job may be gone)
  else if (row.state === "queued" || row.state === "running") ensureScoringWorker();
  const scoring = statusOf(row, rows.reduce((sum, r) => sum + r.event_count, 0));
  if (scores !== null && (await mayReadAll(row.trace_keys, f.readable))) return { scoring, result: { ...scores, filter }, fresh: true };
  return { scoring, result: await previousScores(f, key), fresh: false };
}

/** Cancels the scoring of the labelled set under a filter as it is now (every project's runs the filter holds); false when none was queued or running. */
export async function cancelCurrentScoring(f: LabelledFilter, reason: string): Promise<boolean> {
  const rows = await labelledRows(f);
  return rows.length > 0 && cancelScoring(await scoringKey(rows), reason);
}

/** The last finished scores of the same filter whose traces the caller may all read (null when none). */
async function previousScores(f: LabelledFilter, key: string): Promise<BlameEvaluationResponse | null> {
  const { rows } = await pool().query<ScoringRow>(
    `SELECT ${COLUMNS} FROM blame_scorings WHERE state = 'done' AND key <> $1 AND project IS NOT DISTINCT FROM $2 AND system IS NOT DISTINCT FROM $3
     ORDER BY finished_at DESC LIMIT 5`,
    [key, f.project ?? null, f.system ?? null],
  );
  for (const r of rows) {
    const scores = storedScores(r.result, r.key);
    if (scores !== null && (await mayReadAll(r.trace_keys, f.readable))) return { ...scores, filter: { project: f.project ?? null, system: f.system ?? null } };
  }
  return null;
}

/** Nothing labelled (or nothing the caller may read): nothing to compute, nothing stored. */
async function nothingLabelled(filter: BlameEvaluationResponse["filter"]): Promise<BlameEvaluationAnswer> {
  const now = new Date().toISOString();
  const result = { ...(await scoreLabelled([], [])), filter };
  return { scoring: { state: "done", progress: 1, traces: 0, queued_at: now, started_at: now, finished_at: now, estimate_seconds: null }, result, fresh: true };
}

/**
 * `method=best` for a trace of `system` in a project: the best method of the project's scores for the system's
 * labelled traces when the project holds several systems and this one has enough of them (`bySystem`), else the
 * project's; the last scores while the labels' new scoring runs (`fresh` false); null when never scored.
 */
export async function bestMethodOf(project: string, system: string | null): Promise<{ method: string; as_of: string; fresh: boolean; bySystem: boolean } | null> {
  const { result, fresh } = await blameEvaluation({ project });
  const own = result?.by_system.find((s) => s.system === system)?.best;
  if (own) return { method: own, as_of: result.computed_at, fresh, bySystem: true };
  return result?.best ? { method: result.best, as_of: result.computed_at, fresh, bySystem: false } : null;
}
