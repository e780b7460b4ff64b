import "server-only";
import { readPrepared } from "@/lib/server/db/prepared";
import type { Trace as TraceRow } from "@/lib/generated/prisma/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { METRIC_CATALOGUE, metricsOf, SPEC_VERSION, type TraceMetrics } from "@/lib/metrics";
import { traceSchema } from "@/lib/trace/schema";
import { stored } from "../db/stored";
import { wilsonInterval } from "@/lib/stats";
import { recomputeMetrics } from "../compute/persist";
import { NO_JUDGES, type JudgeSelection } from "@/lib/judges/selection";
import { e1WithJudges } from "../judges/e1";
import { traceWhere } from "./trace-filter";
import { findTraceRow } from "./traces";
import { median } from "@/lib/metrics/sketch";
import { judgedE1, KIND, summaryMetrics, summaryTotals, summaryWhere } from "../summaries/read";

/** `GET /api/traces/{id}/metrics`: the metrics stored with the trace (computed at ingest, recomputed on change). */
export async function traceMetrics(traceId: string): Promise<TraceMetrics> {
  const row = await findTraceRow(traceId);
  return row.metricsVersion === SPEC_VERSION ? rowToMetrics(row) : recomputeMetrics(row.id);
}

/** The metrics a trace reported (traces.reported_metrics: its `metrics` object as ingested). */
const REPORTED = traceSchema.shape.metrics.unwrap();

export function rowToMetrics(r: TraceRow): TraceMetrics {
  return {
    version: SPEC_VERSION,
    e1: r.e1 === null ? null : r.e1 === 1 ? 1 : 0,
    e2: {
      critical_steps: r.criticalSteps!,
      step_parallelism: r.stepParallelism!,
      busy_time: r.busyTime!,
      makespan: r.makespan!,
      speedup: r.speedup,
      max_concurrency: r.maxConcurrency!,
      efficiency: r.efficiency,
      useful_agent_utilization: r.usefulAgentUtilization,
    },
    e3: { message_redundancy: r.messageRedundancy, dead_message_rate: r.deadMessageRate, aggregate_diversity: r.aggregateDiversity },
    e4: { protocol_overhead: r.protocolOverhead!, error_amplification: r.errorAmplification!, tainted_events: r.taintedEvents!, terminal_tainted: r.terminalTainted! },
    stop: { stop_reason: r.stopReason, stop_t: r.stopT, tail_events: r.tailEvents!, tail_tokens: r.tailTokens!, wasted_work_ratio: r.wastedWorkRatio!, verdict: r.verdict! },
    reported: r.reportedMetrics === null ? {} : stored(REPORTED, r.reportedMetrics, `trace ${JSON.stringify(r.traceId)}: its reported metrics`),
  };
}

export interface MetricsFilter {
  project?: string;
  system?: string;
  task_id?: string;
  group_id?: string;
  topology?: string;
  /** restrict to these projects (what the caller may read); undefined for all */
  readable?: string[];
  /** judges whose trace-level task_success values fill E1 where people left it (SPEC.md section 5); default none */
  judges?: JudgeSelection;
}

/** Aggregated value columns of `GET /api/metrics`, by section: the metric catalogue's. */
const AGGREGATED = { e2: metricsOf("e2").map((m) => m.key), e3: metricsOf("e3").map((m) => m.key), e4: metricsOf("e4").map((m) => m.key) };
/** A metric's column as a number (a boolean one as 0/1). */
const BOOLEAN_COLUMNS = new Set<string>(METRIC_CATALOGUE.filter((m) => m.kind === "boolean").map((m) => m.key));
/** Columns of whole numbers (int4, booleans as 0/1): summed as int8, exact without numeric per row. */
export const INTEGER_COLUMNS = new Set<string>(METRIC_CATALOGUE.filter((m) => m.kind === "boolean" || m.kind === "count").map((m) => m.key));

type MeanMedian = { mean: number | null; median: number | null };

/**
 * `GET /api/metrics`: one SQL query over the stored per-trace columns
 * (SPEC.md section 4 aggregates): E1 rate with its Wilson 95% interval,
 * mean and median of every E2-E4 value over non-null values, verdict counts.
 */
export async function aggregateMetrics(filter: MetricsFilter) {
  const cells = summaryWhere(filter);
  return cells === null ? aggregateScan(filter) : aggregateSummaries(filter, cells);
}

/** The answer from the metric summaries: counts, E1 (with judges: corrected by the traces judges labelled) and means exact, medians from the fine bins (lib/metrics/sketch.ts). */
async function aggregateSummaries(filter: MetricsFilter, cells: Prisma.Sql) {
  const [totals, metrics, judged] = await Promise.all([summaryTotals(cells), summaryMetrics(cells), judgedE1(filter, filter.judges ?? NO_JUDGES)]);
  for (const c of judged) {
    totals.e1_n += c.n;
    totals.e1_successes += c.successes;
  }
  const section = (names: readonly string[]) =>
    Object.fromEntries(
      names.map((c) => {
        const s = metrics.get(c)!;
        const m = s.min === null || s.max === null ? null : median(KIND.get(c)!, s.bins, s.n, { min: s.min, max: s.max });
        return [c, { mean: s.mean === null ? null : Number(s.mean), median: m } satisfies MeanMedian];
      }),
    );
  const verdicts: Record<string, number> = { premature: 0, late: 0, unknown: 0, ok: 0 };
  for (const v of totals.verdicts) if (v.verdict !== null) verdicts[v.verdict] = v.n;
  return answer(totals.traces, totals.e1_successes, totals.e1_n, section, verdicts);
}

