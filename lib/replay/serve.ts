import type { CallMessage, ModelCall } from "@/lib/trace/calls";
import type { ReplyPart } from "@/lib/gateway/call";
import type { GatewayApi } from "@/lib/gateway/request";

/**
 * A recorded (or edited) reply served again in the shape the client asked
 * for (docs/replay.md "Serving"): a chat completion or a Responses API
 * response, whole or as Server-Sent Events. The reply's text, tool calls,
 * finish reason, usage, model and response id are the recorded ones, so
 * that the call recorded again equals the original.
 */

export interface ServedReply {
  model: string;
  output: CallMessage;
  finish_reason?: string;
  input_tokens?: number;
  output_tokens?: number;
  response_id?: string;
}

/** A recorded call's reply, its output as a message (a text output becomes an assistant message). */
export function servedOfCall(call: ModelCall, fallbackModel: string): ServedReply {
  const output: CallMessage = typeof call.output === "string" ? { role: "assistant", content: call.output } : call.output;
  return {
    model: call.model ?? fallbackModel,
    output,
    ...(call.finish_reason !== undefined && { finish_reason: call.finish_reason }),
    ...(call.input_tokens !== undefined && { input_tokens: call.input_tokens }),
    ...(call.output_tokens !== undefined && { output_tokens: call.output_tokens }),
    ...(call.response_id !== undefined && { response_id: call.response_id }),
  };
}

/** What the recorder keeps of a served reply (with the recorded call's token ids and logprobs when it is the recorded one). */
export function replyPartOf(reply: ServedReply, recorded: ModelCall | null): ReplyPart {
  return {
    model: reply.model,
    output: reply.output,
    ...(reply.finish_reason !== undefined && { finish_reason: reply.finish_reason }),
    ...(reply.input_tokens !== undefined && { input_tokens: reply.input_tokens }),
    ...(reply.output_tokens !== undefined && { output_tokens: reply.output_tokens }),
    ...(reply.response_id !== undefined && { response_id: reply.response_id }),
    ...(recorded?.prompt_token_ids !== undefined && { prompt_token_ids: recorded.prompt_token_ids }),
    ...(recorded?.response_token_ids !== undefined && { response_token_ids: recorded.response_token_ids }),
    ...(recorded?.response_logprobs !== undefined && { response_logprobs: recorded.response_logprobs }),
  };
}

const CREATED = 0;
const argsText = (args: string | Record<string, unknown>) => (typeof args === "string" ? args : JSON.stringify(args));
const toolCallsOf = (m: CallMessage) => m.tool_calls ?? [];
const chatFinish = (r: ServedReply) => r.finish_reason ?? (toolCallsOf(r.output).length > 0 ? "tool_calls" : "stop");

function chatUsage(r: ServedReply): Record<string, number> | undefined {
  if (r.input_tokens === undefined && r.output_tokens === undefined) return undefined;
  const prompt = r.input_tokens ?? 0;
  const completion = r.output_tokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** A whole chat completion. */
export function chatCompletion(r: ServedReply, id: string): Record<string, unknown> {
  const calls = toolCallsOf(r.output);
  const { role: _role, content, tool_calls: _calls, ...extra } = r.output;
  const usage = chatUsage(r);
  return {
    id, object: "chat.completion", created: CREATED, model: r.model,
    choices: [{
      index: 0,
      message: { role: "assistant", content: typeof content === "string" ? content : null, ...extra, ...(calls.length > 0 && { tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: argsText(c.arguments) } })) }) },
      logprobs: null,
      finish_reason: chatFinish(r),
    }],
    ...(usage !== undefined && { usage }),
  };
}

/** A chat completion as stream chunks: the text in one delta, each tool call in one, the finish, usage when asked. */
export function chatChunks(r: ServedReply, id: string, includeUsage: boolean): Record<string, unknown>[] {
  const base = { id, object: "chat.completion.chunk", created: CREATED, model: r.model };
  const text = typeof r.output.content === "string" ? r.output.content : null;
  const calls = toolCallsOf(r.output);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  const chunks: Record<string, unknown>[] = [chunk({ role: "assistant", content: text === null ? (calls.length > 0 ? "" : null) : "" })];
  if (text !== null && text !== "") chunks.push(chunk({ content: text }));
  calls.forEach((c, index) => chunks.push(chunk({ tool_calls: [{ index, id: c.id, type: "function", function: { name: c.name, arguments: argsText(c.arguments) } }] })));
  chunks.push(chunk({}, chatFinish(r)));
  const usage = chatUsage(r);
  if (includeUsage) chunks.push({ ...base, choices: [], usage: usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } });
  return chunks;
}

