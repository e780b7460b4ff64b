import "server-only";
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { z } from "zod";
import { recordedCall, type JsonObject } from "@/lib/gateway/call";
import { chatRequestPart } from "@/lib/gateway/chat";
import { agentOf, AGENT_HEADER, type GatewayApi } from "@/lib/gateway/request";
import { responsesRequestPart } from "@/lib/gateway/responses";
import { EDIT_INTENTS, editedReply, editSchema, forkParamsSchema, resolvedToolEditSchema, resolveToolEdit, rewriteToolResult, withForkParams, type Edit, type EditIntent, type ForkParams } from "@/lib/replay/edit";
import { decide, initialState, replayStateSchema, type ReplayPlan, type ReplayState } from "@/lib/replay/plan";
import { replyPartOf, servedBody, servedOfCall, type ServedReply } from "@/lib/replay/serve";
import { REPLAY_KEY_PREFIX, type CounterfactualInfo } from "@/lib/replay/trace";
import { callMessageSchema } from "@/lib/trace/calls";
import { loadAgentCallAt, loadCalls } from "../calls/store";
import { pool } from "../db/client";
import { stored, storedOrNull } from "../db/stored";
import { ApiError } from "../errors";
import { inTransaction } from "../ingest/ingest";
import { record } from "../gateway/recorder";

/** A replayed trace's metadata naming the group of its source (lib/replay/trace.ts). */
const counterfactualGroup = z.object({ counterfactual: z.object({ group: z.unknown().optional() }) });

/**
 * Replay run keys (docs/replay.md): created for a stored trace (an
 * unchanged replay) or an intervention (one per sample); each model call
 * under such a key is decided by lib/replay/plan.ts with the run's row
 * locked, then answered from the record, with the edit, or by the live
 * upstream (with the edited tool result and the fork's parameters in place).
 */

/** An intervention's edit as stored (interventions.edit). */
export const storedEditSchema = z.strictObject({
  /** the edit as asked */
  asked: editSchema,
  /** a reply edit's output, or a tool result edit resolved to its tool_call_id */
  reply: callMessageSchema.optional(),
  tool: resolvedToolEditSchema.optional(),
});
export type StoredEdit = z.infer<typeof storedEditSchema>;

interface RunRow {
  project_id: number;
  run_key: string;
  source_trace_id: number;
  sample: number;
  state: unknown;
  intervention_id: number | null;
  call_index: number | null;
  edit: unknown;
  params: unknown;
}

/** A run's stored state (replay_runs.state). */
export const runState = (value: unknown, runKey: string): ReplayState => stored(replayStateSchema, value, () => `replay run ${runKey}: state`);
/** An intervention's stored edit (interventions.edit), or null for a run without one. */
export const interventionEdit = (value: unknown, what: string): StoredEdit | null => (value === null ? null : stored(storedEditSchema, value, () => `${what}: edit`));
/** An intervention's stored upstream parameters (interventions.params). */
export const interventionParams = (value: unknown, what: string): ForkParams | null => (value === null ? null : stored(forkParamsSchema, value, () => `${what}: params`));

const newKey = (sample: number) => `${REPLAY_KEY_PREFIX}${randomBytes(6).toString("hex")}-${sample}`;

/** The base URL a program is pointed at for a run key (what an OpenAI client takes as its base URL). */
export function runBaseUrl(origin: string, project: string, runKey: string): string {
  const scope = project === "default" ? "" : `/project/${encodeURIComponent(project)}`;
  return `${origin}/api/llm${scope}/run/${encodeURIComponent(runKey)}/v1`;
}

export interface InterventionInput {
  call_id: string;
  edit: Edit;
  intent: EditIntent;
  samples: number;
  params?: ForkParams;
  runner?: string;
}

/** Run keys for an unchanged replay of a stored trace (the baseline of its effects). */
export async function createReplays(trace: { id: number; projectId: number }, samples: number, runner: string | null = null): Promise<string[]> {
  if ((await loadCalls(trace.id)).length === 0) throw new ApiError(422, "no_calls", "the trace has no model calls to replay (only calls recorded as a model saw them can be served again)");
  const keys = Array.from({ length: samples }, (_, i) => newKey(i + 1));
  await insertRuns(pool(), trace, null, keys, runner);
  return keys;
}

