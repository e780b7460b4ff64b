import { z } from "zod";
import type { CallMessage, ModelCall } from "@/lib/trace/calls";
import { isObject, type JsonObject } from "@/lib/gateway/call";
import type { GatewayApi } from "@/lib/gateway/request";
import { MAX_ID_LENGTH } from "@/lib/trace/limits";

/**
 * The edit of an intervention (SPEC.md section 11, docs/replay.md): a
 * replacement reply for one model call, or a replacement text of one tool
 * result as the next call reads it; optional upstream parameters for the
 * live calls after it.
 */

const MAX_EDIT_TEXT = 1_000_000;

export const replyEditSchema = z.strictObject({
  content: z.string().max(MAX_EDIT_TEXT).nullable().optional(),
  tool_calls: z.array(z.strictObject({
    id: z.string().min(1).max(MAX_ID_LENGTH).optional(),
    name: z.string().min(1).max(MAX_ID_LENGTH),
    arguments: z.union([z.string().max(MAX_EDIT_TEXT), z.record(z.string(), z.unknown())]),
  })).max(128).optional(),
}).refine((r) => r.content !== undefined || r.tool_calls !== undefined, "give content and/or tool_calls");

export const toolResultEditSchema = z.strictObject({
  /** which tool result of the call's prompt (optional when the call reads exactly one) */
  tool_call_id: z.string().min(1).max(MAX_ID_LENGTH).optional(),
  content: z.string().max(MAX_EDIT_TEXT),
});

export const editSchema = z.union([
  z.strictObject({ reply: replyEditSchema }),
  z.strictObject({ tool_result: toolResultEditSchema }),
]);
export type Edit = z.infer<typeof editSchema>;

/** What an edit means for an effect's sign (SPEC.md section 11: removal and neutralising enter reversed). */
export const EDIT_INTENTS = ["correct", "remove", "neutralise", "other"] as const;
export type EditIntent = (typeof EDIT_INTENTS)[number];

/** Upstream parameters a fork's live calls are sent with (over the program's own). */
export const forkParamsSchema = z.strictObject({
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().min(0).max(1).optional(),
  seed: z.number().int().min(0).max(2 ** 31 - 1).optional(),
  max_tokens: z.number().int().min(1).max(1_000_000).optional(),
});
export type ForkParams = z.infer<typeof forkParamsSchema>;

/** A tool result edit with its tool call id resolved against the edited call. */
export const resolvedToolEditSchema = z.strictObject({
  tool_call_id: z.string(),
  content: z.string(),
});
export type ResolvedToolEdit = z.infer<typeof resolvedToolEditSchema>;

/**
 * The tool result an edit replaces, checked against the call that reads it:
 * the named `tool_call_id` must be one of its tool messages; unnamed, the
 * call must read exactly one. A problem is returned as text.
 */
export function resolveToolEdit(call: Pick<ModelCall, "input">, edit: z.infer<typeof toolResultEditSchema>): ResolvedToolEdit | string {
  const ids = call.input.filter((m) => m.role === "tool" && typeof m.tool_call_id === "string").map((m) => m.tool_call_id!);
  if (edit.tool_call_id !== undefined) {
    return ids.includes(edit.tool_call_id) ? { tool_call_id: edit.tool_call_id, content: edit.content } : `the call reads no tool result with tool_call_id "${edit.tool_call_id}" (it reads ${ids.length === 0 ? "none" : ids.join(", ")})`;
  }
  const distinct = [...new Set(ids)];
  if (distinct.length !== 1) return distinct.length === 0 ? "the call reads no tool result" : `the call reads ${distinct.length} tool results: name one with tool_call_id (${distinct.join(", ")})`;
  return { tool_call_id: distinct[0]!, content: edit.content };
}

/** The reply an edit serves, as a recorded output: tool calls without an id get `call_cf_<n>`. */
export function editedReply(edit: z.infer<typeof replyEditSchema>, salt: string): CallMessage {
  const toolCalls = (edit.tool_calls ?? []).map((c, i) => ({ id: c.id ?? `call_cf_${salt}_${i + 1}`, name: c.name, arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments) }));
  return { role: "assistant", content: edit.content ?? null, ...(toolCalls.length > 0 && { tool_calls: toolCalls }) };
}

/**
 * A request body with the edited tool result in place: every tool message
 * (chat) or `function_call_output` item (Responses) answering
 * `tool_call_id` gets the edit's text, in this call and every later one
 * (the program keeps the original in its history).
 */
export function rewriteToolResult(api: GatewayApi, body: JsonObject, edit: ResolvedToolEdit): JsonObject {
  if (api === "chat") {
    if (!Array.isArray(body.messages)) return body;
    return { ...body, messages: body.messages.map((m: unknown) => (isObject(m) && m.role === "tool" && m.tool_call_id === edit.tool_call_id ? { ...m, content: edit.content } : m)) };
  }
  if (!Array.isArray(body.input)) return body;
  return { ...body, input: body.input.map((item: unknown) => (isObject(item) && item.type === "function_call_output" && item.call_id === edit.tool_call_id ? { ...item, output: edit.content } : item)) };
}

/** A body with the fork's upstream parameters over the program's own (chat `max_tokens` is `max_output_tokens` for Responses). */
export function withForkParams(api: GatewayApi, body: JsonObject, params: ForkParams | null): JsonObject {
  if (params === null || Object.keys(params).length === 0) return body;
  const { max_tokens: maxTokens, ...rest } = params;
  return { ...body, ...rest, ...(maxTokens !== undefined && (api === "chat" ? { max_tokens: maxTokens } : { max_output_tokens: maxTokens })) };
}
