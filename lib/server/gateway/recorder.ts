import "server-only";
import type { GatewayCounters } from "@/lib/api/gateway";
import type { CallOutcome, RecordedCall } from "@/lib/gateway/call";
import { traceIdOfRun } from "@/lib/gateway/request";
import type { TokenizerChoice } from "@/lib/api/gateway";
import { templatedCall } from "@/lib/gateway/chat-template";
import { tokenizedCall, type BuiltinEncoding, type Encoder } from "@/lib/gateway/tokenize";
import { inTransaction } from "../ingest/ingest";
import { projectChatTokenizer } from "./tokenizers";

/**
 * Writes recorded calls off the client's path (docs/gateway.md
 * "Recording"): a call is queued when its reply has ended and written in
 * batches by one writer per process, so that no client waits on the
 * database. A batch the database refuses (or a database that is away) is
 * lost, counted in `lost` (GET /api/status), and logged; the calls
 * themselves were answered already. At most MAX_PENDING calls wait; more
 * are lost the same way rather than held in memory without bound.
 */

export interface CallRecord {
  projectId: number;
  /** null: a run Baton keys itself (the project's open auto run, else a new one) */
  runKey: string | null;
  call: RecordedCall;
  outcome: CallOutcome;
  /** where calls the server gave no token ids get theirs: a built-in encoding or the project's tokenizer (applied here, off the client's path) */
  tokenizer?: TokenizerChoice | null;
  /** the OTLP trace and span the request was made under (its traceparent header), for the join with that trace's spans */
  traceparent?: { traceId: string; spanId: string } | null;
}

const BATCH = 500;
const MAX_PENDING = 20_000;

interface RecorderState {
  queue: CallRecord[];
  writing: Promise<void> | null;
  counters: GatewayCounters;
}

const state = ((globalThis as unknown as { batonGatewayRecorder?: RecorderState }).batonGatewayRecorder ??= {
  queue: [],
  writing: null,
  counters: { calls: 0, recorded: 0, lost: 0, pending: 0, upstream_errors: 0 },
});

export function gatewayCountersNow(): GatewayCounters {
  return { ...state.counters, pending: state.queue.length };
}

/** A call the upstream answered with an error status (forwarded as it was, not recorded). */
export function countUpstreamError(): void {
  state.counters.upstream_errors++;
}

/** Queues a call; never throws, never waits. */
export function record(entry: CallRecord): void {
  state.counters.calls++;
  if (state.queue.length >= MAX_PENDING) {
    state.counters.lost++;
    return;
  }
  state.queue.push(entry);
  state.writing ??= drain();
}

/** Resolves when every call queued so far is written or lost (tests, benches, shutdown). */
export async function recorderSettled(): Promise<void> {
  while (state.writing !== null) await state.writing;
}

async function drain(): Promise<void> {
  // let the calls that end in the same tick join one batch. Written at once: a run's last calls must be in the
  // database when its program ends and the run is flushed, whichever app process recorded them (a delay here,
  // tried for latency, left replay runs waiting for the idle sweep)
  await new Promise((resolve) => setImmediate(resolve));
  try {
    while (state.queue.length > 0) {
      const batch = state.queue.splice(0, BATCH);
      try {
        await writeBatch(await Promise.all(batch.map(withTokenIds)));
        state.counters.recorded += batch.length;
      } catch (error) {
        state.counters.lost += batch.length;
        console.error(`[baton] gateway: ${batch.length} recorded call(s) lost, the database refused them:`, (error as Error).message);
      }
    }
  } finally {
    state.writing = null;
  }
}

async function withTokenIds(entry: CallRecord): Promise<CallRecord> {
  if (!entry.tokenizer) return entry;
  if (entry.tokenizer === "project") {
    const tok = await projectChatTokenizer(entry.projectId);
    if (tok === null) return entry;
    try {
      return { ...entry, call: templatedCall(entry.call, tok) };
    } catch {
      // text the tokenizer cannot encode: the call is kept without ids
      return entry;
    }
  }
  return { ...entry, call: tokenizedCall(entry.call, await encoderOf(entry.tokenizer)) };
}

/** The encodings' tables are large: each is loaded on first use. */
const encoders = new Map<BuiltinEncoding, Promise<Encoder>>();
function encoderOf(name: BuiltinEncoding): Promise<Encoder> {
  let encoder = encoders.get(name);
  if (!encoder) {
    encoder = name === "o200k_base"
      ? import("gpt-tokenizer/encoding/o200k_base").then((m) => ({ encode: (t: string) => m.encode(t), encodeChat: (c) => m.encodeChat(c, "gpt-4o") }) satisfies Encoder)
      : import("gpt-tokenizer/encoding/cl100k_base").then((m) => ({ encode: (t: string) => m.encode(t), encodeChat: (c) => m.encodeChat(c, "gpt-4") }) satisfies Encoder);
    encoders.set(name, encoder);
  }
  return encoder;
}

const AUTO_RUN_SQL = `SELECT run_key FROM gateway_runs WHERE project_id = $1 AND auto AND status = 'receiving' ORDER BY last_call_at DESC LIMIT 1`;

async function writeBatch(batch: readonly CallRecord[]): Promise<void> {
  await inTransaction(async (client) => {
    // calls without a run key join the project's open auto run, else start one named by the time of its first call
    const autoKeys = new Map<number, string>();
    for (const entry of batch) {
      if (entry.runKey !== null || autoKeys.has(entry.projectId)) continue;
      const { rows } = await client.query<{ run_key: string }>(AUTO_RUN_SQL, [entry.projectId]);
      autoKeys.set(entry.projectId, rows[0]?.run_key ?? `auto-${new Date(entry.call.t * 1000).toISOString()}`);
    }
    const rows = batch
      .map((e) => ({ ...e, auto: e.runKey === null, key: e.runKey ?? autoKeys.get(e.projectId)! }))
      .sort((a, b) => a.projectId - b.projectId || a.key.localeCompare(b.key));
    // one statement per table, rows in a fixed order, so that concurrent writers lock runs in the same order
    await client.query(
      `INSERT INTO gateway_runs (project_id, run_key, trace_id, auto, status, call_count, first_call_at, last_call_at)
       SELECT project_id, run_key, min(trace_id), bool_or(auto), 'receiving', count(*), to_timestamp(min(t)), now()
       FROM unnest($1::int[], $2::text[], $3::text[], $4::bool[], $5::float8[]) AS x(project_id, run_key, trace_id, auto, t)
       GROUP BY project_id, run_key ORDER BY project_id, run_key
       ON CONFLICT (project_id, run_key) DO UPDATE SET status = 'receiving', call_count = gateway_runs.call_count + EXCLUDED.call_count,
         last_call_at = now(), error = NULL, attempts = 0, next_attempt_at = NULL`,
      [rows.map((r) => r.projectId), rows.map((r) => r.key), rows.map((r) => traceIdOfRun(r.key)), rows.map((r) => r.auto), rows.map((r) => r.call.t)],
    );
    await client.query(
      `INSERT INTO gateway_calls (project_id, run_key, call, outcome, t, otel_trace_id, otel_span_id)
       SELECT * FROM unnest($1::int[], $2::text[], $3::json[], $4::text[], $5::float8[], $6::text[], $7::text[])`,
      [
        rows.map((r) => r.projectId), rows.map((r) => r.key), rows.map((r) => JSON.stringify(r.call)), rows.map((r) => r.outcome),
        rows.map((r) => r.call.t), rows.map((r) => r.traceparent?.traceId ?? null), rows.map((r) => r.traceparent?.spanId ?? null),
      ],
    );
  });
}
