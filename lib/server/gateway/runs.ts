import "server-only";
import { z } from "zod";
import { CALL_OUTCOMES, recordedCallSchema, type CallOutcome, type RecordedCall } from "@/lib/gateway/call";
import { runTrace } from "@/lib/gateway/trace";
import { counterfactualTrace } from "@/lib/replay/trace";
import { setting } from "../config";
import { pool } from "../db/client";
import { storedOrNull } from "../db/stored";
import { ApiError } from "../errors";
import { ingestRecords } from "../ingest/ingest";
import { deleteTrace } from "../queries/delete-trace";
import { counterfactualOf } from "../replay/runs";

/**
 * Gateway runs become traces (docs/gateway.md "From calls to a trace"),
 * with the OTLP receiver's rules (lib/server/otel/finalise.ts): a run idle
 * for BATON_GATEWAY_IDLE_S seconds is claimed (`receiving` ->
 * `finalising`, one claimant wins, SKIP LOCKED between processes), its
 * calls mapped by lib/gateway/trace.ts and stored through the one ingest
 * path (upsert: a run that gets more calls later is stored again, whole);
 * released as `stored` only if no call came meanwhile. A database failure
 * retries with backoff, then fails the run with the reason.
 */

export interface RunOutcome {
  project: string;
  run_key: string;
  trace_id: string;
  status: "stored" | "failed" | "receiving";
  calls: number | null;
  error: string | null;
}

export const gatewayIdleSeconds = (env: NodeJS.ProcessEnv = process.env): number =>
  setting("BATON_GATEWAY_IDLE_S", env);

const STALE_CLAIM_MINUTES = 10;
const MAX_ATTEMPTS = 5;
const RETRY_BASE_SECONDS = 5;

interface Claim {
  project_id: number;
  project: string;
  run_key: string;
  trace_id: string;
  claimed_at: Date;
}

export async function finaliseIdleRuns(idleSeconds = gatewayIdleSeconds()): Promise<RunOutcome[]> {
  return finaliseClaims(await claim({ idleSeconds }));
}

/** Finalises now: one run of a project, or every receiving run of it (POST /api/llm/flush). */
export async function flushRuns(project: string, runKey?: string): Promise<RunOutcome[]> {
  return finaliseClaims(await claim({ project, runKey }));
}

async function claim(o: { idleSeconds?: number; project?: string; runKey?: string }): Promise<Claim[]> {
  const { rows } = await pool().query<Claim>(
    `WITH claimed AS (
       UPDATE gateway_runs SET status = 'finalising', claimed_at = clock_timestamp()
       WHERE (project_id, run_key) IN (
         SELECT r.project_id, r.run_key FROM gateway_runs r JOIN projects p ON p.id = r.project_id
         WHERE ($1::text IS NULL OR p.name = $1) AND ($2::text IS NULL OR r.run_key = $2)
           AND ((r.status = 'receiving' AND ($3::float8 IS NULL OR r.last_call_at <= now() - make_interval(secs => $3::float8))
                 AND ($1::text IS NOT NULL OR r.next_attempt_at IS NULL OR r.next_attempt_at <= now()))
             OR (r.status = 'failed' AND $2::text IS NOT NULL)
             OR (r.status = 'finalising' AND r.claimed_at <= now() - make_interval(mins => $4::int)))
         FOR UPDATE OF r SKIP LOCKED)
       RETURNING project_id, run_key, trace_id, claimed_at)
     SELECT c.*, p.name AS project FROM claimed c JOIN projects p ON p.id = c.project_id ORDER BY c.project_id, c.run_key`,
    [o.project ?? null, o.runKey ?? null, o.idleSeconds ?? null, STALE_CLAIM_MINUTES],
  );
  return rows;
}

async function finaliseClaims(claims: readonly Claim[]): Promise<RunOutcome[]> {
  const outcomes: RunOutcome[] = [];
  for (const c of claims) outcomes.push(await finaliseClaimed(c));
  return outcomes;
}