/** An intervention and one fork run key per sample; the edit is checked against the call it edits. */
export async function createIntervention(trace: { id: number; projectId: number }, input: InterventionInput, createdBy: string | null): Promise<{ id: number; call_index: number; run_keys: string[]; edit: StoredEdit }> {
  const calls = await loadCalls(trace.id);
  const index = calls.findIndex((c) => c.id === input.call_id);
  if (index < 0) throw new ApiError(400, "invalid_input", `the trace has no model call "${input.call_id}"`, [{ path: "$.call_id", message: calls.length === 0 ? "the trace has no model calls" : `not a call of the trace (${calls.slice(0, 5).map((c) => c.id).join(", ")}${calls.length > 5 ? ", …" : ""})` }]);
  const stored: StoredEdit = { asked: input.edit };
  if ("reply" in input.edit) stored.reply = editedReply(input.edit.reply, randomBytes(3).toString("hex"));
  else {
    const tool = resolveToolEdit(calls[index]!, input.edit.tool_result);
    if (typeof tool === "string") throw new ApiError(400, "invalid_input", tool, [{ path: "$.edit.tool_result", message: tool }]);
    stored.tool = tool;
  }
  return inTransaction(async (client) => {
    const { rows } = await client.query<{ id: number }>(
      `INSERT INTO interventions (trace_id, call_id, call_index, edit, intent, samples, params, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [trace.id, input.call_id, index, JSON.stringify(stored), input.intent, input.samples, input.params === undefined ? null : JSON.stringify(input.params), createdBy],
    );
    const keys = Array.from({ length: input.samples }, (_, i) => newKey(i + 1));
    await insertRuns(client, trace, rows[0]!.id, keys, input.runner ?? null);
    return { id: rows[0]!.id, call_index: index, run_keys: keys, edit: stored };
  });
}

async function insertRuns(db: pg.Pool | pg.PoolClient, trace: { id: number; projectId: number }, interventionId: number | null, keys: readonly string[], runner: string | null): Promise<void> {
  await db.query(
    `INSERT INTO replay_runs (project_id, run_key, source_trace_id, intervention_id, sample, state, runner, runner_state)
     SELECT $1, key, $2, $3, ord, $5::jsonb, $6, CASE WHEN $6::text IS NULL THEN NULL ELSE 'queued' END FROM unnest($4::text[]) WITH ORDINALITY AS k(key, ord)`,
    [trace.projectId, trace.id, interventionId, keys, JSON.stringify(initialState()), runner],
  );
}

const RUN_SQL = `SELECT r.project_id, r.run_key, r.source_trace_id, r.sample, r.state, r.intervention_id, i.call_index, i.edit, i.params
  FROM replay_runs r JOIN projects p ON p.id = r.project_id LEFT JOIN interventions i ON i.id = r.intervention_id
  WHERE p.name = $1 AND r.run_key = $2`;

/** What the gateway does with a call under a replay run key: a response served here, or the body to send to the live upstream. */
export type ReplayOutcome = { kind: "served"; response: Response } | { kind: "live"; body: JsonObject } | { kind: "none" };

export async function replayCall(o: { project: string; runKey: string; api: GatewayApi; request: Request; body: JsonObject }): Promise<ReplayOutcome> {
  if (!o.runKey.startsWith(REPLAY_KEY_PREFIX)) return { kind: "none" };
  const agent = agentOf(o.request.headers.get(AGENT_HEADER), o.body);
  const requestPart = o.api === "chat" ? chatRequestPart(o.body) : responsesRequestPart(o.body);
  const t = Date.now() / 1000;
  const decided = await inTransaction(async (client) => {
    const { rows } = await client.query<RunRow>(`${RUN_SQL} FOR UPDATE OF r`, [o.project, o.runKey]);
    const row = rows[0];
    if (row === undefined) return null;
    const what = `replay run ${row.run_key}`;
    const run = { ...row, state: runState(row.state, row.run_key), edit: interventionEdit(row.edit, what), params: interventionParams(row.params, what) };
    const plan: ReplayPlan = {
      editIndex: run.call_index,
      edit: run.edit === null ? null : run.edit.reply !== undefined ? { kind: "reply", output: run.edit.reply } : { kind: "tool_result", tool: run.edit.tool! },
    };
    const expected = await loadAgentCallAt(run.source_trace_id, agent, run.state.cursors[agent] ?? 0, client);
    const { answer, state } = decide(run.state, plan, agent, o.api, requestPart, expected);
    const live = answer.kind === "live";
    await client.query(
      `UPDATE replay_runs SET state = $3, served = served + $4, forwarded = forwarded + $5 WHERE project_id = $1 AND run_key = $2`,
      [run.project_id, run.run_key, JSON.stringify(state), live ? 0 : 1, live ? 1 : 0],
    );
    return { run, answer };
  });
  if (decided === null) return { kind: "none" };
  const { run, answer } = decided;
  if (answer.kind === "live") {
    const rewritten = answer.rewrite === null ? o.body : rewriteToolResult(o.api, o.body, answer.rewrite);
    return { kind: "live", body: withForkParams(o.api, rewritten, run.params) };
  }
  const model = typeof o.body.model === "string" ? o.body.model : "replay";
  const served: ServedReply = answer.kind === "record" ? servedOfCall(answer.call, model) : { model, output: answer.output, finish_reason: (answer.output.tool_calls?.length ?? 0) > 0 ? "tool_calls" : o.api === "chat" ? "stop" : "completed" };
  const fresh = randomBytes(6).toString("hex");
  const wantsStream = o.body.stream === true;
  const includeUsage = typeof o.body.stream_options === "object" && o.body.stream_options !== null && (o.body.stream_options as { include_usage?: unknown }).include_usage === true;
  const { text } = servedBody(o.api, served, wantsStream, includeUsage, fresh);
  const reply = replyPartOf(served.response_id === undefined ? { ...served, response_id: o.api === "chat" ? `chatcmpl-${fresh}` : `resp_${fresh}` } : served, answer.kind === "record" ? answer.call : null);
  record({ projectId: run.project_id, runKey: run.run_key, call: recordedCall(agent, t, Date.now() / 1000, requestPart, reply), outcome: "complete" });
  const headers = new Headers({ "content-type": wantsStream ? "text/event-stream" : "application/json", "x-baton-run": run.run_key, "x-baton-replay": answer.kind });
  if (wantsStream) headers.set("cache-control", "no-cache, no-transform");
  return { kind: "served", response: new Response(text, { status: 200, headers }) };
}

/** The counterfactual a finished replay run's trace carries, or null when the run key is no replay's. */
export async function counterfactualOf(projectId: number, runKey: string): Promise<CounterfactualInfo | null> {
  if (!runKey.startsWith(REPLAY_KEY_PREFIX)) return null;
  const { rows } = await pool().query<{ sample: number; state: unknown; served: number; forwarded: number; source: string; task_id: string; metadata: unknown; call_id: string | null; edit: unknown; intent: string | null; intervention_id: number | null; success: boolean | null }>(
    `SELECT r.sample, r.state, r.served, r.forwarded, (r.runner_output->>'success')::boolean AS success, t.trace_id AS source, t.task_id, t.metadata, i.call_id, i.edit, i.intent, r.intervention_id
     FROM replay_runs r JOIN traces t ON t.id = r.source_trace_id LEFT JOIN interventions i ON i.id = r.intervention_id
     WHERE r.project_id = $1 AND r.run_key = $2`,
    [projectId, runKey],
  );
  const r = rows[0];
  if (r === undefined) return null;
  const parent = counterfactualGroup.safeParse(r.metadata).data?.counterfactual;
  const what = `replay run ${runKey}`;
  const state = runState(r.state, runKey);
  return {
    of: r.source, taskId: r.task_id, group: typeof parent?.group === "string" ? parent.group : r.source,
    callId: r.call_id, edit: interventionEdit(r.edit, what)?.asked ?? null, intent: r.intent === null ? null : storedOrNull(z.enum(EDIT_INTENTS), r.intent, () => `${what}: intent`),
    intervention: r.intervention_id, sample: r.sample,
    divergence: state.divergence, origins: state.origins, served: r.served, forwarded: r.forwarded, success: r.success,
  };
}

export { editSchema, forkParamsSchema };