/**
 * The scan: one pass over the filtered traces (every mean, both middle values of every median from one
 * sort per column, the verdict counts), in numeric where float8 arithmetic could overflow or round; a
 * prepared statement (lib/server/db/prepared.ts): on a task or a group, planning was most of its time.
 */
async function aggregateScan(filter: MetricsFilter) {
  const where = traceWhere(filter);
  const columns = Object.values(AGGREGATED).flat();
  const value = (c: string) => (BOOLEAN_COLUMNS.has(c) ? Prisma.raw(`(t.${c})::int`) : Prisma.raw(`t.${c}`));
  const selects = columns.flatMap((c) => [
    Prisma.sql`${safeMean(value(c), INTEGER_COLUMNS.has(c))} AS ${Prisma.raw(`"${c}_mean"`)}`,
    Prisma.sql`${safeMedian(value(c))} AS ${Prisma.raw(`"${c}_median"`)}`,
  ]);
  const verdictCounts = Prisma.raw(["premature", "late", "unknown", "ok"].map((v) => `count(*) FILTER (WHERE t.verdict = '${v}')::int AS "v_${v}"`).join(", "));
  const judged = e1WithJudges(filter.judges ?? NO_JUDGES);
  const [row] = await readPrepared<Record<string, number | bigint | string | null>>(Prisma.sql`
    SELECT count(*)::int AS traces, count(${judged.e1})::int AS e1_n, coalesce(sum(${judged.e1}), 0)::int AS e1_successes, ${verdictCounts}, ${Prisma.join(selects)}
    FROM traces t ${judged.join} ${where}`);
  const r = row!;
  const section = (names: readonly string[]) =>
    Object.fromEntries(names.map((c) => [c, { mean: num(r[`${c}_mean`]), median: num(r[`${c}_median`]) } satisfies MeanMedian]));
  const verdicts: Record<string, number> = { premature: 0, late: 0, unknown: 0, ok: 0 };
  for (const v of Object.keys(verdicts)) verdicts[v] = Number(r[`v_${v}`]);
  return answer(Number(r.traces), Number(r.e1_successes), Number(r.e1_n), section, verdicts);
}

function answer(traces: number, successes: number, n: number, section: (names: readonly string[]) => Record<string, MeanMedian>, verdicts: Record<string, number>) {
  const wilson = wilsonInterval(successes, n);
  return {
    version: SPEC_VERSION,
    traces,
    e1: { rate: wilson?.rate ?? null, low: wilson?.low ?? null, high: wilson?.high ?? null, n },
    e2: section(AGGREGATED.e2),
    e3: section(AGGREGATED.e3),
    e4: section(AGGREGATED.e4),
    verdicts,
  };
}


/**
 * Aggregates that cannot fail for any finite float8 stored (values near
 * 1e308 stored before SPEC's 1e15 limit or by another tool, subnormals such
 * as 5e-324): summed in numeric (exact, unbounded) and handed to JavaScript
 * as text, which rounds it to the nearest double (0 below the smallest
 * subnormal). PostgreSQL's numeric -> float8 cast refuses such a value
 * ("out of range") instead of rounding, and its float8 arithmetic raises
 * "underflow" where a product or quotient of non-zero values rounds to 0.
 */
export const safeMean = (v: Prisma.Sql, integer = false) =>
  integer ? Prisma.sql`(trim_scale(sum(${v})::numeric) / nullif(count(${v}), 0))::text` : Prisma.sql`(trim_scale(sum((${v})::numeric)) / nullif(count(${v}), 0))::text`;

/**
 * The median of SPEC.md (percentile_cont(0.5): the middle value, or the
 * mean of the two middle ones) without float8 arithmetic: the lower and the
 * upper middle values are picked (percentile_disc, no arithmetic) and
 * averaged in numeric, so that neither `b - a` near 1e308 overflows nor a
 * halved subnormal underflows.
 */
export const safeMedian = (v: Prisma.Sql) =>
  Prisma.sql`((((percentile_disc(ARRAY[0.5, 0.5 + 1e-12]) WITHIN GROUP (ORDER BY (${v})::float8))[1])::numeric
    + ((percentile_disc(ARRAY[0.5, 0.5 + 1e-12]) WITHIN GROUP (ORDER BY (${v})::float8))[2])::numeric) / 2)::text`;

function num(v: number | bigint | string | null | undefined): number | null {
  return v === null || v === undefined ? null : Number(v);
}
