import "server-only";
import { adaptOtlpSpans } from "@/lib/adapters/otlp";
import { otlpSpanSchema, type OtlpSpan } from "@/lib/adapters/otlp-span";
import { NotARunError } from "@/lib/adapters/otlp/warnings";
import { AdapterInputError, type AdaptedTrace } from "@/lib/adapters/types";
import { otelConfig } from "../config";
import { pool } from "../db/client";
import { storedOrNull } from "../db/stored";
import { ApiError } from "../errors";
import { claimJoined, joinGateway } from "../gateway/otlp-join";
import { ingestRecords } from "../ingest/ingest";

/**
 * Finalisation: a receiving trace's staged spans are mapped (lib/adapters/
 * otlp.ts) and stored through the one ingest path (ingestRecords, upsert).
 *
 * Exactly once under concurrency: a trace is first claimed with
 * `UPDATE ... SET status = 'finalising' WHERE status = 'receiving' ...
 * RETURNING`, which PostgreSQL's row lock lets one caller win; the others'
 * UPDATE re-checks the row after the winner's and finds it claimed. The
 * claim is released with `status = 'stored'` only if it is still the same
 * claim (same claimed_at) and no span came meanwhile: a span that arrives
 * during finalisation puts the trace back to receiving, and the next
 * finalisation maps it with that span. A claim older than
 * STALE_CLAIM_MINUTES (its process died) is taken over.
 *
 * Isolation: a trace that fails while being stored (the database refuses
 * it, or is briefly away) never stops the others. It goes back to
 * receiving with `next_attempt_at` = now + 2^attempts x RETRY_BASE_SECONDS
 * (sweeps skip it until then), and after MAX_ATTEMPTS it is failed with the
 * reason, shown on the trace list and page; a flush naming it retries it now.
 * Claims use FOR UPDATE SKIP LOCKED, so that several Baton processes
 * sweeping at once split the work instead of queueing on each other's rows.
 */

export interface FinaliseOutcome {
  trace_id: string;
  /** stored; failed (the spans do not map onto a valid trace); ignored (the spans are no run: framework bookkeeping such as agent creation, listed nowhere); receiving (spans came during finalisation: it will run again) */
  status: "stored" | "failed" | "ignored" | "receiving";
  events: number | null;
  edges: number | null;
  error: string | null;
}

/** Where OTLP traces are stored (lib/adapters/otlp.ts sets no project). */
const OTLP_PROJECT = "default";
const STALE_CLAIM_MINUTES = 10;
export const MAX_ATTEMPTS = 5;
const RETRY_BASE_SECONDS = 5;

/** Finalises every trace that has had no new span for BATON_OTEL_IDLE_S seconds. */
export async function finaliseIdleTraces(idleSeconds = otelConfig().idleSeconds): Promise<FinaliseOutcome[]> {
  return finaliseClaims(await claim({ idleSeconds }));
}

/** Finalises now (POST /api/otel/v1/flush): one trace (a failed one is retried), or every receiving trace. */
export async function flushTraces(traceId?: string): Promise<FinaliseOutcome[]> {
  return finaliseClaims(await claim({ traceId }));
}

interface Claim {
  trace_id: string;
  claimed_at: Date;
}

/** Claims receiving traces (idle ones, or one, or all), failed ones when named, and stale claims. */
async function claim(opts: { idleSeconds?: number; traceId?: string }): Promise<Claim[]> {
  const result = await pool().query<Claim>(
    `UPDATE otel_traces SET status = 'finalising', claimed_at = clock_timestamp()
     WHERE trace_id IN (
       SELECT trace_id FROM otel_traces
       WHERE ($1::text IS NULL OR trace_id = $1)
         AND ((status = 'receiving' AND ($2::float8 IS NULL OR last_span_at <= now() - make_interval(secs => $2::float8))
               AND ($1::text IS NOT NULL OR next_attempt_at IS NULL OR next_attempt_at <= now()))
           OR (status = 'failed' AND $1::text IS NOT NULL)
           OR (status = 'finalising' AND claimed_at <= now() - make_interval(mins => $3::int)))
       FOR UPDATE SKIP LOCKED)
     RETURNING trace_id, claimed_at`,
    [opts.traceId ?? null, opts.idleSeconds ?? null, STALE_CLAIM_MINUTES],
  );
  return result.rows.sort((a, b) => a.trace_id.localeCompare(b.trace_id));
}

async function finaliseClaims(claims: readonly Claim[]): Promise<FinaliseOutcome[]> {
  const outcomes: FinaliseOutcome[] = [];
  for (const c of claims) outcomes.push(await finaliseClaimed(c));
  return outcomes;
}