function responsesItems(r: ServedReply, id: string): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  if (typeof r.output.content === "string") items.push({ type: "message", id: `msg_${id}`, status: "completed", role: "assistant", content: [{ type: "output_text", text: r.output.content, annotations: [] }] });
  toolCallsOf(r.output).forEach((c, i) => items.push({ type: "function_call", id: `fc_${id}_${i}`, call_id: c.id ?? `call_${id}_${i}`, name: c.name, arguments: argsText(c.arguments), status: "completed" }));
  return items;
}

/** A whole Responses API response. */
export function responsesObject(r: ServedReply, id: string): Record<string, unknown> {
  const incomplete = r.finish_reason !== undefined && r.finish_reason !== "completed" && r.finish_reason !== "failed";
  const input = r.input_tokens ?? 0;
  const output = r.output_tokens ?? 0;
  return {
    id, object: "response", created_at: CREATED, status: incomplete ? "incomplete" : (r.finish_reason ?? "completed"), model: r.model,
    output: responsesItems(r, id), error: null, incomplete_details: incomplete ? { reason: r.finish_reason } : null,
    usage: { input_tokens: input, output_tokens: output, total_tokens: input + output },
  };
}

/** A Responses API stream: created, each output item added/done (text as one delta), completed. */
export function responsesEvents(r: ServedReply, id: string): Record<string, unknown>[] {
  const whole = responsesObject(r, id);
  const events: Record<string, unknown>[] = [{ type: "response.created", response: { ...whole, status: "in_progress", output: [] } }];
  (whole.output as Record<string, unknown>[]).forEach((item, index) => {
    if (item.type === "message") {
      const text = (item.content as { text: string }[])[0]!.text;
      events.push({ type: "response.output_item.added", output_index: index, item: { ...item, status: "in_progress", content: [] } });
      events.push({ type: "response.content_part.added", item_id: item.id, output_index: index, content_index: 0, part: { type: "output_text", text: "", annotations: [] } });
      events.push({ type: "response.output_text.delta", item_id: item.id, output_index: index, content_index: 0, delta: text });
      events.push({ type: "response.output_text.done", item_id: item.id, output_index: index, content_index: 0, text });
      events.push({ type: "response.content_part.done", item_id: item.id, output_index: index, content_index: 0, part: { type: "output_text", text, annotations: [] } });
    } else {
      events.push({ type: "response.output_item.added", output_index: index, item: { ...item, status: "in_progress", arguments: "" } });
      events.push({ type: "response.function_call_arguments.delta", item_id: item.id, output_index: index, delta: item.arguments });
      events.push({ type: "response.function_call_arguments.done", item_id: item.id, output_index: index, arguments: item.arguments });
    }
    events.push({ type: "response.output_item.done", output_index: index, item });
  });
  events.push({ type: whole.status === "incomplete" ? "response.incomplete" : "response.completed", response: whole });
  return events.map((e, sequence_number) => ({ ...e, sequence_number }));
}

/** The served reply as the body the client asked for: JSON text, or SSE text (ending with `[DONE]` for chat). */
export function servedBody(api: GatewayApi, r: ServedReply, stream: boolean, includeUsage: boolean, freshId: string): { text: string; stream: boolean } {
  const id = r.response_id ?? (api === "chat" ? `chatcmpl-${freshId}` : `resp_${freshId}`);
  if (!stream) return { text: JSON.stringify(api === "chat" ? chatCompletion(r, id) : responsesObject(r, id)), stream: false };
  const events = api === "chat" ? chatChunks(r, id, includeUsage) : responsesEvents(r, id);
  const sse = events.map((e) => (api === "chat" ? `data: ${JSON.stringify(e)}\n\n` : `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`)).join("");
  return { text: api === "chat" ? `${sse}data: [DONE]\n\n` : sse, stream: true };
}
