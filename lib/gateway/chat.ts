import type { CallMessage } from "@/lib/trace/calls";
import { countOr, idsOr, isObject, paramsOf, stringOr, type JsonObject, type ReplyPart, type RequestPart } from "./call";

/**
 * The chat-completions API (`POST /v1/chat/completions`) as the gateway
 * records it (SPEC.md section 6, baton-spec-4): messages with their roles as
 * sent, an assistant's `tool_calls` as `[{id, name, arguments}]`, a tool
 * message's `tool_call_id`, the tools and parameters as sent; the reply's
 * first choice exactly (content null when the model sent no text).
 * vLLM's token ids (`prompt_token_ids`, a choice's `token_ids`, asked for
 * with `return_token_ids`) and logprobs are read when present.
 */

/** Request keys that are not sampling parameters. */
const NOT_PARAMS = new Set(["model", "messages", "tools", "stream", "stream_options", "user", "metadata"]);

/** A chat tool call `{id, type, function: {name, arguments}}` as the spec's `{id, name, arguments}`. */
function toolCallOf(raw: unknown): { id?: string; name: string; arguments: string | JsonObject } {
  const call = isObject(raw) ? raw : {};
  const fn = isObject(call.function) ? call.function : call;
  const args = fn.arguments;
  return {
    ...(typeof call.id === "string" && { id: call.id }),
    name: typeof fn.name === "string" ? fn.name : "",
    arguments: typeof args === "string" || isObject(args) ? args : args === undefined ? "" : JSON.stringify(args),
  };
}

/** A message as sent, with `tool_calls` normalised and a missing content as null; every other key kept. */
export function chatMessage(raw: unknown): CallMessage {
  const message = isObject(raw) ? raw : {};
  const { tool_calls: toolCalls, content, ...rest } = message;
  return {
    ...rest,
    role: typeof message.role === "string" ? message.role : "user",
    content: typeof content === "string" || Array.isArray(content) ? (content as CallMessage["content"]) : null,
    ...(Array.isArray(toolCalls) && { tool_calls: toolCalls.map(toolCallOf) }),
  };
}

export function chatRequestPart(body: JsonObject): RequestPart {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  return {
    ...(typeof body.model === "string" && { model: body.model }),
    input: messages.map(chatMessage),
    ...(Array.isArray(body.tools) && { tools: body.tools.filter(isObject) }),
    ...(paramsOf(body, NOT_PARAMS) !== undefined && { params: paramsOf(body, NOT_PARAMS) }),
  };
}

const logprobsOf = (choice: JsonObject): number[] | undefined => {
  const content = isObject(choice.logprobs) ? choice.logprobs.content : undefined;
  if (!Array.isArray(content)) return undefined;
  const values = content.map((entry) => (isObject(entry) ? entry.logprob : undefined));
  return values.every((v): v is number => typeof v === "number" && Number.isFinite(v)) ? values : undefined;
};

function usageOf(json: JsonObject): Pick<ReplyPart, "input_tokens" | "output_tokens"> {
  const usage = isObject(json.usage) ? json.usage : {};
  const input = countOr(usage.prompt_tokens);
  const output = countOr(usage.completion_tokens);
  return { ...(input !== undefined && { input_tokens: input }), ...(output !== undefined && { output_tokens: output }) };
}

/** The reply of a non-streaming call (its first choice). */
export function chatReplyPart(json: JsonObject): ReplyPart {
  const choice = Array.isArray(json.choices) && isObject(json.choices[0]) ? json.choices[0] : {};
  const message = chatMessage({ role: "assistant", ...(isObject(choice.message) ? choice.message : {}) });
  return {
    ...(stringOr(json.model) !== undefined && { model: json.model as string }),
    output: message,
    ...(stringOr(choice.finish_reason) !== undefined && { finish_reason: choice.finish_reason as string }),
    ...usageOf(json),
    ...(idsOr(json.prompt_token_ids) !== undefined && { prompt_token_ids: idsOr(json.prompt_token_ids) }),
    ...(idsOr(choice.token_ids) !== undefined && { response_token_ids: idsOr(choice.token_ids) }),
    ...(logprobsOf(choice) !== undefined && { response_logprobs: logprobsOf(choice) }),
    ...(stringOr(json.id) !== undefined && { response_id: json.id as string }),
  };
}

interface ToolCallDraft {
  id?: string;
  name: string;
  arguments: string;
}

/**
 * The reply of a streaming call, put together chunk by chunk as the client
 * receives them: the first choice's text and tool call deltas (by index),
 * finish reason, usage (when the stream carries it), token ids and logprobs.
 * `reply()` at any time gives what was seen so far (a cut stream).
 */
