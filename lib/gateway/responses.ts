import type { CallMessage } from "@/lib/trace/calls";
import { countOr, isObject, paramsOf, stringOr, type JsonObject, type ReplyPart, type RequestPart } from "./call";

/**
 * The Responses API (`POST /v1/responses`, the OpenAI Agents SDK's default)
 * mapped onto the chat API's messages (docs/gateway.md "Responses API"):
 * - `instructions` -> a first `system` message;
 * - `input` as a string -> one `user` message;
 * - a message item (`{role, content}`, with or without `type: "message"`)
 *   -> that role; content parts that are all text (`input_text`,
 *   `output_text`, `text`) become one string (their texts joined), other
 *   parts are kept as sent;
 * - `function_call` items -> `tool_calls` `{id: call_id, name, arguments}`
 *   of an assistant message: added to the assistant message just before
 *   them, else a new one with content null;
 * - `function_call_output` -> a `tool` message with `tool_call_id` = call_id;
 * - `reasoning` items are left out (the model's own state, not a message);
 *   any other item is kept as a message whose role is its type, content null,
 *   the item under `item`.
 * The reply's output items map the same way onto one assistant message;
 * `finish_reason` is the response's `status` (`incomplete_details.reason`
 * when incomplete).
 */

const NOT_PARAMS = new Set(["model", "input", "instructions", "tools", "stream", "stream_options", "user", "metadata"]);
const TEXT_PARTS = new Set(["input_text", "output_text", "text"]);

function contentOf(content: unknown): CallMessage["content"] {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  const parts = content.filter(isObject);
  if (parts.length > 0 && parts.every((p) => TEXT_PARTS.has(String(p.type)) && typeof p.text === "string")) return parts.map((p) => p.text as string).join("");
  return parts;
}

const toolCallOf = (item: JsonObject) => ({
  ...(typeof item.call_id === "string" && { id: item.call_id }),
  name: typeof item.name === "string" ? item.name : "",
  arguments: typeof item.arguments === "string" ? item.arguments : JSON.stringify(item.arguments ?? {}),
});

/** Input or output items as chat messages (the mapping above). */
export function itemsAsMessages(items: readonly unknown[]): CallMessage[] {
  const messages: CallMessage[] = [];
  for (const raw of items) {
    if (!isObject(raw)) continue;
    const type = typeof raw.type === "string" ? raw.type : "message";
    if (type === "message" && typeof raw.role === "string") {
      messages.push({ role: raw.role, content: contentOf(raw.content) });
    } else if (type === "function_call") {
      const last = messages.at(-1);
      if (last?.role === "assistant") last.tool_calls = [...(last.tool_calls ?? []), toolCallOf(raw)];
      else messages.push({ role: "assistant", content: null, tool_calls: [toolCallOf(raw)] });
    } else if (type === "function_call_output") {
      const output = raw.output;
      messages.push({ role: "tool", content: typeof output === "string" ? output : contentOf(output), ...(typeof raw.call_id === "string" && { tool_call_id: raw.call_id }) });
    } else if (type !== "reasoning") {
      messages.push({ role: type, content: null, item: raw });
    }
  }
  return messages;
}

export function responsesRequestPart(body: JsonObject): RequestPart {
  const input = typeof body.input === "string" ? [{ role: "user", content: body.input }] : Array.isArray(body.input) ? itemsAsMessages(body.input) : [];
  const instructions = typeof body.instructions === "string" ? [{ role: "system", content: body.instructions }] : [];
  const params = paramsOf(body, NOT_PARAMS);
  return {
    ...(typeof body.model === "string" && { model: body.model }),
    input: [...instructions, ...input],
    ...(Array.isArray(body.tools) && { tools: body.tools.filter(isObject) }),
    ...(params !== undefined && { params }),
  };
}

/** The output items of a reply as one assistant message (texts joined; content null when there is no text). */
export function outputMessage(items: readonly unknown[]): CallMessage {
  const message: CallMessage = { role: "assistant", content: null };
  for (const mapped of itemsAsMessages(items)) {
    if (mapped.role !== "assistant") continue;
    if (typeof mapped.content === "string") message.content = (typeof message.content === "string" ? message.content : "") + mapped.content;
    if (mapped.tool_calls) message.tool_calls = [...(message.tool_calls ?? []), ...mapped.tool_calls];
  }
  return message;
}

/** The reply of a non-streaming call, or the `response` of a stream's last event. */
export function responsesReplyPart(response: JsonObject): ReplyPart {
  const usage = isObject(response.usage) ? response.usage : {};
  const input = countOr(usage.input_tokens);
  const output = countOr(usage.output_tokens);
  const incomplete = isObject(response.incomplete_details) ? stringOr(response.incomplete_details.reason) : undefined;
  const finish = incomplete ?? stringOr(response.status);
  return {
    ...(stringOr(response.model) !== undefined && { model: response.model as string }),
    output: outputMessage(Array.isArray(response.output) ? response.output : []),
    ...(finish !== undefined && { finish_reason: finish }),
    ...(input !== undefined && { input_tokens: input }),
    ...(output !== undefined && { output_tokens: output }),
    ...(stringOr(response.id) !== undefined && { response_id: response.id as string }),
  };
}

/**
 * The reply of a streaming call from its events: the final `response`
 * (`response.completed`, `.incomplete` or `.failed`) when it came, else
 * what was seen (finished output items, then the text still arriving).
 */
export class ResponsesStreamReply {
  private final: JsonObject | null = null;
  private started: JsonObject = {};
  private readonly done: JsonObject[] = [];
  private pendingText = "";

  add(event: JsonObject): void {
    const type = event.type;
    if ((type === "response.completed" || type === "response.incomplete" || type === "response.failed") && isObject(event.response)) this.final = event.response;
    else if (type === "response.created" && isObject(event.response)) this.started = event.response;
    else if (type === "response.output_item.done" && isObject(event.item)) {
      this.done.push(event.item);
      this.pendingText = "";
    } else if (type === "response.output_text.delta" && typeof event.delta === "string") this.pendingText += event.delta;
  }

  reply(): ReplyPart {
    if (this.final !== null) return responsesReplyPart(this.final);
    const items: unknown[] = [...this.done];
    if (this.pendingText !== "") items.push({ type: "message", role: "assistant", content: [{ type: "output_text", text: this.pendingText }] });
    const { finish_reason: _unfinished, ...seen } = responsesReplyPart({ ...this.started, output: items, status: undefined });
    return seen;
  }
}