async function finaliseClaimed(c: Claim): Promise<RunOutcome> {
  // calls an OTLP trace holds (lib/server/gateway/otlp-join.ts) are stored there, not here
  const { rows: stored } = await pool().query<{ id: string; call: unknown; outcome: string }>(
    "SELECT id::text AS id, call, outcome FROM gateway_calls WHERE project_id = $1 AND run_key = $2 AND claimed_by IS NULL ORDER BY id",
    [c.project_id, c.run_key],
  );
  const parsed = stored.map((r) => recordedRow(r, c.run_key));
  const broken = parsed.indexOf(null);
  if (broken >= 0) {
    const reason = `recorded call ${stored[broken]!.id} of the run does not parse (see the log)`;
    return outcome(c, await release(c, "failed", reason), null, reason);
  }
  const rows = parsed.filter((r) => r !== null);
  if (rows.length === 0) {
    // every call is in OTLP traces: the run has no trace of its own (one stored before the join is removed)
    try {
      const { rows: own } = await pool().query("SELECT 1 FROM traces WHERE trace_id = $1 AND project_id = $2", [c.trace_id, c.project_id]);
      if (own.length > 0) await deleteTrace(c.trace_id);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) return retryLater(c, error);
    }
    return outcome(c, await release(c, "stored", null), 0, null);
  }
  const recorded = runTrace({ traceId: c.trace_id, project: c.project, runKey: c.run_key }, rows);
  // a replay or fork (docs/replay.md) carries what it replayed, how, and where it diverged
  const counterfactual = await counterfactualOf(c.project_id, c.run_key);
  const trace = counterfactual === null ? recorded : counterfactualTrace(recorded, counterfactual);
  try {
    await ingestRecords([{ base: "$", value: trace }], { upsert: true, mayReplace: (project) => project === c.project });
  } catch (error) {
    if (!(error instanceof ApiError && error.status < 500)) return retryLater(c, error);
    const reason = [error.message, ...error.details.slice(0, 10).map((d) => `${d.path}: ${d.message}`)].join("; ");
    return outcome(c, await release(c, "failed", reason), null, reason);
  }
  return outcome(c, await release(c, "stored", null), rows.length, null);
}

const recordedRowSchema = z.object({ call: recordedCallSchema, outcome: z.enum(CALL_OUTCOMES) });

/** A stored gateway call (gateway_calls.call and its outcome), or null when it does not parse (logged). */
function recordedRow(row: { id: string; call: unknown; outcome: string }, runKey: string): { call: RecordedCall; outcome: CallOutcome } | null {
  return storedOrNull(recordedRowSchema, row, () => `gateway call ${row.id} of run ${runKey}`);
}

async function retryLater(c: Claim, error: unknown): Promise<RunOutcome> {
  console.error(`[baton] gateway run ${c.run_key}: storing failed:`, error);
  const reason = `could not be stored: ${String((error as Error).message ?? error).slice(0, 300)}`;
  const { rows } = await pool().query<{ status: string }>(
    `UPDATE gateway_runs SET attempts = attempts + 1,
       status = CASE WHEN attempts + 1 >= $4 THEN 'failed' ELSE 'receiving' END,
       error = $5, next_attempt_at = now() + make_interval(secs => $6 * power(2, attempts))
     WHERE project_id = $1 AND run_key = $2 AND status = 'finalising' AND claimed_at = $3
     RETURNING status`,
    [c.project_id, c.run_key, c.claimed_at, MAX_ATTEMPTS, reason, RETRY_BASE_SECONDS],
  );
  return outcome(c, rows[0]?.status === "failed" ? "failed" : "receiving", null, reason);
}

async function release(c: Claim, status: "stored" | "failed", error: string | null): Promise<RunOutcome["status"]> {
  const result = await pool().query(
    `UPDATE gateway_runs SET status = $4, error = $5, finalised_at = CASE WHEN $4 = 'stored' THEN now() ELSE finalised_at END,
       attempts = CASE WHEN $4 = 'stored' THEN 0 ELSE attempts END, next_attempt_at = NULL
     WHERE project_id = $1 AND run_key = $2 AND status = 'finalising' AND claimed_at = $3`,
    [c.project_id, c.run_key, c.claimed_at, status, error],
  );
  return result.rowCount === 1 ? status : "receiving";
}

function outcome(c: Claim, status: RunOutcome["status"], calls: number | null, error: string | null): RunOutcome {
  return { project: c.project, run_key: c.run_key, trace_id: c.trace_id, status, calls, error };
}