export class ChatStreamReply {
  private model?: string;
  private id?: string;
  private text: string | null = null;
  private readonly extra: JsonObject = {};
  private readonly toolCalls: ToolCallDraft[] = [];
  private finishReason?: string;
  private usage: Pick<ReplyPart, "input_tokens" | "output_tokens"> = {};
  private promptIds?: number[];
  private responseIds: number[] | null = null;
  private logprobs: number[] | null = null;
  private logprobsBroken = false;

  add(chunk: JsonObject): void {
    this.model ??= stringOr(chunk.model);
    this.id ??= stringOr(chunk.id);
    if (isObject(chunk.usage)) this.usage = usageOf(chunk);
    this.promptIds ??= idsOr(chunk.prompt_token_ids);
    const choices: unknown[] = Array.isArray(chunk.choices) ? chunk.choices : [];
    const choice = choices.find((c) => isObject(c) && (c.index ?? 0) === 0);
    if (!isObject(choice)) return;
    const delta = isObject(choice.delta) ? choice.delta : {};
    if (typeof delta.content === "string") this.text = (this.text ?? "") + delta.content;
    for (const [key, value] of Object.entries(delta)) {
      if (key === "content" || key === "tool_calls" || key === "role" || value === null || value === undefined) continue;
      // other text deltas (reasoning_content, refusal) accumulate like content
      this.extra[key] = typeof value === "string" && typeof this.extra[key] === "string" ? (this.extra[key]) + value : value;
    }
    if (Array.isArray(delta.tool_calls)) for (const raw of delta.tool_calls) this.addToolDelta(raw);
    this.finishReason = stringOr(choice.finish_reason) ?? this.finishReason;
    const ids = idsOr(choice.token_ids);
    if (ids !== undefined) this.responseIds = [...(this.responseIds ?? []), ...ids];
    if (choice.logprobs !== undefined && choice.logprobs !== null) {
      const values = logprobsOf(choice);
      if (values === undefined) this.logprobsBroken = true;
      else this.logprobs = [...(this.logprobs ?? []), ...values];
    }
  }

  private addToolDelta(raw: unknown): void {
    if (!isObject(raw)) return;
    const index = typeof raw.index === "number" ? raw.index : this.toolCalls.length;
    const draft = (this.toolCalls[index] ??= { name: "", arguments: "" });
    if (typeof raw.id === "string" && raw.id !== "") draft.id = raw.id;
    const fn = isObject(raw.function) ? raw.function : {};
    if (typeof fn.name === "string") draft.name += fn.name;
    if (typeof fn.arguments === "string") draft.arguments += fn.arguments;
  }

  reply(): ReplyPart {
    const toolCalls = this.toolCalls.filter((c) => c !== undefined).map((c) => ({ ...(c.id !== undefined && { id: c.id }), name: c.name, arguments: c.arguments }));
    return {
      ...(this.model !== undefined && { model: this.model }),
      // a stream opens with content "" even when the model only calls tools (vLLM): that is no text
      output: { role: "assistant", content: this.text === "" && toolCalls.length > 0 ? null : this.text, ...this.extra, ...(toolCalls.length > 0 && { tool_calls: toolCalls }) },
      ...(this.finishReason !== undefined && { finish_reason: this.finishReason }),
      ...this.usage,
      ...(this.promptIds !== undefined && { prompt_token_ids: this.promptIds }),
      ...(this.responseIds !== null && { response_token_ids: this.responseIds }),
      ...(this.logprobs !== null && !this.logprobsBroken && { response_logprobs: this.logprobs }),
      ...(this.id !== undefined && { response_id: this.id }),
    };
  }
}

/** What the gateway added to a request for the recording; the client's reply has it taken out again. */
export interface Added {
  tokenIds: boolean;
  logprobs: boolean;
}

/** The request sent upstream: the client's, plus token ids and logprobs when the project asks and the client did not. */
export function chatUpstreamBody(body: JsonObject, want: Added): { body: JsonObject; added: Added } {
  const added = { tokenIds: want.tokenIds && body.return_token_ids !== true, logprobs: want.logprobs && body.logprobs !== true };
  if (!added.tokenIds && !added.logprobs) return { body, added };
  return { body: { ...body, ...(added.tokenIds && { return_token_ids: true }), ...(added.logprobs && { logprobs: true }) }, added };
}

/** A reply (or stream chunk) without what the gateway added: the one the client would have had. */
export function withoutAdded(json: JsonObject, added: Added): JsonObject {
  const out: JsonObject = { ...json };
  if (added.tokenIds) delete out.prompt_token_ids;
  if (Array.isArray(out.choices)) {
    out.choices = (out.choices as unknown[]).map((c) => {
      if (!isObject(c)) return c;
      const choice: JsonObject = { ...c };
      if (added.tokenIds) delete choice.token_ids;
      if (added.logprobs && "logprobs" in choice) choice.logprobs = null;
      return choice;
    });
  }
  return out;
}
