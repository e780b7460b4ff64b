import "server-only";
import { DEFAULT_CV, orderedEventIds, type BlameRanking, type GuidedSimulation, type LabelledTrace, type MethodEvaluation, type NestedResult } from "@/lib/blame";
import type { SystemReport } from "@/lib/blame/report";
import { attributionReportElsewhere } from "./report-process";
import { judgeMethodName, judgeRanking, type JudgeMode } from "@/lib/blame/judge";
import type { Prisma } from "@/lib/generated/prisma/client";
import { SPEC_VERSION } from "@/lib/metrics";
import { pool, prisma } from "../db/client";
import { scheduleBlameRefresh } from "./jobs";
import { fingerprintOf, labelledRows, loadLabelled, type LabelledFilter, type LabelledRow } from "./labelled";

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

/** Each judge method's stored attributions, by trace index of the labelled traces (null where it has none). */
type JudgedRankings = Map<string, (BlameRanking | null)[]>;

async function judgedRankings(labelled: readonly LabelledTrace[], rows: readonly LabelledRow[]): Promise<JudgedRankings> {
  const stored = await prisma().judgeAttribution.findMany({ where: { traceKey: { in: rows.map((r) => r.trace_id) } }, include: { judge: { select: { name: true } } } });
  const index = new Map(rows.map((r, i) => [r.trace_id, i]));
  const out: JudgedRankings = new Map();
  for (const a of stored) {
    const method = judgeMethodName(a.judge.name, a.mode as JudgeMode);
    const list = out.get(method) ?? rows.map(() => null);
    const i = index.get(a.traceKey)!;
    const input = labelled[i]!.input;
    const step = a.eventId === null ? -1 : orderedEventIds(input).indexOf(a.eventId);
    // a failed reply names nothing: it counts as a miss, not as a skip
    list[i] = step < 0 ? { method, events: [], agents: [] } : judgeRanking(method, input, step, a.reason ?? "");
    out.set(method, list);
  }
  return out;
}

/** The form of a kept evaluation: a kept answer of an older form is recomputed. */
const EVALUATION_FORM = 3;

export const keyOf = (f: LabelledFilter) => JSON.stringify({ project: f.project ?? null, system: f.system ?? null, readable: f.readable ? [...f.readable].sort() : null });

/** Cross-validated scores of every method, computed now unless kept in blame_evaluations for the current labels (minutes of CPU for a hundred runs, most of it nested CV, in a child process: report-process.ts). */
export async function blameEvaluation(f: LabelledFilter): Promise<BlameEvaluationResponse> {
  const { result, fresh, rows, fingerprint } = await stored(f);
  if (result && fresh) return result;
  return computeAndKeep(f, rows, fingerprint);
}

/**
 * What pages and `method=best` use, never waiting for a computation: the kept
 * scores (`fresh` false when the labels changed since; null when never
 * computed), with a background job scheduled to bring them up to date.
 */
export async function keptBlameEvaluation(f: LabelledFilter): Promise<{ result: BlameEvaluationResponse | null; fresh: boolean }> {
  const { result, fresh, rows, fingerprint } = await stored(f);
  if (fresh) return { result, fresh };
  // nothing labelled is quick to score; anything else is scored in the background
  if (rows.length === 0) return { result: await computeAndKeep(f, rows, fingerprint), fresh: true };
  await scheduleBlameRefresh({ filter: f });
  return { result, fresh };
}

async function stored(f: LabelledFilter) {
  const rows = await labelledRows(f);
  // the labels, and the judges' attributions of those traces (a new judge run is a new evaluation)
  const judged = await pool().query<{ n: number; latest: Date | null }>("SELECT count(*)::int AS n, max(created_at) AS latest FROM judge_attributions WHERE trace_key = ANY($1::text[])", [rows.map((r) => r.trace_id)]);
  const fingerprint = `${EVALUATION_FORM}:${fingerprintOf(rows)}:${judged.rows[0]!.n}:${judged.rows[0]!.latest?.toISOString() ?? ""}`;
  const cached = await prisma().blameEvaluation.findUnique({ where: { key: keyOf(f) } });
  return { result: (cached?.result ?? null) as unknown as BlameEvaluationResponse | null, fresh: cached?.fingerprint === fingerprint, rows, fingerprint };
}

async function computeAndKeep(f: LabelledFilter, rows: readonly LabelledRow[], fingerprint: string): Promise<BlameEvaluationResponse> {
  const result = await evaluate(f, rows);
  const key = keyOf(f);
  const data = { fingerprint, result: result as unknown as Prisma.InputJsonValue, computedAt: new Date(result.computed_at) };
  await prisma().blameEvaluation.upsert({ where: { key }, create: { key, ...data }, update: data });
  return result;
}

async function evaluate(f: LabelledFilter, rows: readonly LabelledRow[]): Promise<BlameEvaluationResponse> {
  const labelled = await loadLabelled(rows);
  const judged = await judgedRankings(labelled, rows);
  const report = await attributionReportElsewhere({ labelled, traceIds: rows.map((r) => r.trace_id), systems: rows.map((r) => r.system), judged: [...judged] });
  return {
    version: SPEC_VERSION,
    filter: { project: f.project ?? null, system: f.system ?? null },
    traces: rows.length,
    cv: { k: DEFAULT_CV.k, seed: DEFAULT_CV.seed, by: "trace" },
    best: report.best,
    methods: report.methods,
    nested: report.nested,
    by_system: report.by_system,
    guided: report.guided,
    agreement: await decisiveAgreement(rows.map((r) => r.trace_id)),
    computed_at: new Date().toISOString(),
  };
}

/** Agreement of decisive errors (SPEC.md section 5) over traces with >= 2 annotators (agent names compared case-insensitively, trimmed). */
export async function decisiveAgreement(traceKeys: readonly string[]): Promise<BlameEvaluationResponse["agreement"]> {
  const { rows } = await pool().query<{ traces: number; same_event: number; same_agent: number }>(
    `SELECT count(*)::int AS traces, count(*) FILTER (WHERE events = 1)::int AS same_event, count(*) FILTER (WHERE agents = 1)::int AS same_agent
     FROM (SELECT trace_key, count(DISTINCT event_id) AS events, count(DISTINCT lower(btrim(agent))) AS agents
           FROM decisive_errors WHERE trace_key = ANY($1::text[]) GROUP BY trace_key HAVING count(*) >= 2) x`,
    [traceKeys],
  );
  const r = rows[0]!;
  return { traces: r.traces, same_event: r.traces > 0 ? r.same_event / r.traces : null, same_agent: r.traces > 0 ? r.same_agent / r.traces : null };
}

/**
 * `method=best` for a trace of `system` in a project: the kept evaluation's best method for the system's labelled
 * traces when the project holds several systems and this one has enough of them (`bySystem`), else the project's
 * (scheduling a rescore when the labels changed); null when never scored or no trace is labelled.
 */
export async function bestMethodOf(project: string, system: string | null): Promise<{ method: string; as_of: string; fresh: boolean; bySystem: boolean } | null> {
  const { result, fresh } = await keptBlameEvaluation({ project });
  const own = result?.by_system.find((s) => s.system === system)?.best;
  if (own) return { method: own, as_of: result.computed_at, fresh, bySystem: true };
  return result?.best ? { method: result.best, as_of: result.computed_at, fresh, bySystem: false } : null;
}
