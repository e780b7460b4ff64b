import type pg from "pg";
import { modelCallSchema, type ModelCall } from "@/lib/trace/calls";
import type { StoreItem } from "../ingest/store";
import { copyLines, copyValue as v, jsonText } from "../db/copy";
import { pool } from "../db/client";
import { stored } from "../db/stored";

/**
 * The model calls of stored traces (SPEC.md section 6), in their own table:
 * written with COPY beside the events, read only by the forms that carry
 * them (extended, transitions) and the inspector.
 */

const CALL_COLUMNS = [
  "trace_id", "seq", "call_id", "agent", "t", "t_end", "model", "input", "output",
  "input_tokens", "output_tokens", "prompt_token_ids", "response_token_ids", "response_id", "event_ids",
  "tools", "params", "finish_reason", "response_logprobs", "token_source", "source",
] as const;

/** int4[] or float8[] in COPY text form; null when unknown (JavaScript's shortest round-trip decimals, read back exactly). */
function numberArray(values: readonly number[] | undefined): string | null {
  return values === undefined ? null : `{${values.join(",")}}`;
}

export function* callLines(items: readonly StoreItem[], ids: Map<string, number>): Generator<string> {
  for (const { prepared } of items) {
    const calls = prepared.trace.calls ?? [];
    const traceId = ids.get(prepared.trace.trace_id)!;
    // validateTrace keeps calls in call order: seq is the index
    for (let seq = 0; seq < calls.length; seq++) {
      const c = calls[seq]!;
      yield `${traceId}\t${seq}\t${v(c.id)}\t${v(c.agent)}\t${c.t}\t${v(c.t_end)}\t${v(c.model)}\t${v(jsonText(c.input))}\t${v(jsonText(c.output))}\t${v(c.input_tokens)}\t${v(c.output_tokens)}\t${v(numberArray(c.prompt_token_ids))}\t${v(numberArray(c.response_token_ids))}\t${v(c.response_id)}\t${v(jsonText(c.events))}\t${v(jsonText(c.tools))}\t${v(jsonText(c.params))}\t${v(c.finish_reason)}\t${v(numberArray(c.response_logprobs))}\t${v(c.token_source)}\t${v(c.source)}\n`;
    }
  }
}

/** Writes the calls of `items` inside the caller's transaction. */
export async function writeCalls(client: pg.PoolClient, items: readonly StoreItem[], ids: Map<string, number>): Promise<void> {
  if (!items.some((i) => (i.prepared.trace.calls?.length ?? 0) > 0)) return;
  await copyLines(client, "model_calls", CALL_COLUMNS, callLines(items, ids));
}

interface CallRow {
  call_id: string;
  agent: string;
  t: number;
  t_end: number | null;
  model: string | null;
  input: unknown;
  output: unknown;
  input_tokens: number | null;
  output_tokens: number | null;
  prompt_token_ids: number[] | null;
  response_token_ids: number[] | null;
  response_id: string | null;
  event_ids: unknown;
  tools: unknown;
  params: unknown;
  finish_reason: string | null;
  response_logprobs: number[] | null;
  token_source: ModelCall["token_source"] | null;
  source: ModelCall["source"] | null;
}

const FIDELITY_COLUMNS = "tools, params, finish_reason, response_logprobs, token_source, source";

const CALLS_SQL = `SELECT call_id, agent, t, t_end, model, input, output, input_tokens, output_tokens,
    prompt_token_ids, response_token_ids, response_id, event_ids, ${FIDELITY_COLUMNS}
  FROM model_calls WHERE trace_id = $1 ORDER BY seq`;

/** The calls of a stored trace in call order, each as the extended form writes it. */
export async function loadCalls(traceDbId: number): Promise<ModelCall[]> {
  const { rows } = await pool().query<CallRow>({ name: "calls.load", text: CALLS_SQL, values: [traceDbId] });
  return rows.map(callOf);
}

/** The JSON columns of a stored call, parsed with the schema the call was written with. */
const jsonColumns = modelCallSchema.pick({ input: true, output: true, tools: true, params: true, events: true });

function callOf(r: CallRow): ModelCall {
  const json = stored(
    jsonColumns,
    { input: r.input, output: r.output, events: r.event_ids, ...(r.tools !== null && { tools: r.tools }), ...(r.params !== null && { params: r.params }) },
    () => `model call ${JSON.stringify(r.call_id)}`,
  );
  // built in CALL_KEYS' order, absent values left out (what canonicalCall gives), one object per call: a snapshot reads hundreds of thousands
  const call: Record<string, unknown> = { id: r.call_id, agent: r.agent, t: r.t };
  if (r.t_end !== null) call.t_end = r.t_end;
  if (r.model !== null) call.model = r.model;
  call.input = json.input;
  call.output = json.output;
  if (json.tools !== undefined) call.tools = json.tools;
  if (json.params !== undefined) call.params = json.params;
  if (r.finish_reason !== null) call.finish_reason = r.finish_reason;
  if (r.input_tokens !== null) call.input_tokens = r.input_tokens;
  if (r.output_tokens !== null) call.output_tokens = r.output_tokens;
  if (r.prompt_token_ids !== null) call.prompt_token_ids = r.prompt_token_ids;
  if (r.response_token_ids !== null) call.response_token_ids = r.response_token_ids;
  if (r.response_logprobs !== null) call.response_logprobs = r.response_logprobs;
  if (r.token_source !== null) call.token_source = r.token_source;
  if (r.response_id !== null) call.response_id = r.response_id;
  if (r.source !== null) call.source = r.source;
  call.events = json.events;
  return call as ModelCall;
}

const CALLS_MANY_SQL = `SELECT trace_id, call_id, agent, t, t_end, model, input, output, input_tokens, output_tokens,
    prompt_token_ids, response_token_ids, response_id, event_ids, ${FIDELITY_COLUMNS}
  FROM model_calls WHERE trace_id = ANY($1::int[]) ORDER BY trace_id, seq`;

/** The calls of many stored traces at once (a snapshot's page), each trace's in call order. */
export async function loadCallsMany(traceDbIds: readonly number[]): Promise<Map<number, ModelCall[]>> {
  // a named statement (parsed once per pooled connection): a snapshot reads a page's calls with it hundreds of times
  const { rows } = await pool().query<CallRow & { trace_id: number }>({ name: "calls.load-many", text: CALLS_MANY_SQL, values: [traceDbIds] });
  const out = new Map<number, ModelCall[]>();
  for (const r of rows) {
    const list = out.get(r.trace_id) ?? [];
    list.push(callOf(r));
    out.set(r.trace_id, list);
  }
  return out;
}

/** An agent's `offset`-th call (0-based, in call order) of a stored trace, with its index in the trace's call order; null when it has no more (replays, lib/replay/plan.ts). */
export async function loadAgentCallAt(traceDbId: number, agent: string, offset: number, client: pg.PoolClient | null = null): Promise<{ index: number; call: ModelCall } | null> {
  const { rows } = await (client ?? pool()).query<CallRow & { seq: number }>(
    `SELECT seq, call_id, agent, t, t_end, model, input, output, input_tokens, output_tokens,
       prompt_token_ids, response_token_ids, response_id, event_ids, ${FIDELITY_COLUMNS}
     FROM model_calls WHERE trace_id = $1 AND agent = $2 ORDER BY seq OFFSET $3 LIMIT 1`,
    [traceDbId, agent, offset],
  );
  const row = rows[0];
  return row === undefined ? null : { index: row.seq, call: callOf(row) };
}