async function finaliseClaimed(c: Claim): Promise<FinaliseOutcome> {
  const rows = await pool().query<{ span_id: string; span: unknown }>("SELECT span_id, span FROM otel_spans WHERE trace_id = $1 ORDER BY span_id", [c.trace_id]);
  const parsed = rows.rows.map((r) => storedOrNull(otlpSpanSchema, r.span, () => `staged span ${r.span_id} of OTLP trace ${c.trace_id}`));
  const broken = parsed.indexOf(null);
  if (broken >= 0) {
    const reason = `staged span ${rows.rows[broken]!.span_id} does not parse (see the log): not mapped`;
    return outcome(c, await release(c, "failed", reason), null, reason);
  }
  const spans = parsed.filter((s) => s !== null);
  const depth = parentChainDepth(spans);
  if (depth > MAX_SPAN_DEPTH) {
    const reason = `spans nested more than ${MAX_SPAN_DEPTH} levels deep (a parent of a parent of ...${depth === Infinity ? ", in a cycle" : ""}): not mapped`;
    return outcome(c, await release(c, "failed", reason), null, reason);
  }
  let trace: unknown;
  try {
    trace = adaptOtlpSpans(spans);
  } catch (error) {
    if (!(error instanceof AdapterInputError)) console.error(`[baton] OTLP trace ${c.trace_id}: mapping failed:`, error);
    const reason = error instanceof AdapterInputError ? error.details.join("; ") : `the spans could not be mapped (${(error as Error).message})`;
    return outcome(c, await release(c, error instanceof NotARunError ? "ignored" : "failed", reason), null, reason);
  }
  let stored: { events: number; edges: number };
  try {
    // calls that also went through the gateway are stored once, with what the gateway saw (lib/server/gateway/otlp-join.ts)
    const joined = await joinGateway(trace as AdaptedTrace, spans, OTLP_PROJECT);
    // spans replace a stored trace of the project they are stored in, never one of another project
    // (a trace_id is unique across projects: the spans' sender may not write there, nor read it)
    const [result] = await ingestRecords([{ base: "$", value: joined.trace }], { upsert: true, mayReplace: (project) => project === OTLP_PROJECT });
    stored = { events: result!.events, edges: result!.edges };
    await claimJoined(joined.rowIds, result!.trace_id);
  } catch (error) {
    if (!(error instanceof ApiError && error.status < 500)) return retryLater(c, error);
    const reason = [error.message, ...error.details.slice(0, 10).map((d) => `${d.path}: ${d.message}`)].join("; ");
    return outcome(c, await release(c, "failed", reason), null, reason);
  }
  return outcome(c, await release(c, "stored", null), stored, null);
}

/** A failure while storing: back to receiving with a backoff, or failed after MAX_ATTEMPTS; never thrown at the caller (the other traces go on). */
async function retryLater(c: Claim, error: unknown): Promise<FinaliseOutcome> {
  console.error(`[baton] OTLP trace ${c.trace_id}: storing failed:`, error);
  const reason = `could not be stored: ${(error as Error).message?.slice(0, 300) ?? String(error)}`;
  const result = await pool().query<{ status: string; attempts: number }>(
    `UPDATE otel_traces SET attempts = attempts + 1,
       status = CASE WHEN attempts + 1 >= $3 THEN 'failed' ELSE 'receiving' END,
       error = CASE WHEN attempts + 1 >= $3 THEN $4 || ' (after ' || (attempts + 1) || ' attempts)' ELSE $4 END,
       next_attempt_at = now() + make_interval(secs => $5 * power(2, attempts))
     WHERE trace_id = $1 AND status = 'finalising' AND claimed_at = $2
     RETURNING status, attempts`,
    [c.trace_id, c.claimed_at, MAX_ATTEMPTS, reason, RETRY_BASE_SECONDS],
  );
  const status = result.rows[0]?.status === "failed" ? "failed" : "receiving";
  return outcome(c, status, null, reason);
}

/** Ends a claim; returns the trace's status afterwards ("receiving" when spans came during the finalisation). */
async function release(c: Claim, status: "stored" | "failed" | "ignored" | "receiving", error: string | null): Promise<FinaliseOutcome["status"]> {
  const result = await pool().query(
    `UPDATE otel_traces SET status = $3, error = $4, finalised_at = CASE WHEN $3 = 'stored' THEN now() ELSE finalised_at END,
       attempts = CASE WHEN $3 = 'stored' THEN 0 ELSE attempts END, next_attempt_at = NULL
     WHERE trace_id = $1 AND status = 'finalising' AND claimed_at = $2`,
    [c.trace_id, c.claimed_at, status, error],
  );
  return result.rowCount === 1 ? (status === "receiving" ? "receiving" : status) : "receiving";
}

/**
 * The mapping walks the span tree depth first; a chain of thousands of
 * parents (one export of 20,000 spans took the server 12.7 s, 5,000 overflowed
 * the stack) is refused before it, by this iterative count (each span's depth
 * once, memoised; a parent cycle counts as a chain that never ends).
 */
export const MAX_SPAN_DEPTH = 1000;

export function parentChainDepth(spans: readonly Pick<OtlpSpan, "spanId" | "parentSpanId">[]): number {
  const parent = new Map(spans.map((s) => [s.spanId, s.parentSpanId]));
  const depth = new Map<string, number>();
  let deepest = 0;
  for (const { spanId } of spans) {
    const path: string[] = [];
    let at: string | undefined = spanId;
    const onPath = new Set<string>();
    while (at !== undefined && !depth.has(at) && parent.has(at) && !onPath.has(at)) {
      path.push(at);
      onPath.add(at);
      if (path.length > MAX_SPAN_DEPTH) return path.length;
      at = parent.get(at);
    }
    if (at !== undefined && onPath.has(at)) return Infinity;
    let d = at !== undefined && depth.has(at) ? depth.get(at)! : 0;
    for (let i = path.length - 1; i >= 0; i--) depth.set(path[i]!, ++d);
    deepest = Math.max(deepest, d);
    if (deepest > MAX_SPAN_DEPTH) return deepest;
  }
  return deepest;
}

function outcome(c: Claim, status: FinaliseOutcome["status"], stored: { events: number; edges: number } | null, error: string | null): FinaliseOutcome {
  return { trace_id: c.trace_id, status, events: stored?.events ?? null, edges: stored?.edges ?? null, error };
}
