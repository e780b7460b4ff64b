import type { CallMessage, ModelCall } from "../trace/calls";
import { chatMessageList, replyOf } from "./otlp/chat-messages";
import { finishReasonOf, paramsOf, toolsOf } from "./otlp/call-request";
import { adkReply, adkRequest, anyAgentReply, autogenFinish, autogenSent, logfireMessages, logfireReply, smolagentsSent, trailingAssistant, withIds } from "./otlp/call-sources";
import { messagesOf, parseJson, type Json } from "./otlp/content";
import { modelOf, usageOf } from "./otlp/families/genai";
import { classifySpan } from "./otlp/index";
import { secondsSince, textAttr, type Attributes, type AttrValue, type OtlpSpan } from "./otlp-span";
import type { AdaptedTrace } from "./types";

/**
 * The model calls of an OpenTelemetry run (SPEC.md section 6, `calls`):
 * every LLM span, with the messages it was sent and what it answered, its
 * model, token counts, token ids when the span carries them, its response
 * id, and the events the mapping made of it (those with its `span_id` and
 * `operation: "model_call"`). Read from, first found:
 * - input: GenAI `gen_ai.input.messages` (+ `gen_ai.system_instructions`),
 *   OpenInference `llm.input_messages.*`, AI SDK `ai.prompt.messages`,
 *   OpenLLMetry's `gen_ai.prompt.*`, Mastra's enclosing step
 *   (`mastra.model_step.input`), then `input.value`;
 * - output: Mastra's step output, `gen_ai.output.messages`,
 *   `llm.output_messages.*`, `ai.response.text` + `ai.response.toolCalls`,
 *   `gen_ai.completion.*`, then `output.value`.
 * logfire's `events` / `input` + `output` / `request_data` + `response_data`
 * and any-agent's `gen_ai.output` are read too. Messages are the chat API's
 * as the model was sent them (otlp/chat-messages.ts: roles mapped, tool
 * results as `tool` messages with their `tool_call_id`, tool calls never
 * written as text); the tools offered, sampling parameters and finish reason
 * come from otlp/call-request.ts; every call is `source: "otlp"`.
 */
export function modelCallsOf(spans: readonly OtlpSpan[], trace: AdaptedTrace): ModelCall[] {
  if (spans.length === 0) return [];
  const origin = spans.reduce((min, s) => (BigInt(s.startTimeUnixNano) < min ? BigInt(s.startTimeUnixNano) : min), BigInt(spans[0]!.startTimeUnixNano));
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const produced = new Map<string, { ids: string[]; agent: string }>();
  for (const e of trace.events) {
    if (e.operation !== "model_call" || typeof e.span_id !== "string") continue;
    const entry = produced.get(e.span_id) ?? { ids: [], agent: e.agent };
    entry.ids.push(e.id);
    produced.set(e.span_id, entry);
  }
  const calls: ModelCall[] = [];
  for (const span of spans) {
    if (classifySpan(span)?.role !== "llm") continue;
    const parent = span.parentSpanId !== undefined ? byId.get(span.parentSpanId) : undefined;
    const events = produced.get(span.spanId);
    const usage = usageOf(span);
    const model = modelOf(span);
    const promptIds = tokenIds(span.attributes, PROMPT_TOKEN_KEYS);
    const responseIds = tokenIds(span.attributes, RESPONSE_TOKEN_KEYS);
    const responseId = responseIdOf(span);
    const adk = adkRequest(span.attributes);
    const tools = adk?.tools ?? toolsOf(span);
    const params = adk?.params ?? paramsOf(span);
    const finishReason = autogenFinish(span.name, finishReasonOf(span));
    calls.push({
      id: span.spanId,
      agent: events?.agent ?? agentOf(span, byId),
      t: secondsSince(origin, span.startTimeUnixNano),
      t_end: secondsSince(origin, span.endTimeUnixNano),
      ...(model !== undefined && { model }),
      input: inputOf(span, parent),
      output: outputOf(span, parent),
      ...(tools !== undefined && { tools }),
      ...(params !== undefined && { params }),
      ...(finishReason !== undefined && { finish_reason: finishReason }),
      ...(usage.input !== undefined && { input_tokens: usage.input }),
      ...(usage.output !== undefined && { output_tokens: usage.output }),
      ...(promptIds && { prompt_token_ids: promptIds }),
      ...(responseIds && { response_token_ids: responseIds }),
      ...(responseId !== undefined && { response_id: responseId }),
      source: "otlp",
      events: events?.ids ?? [],
    });
  }
  return calls.sort((a, b) => a.t - b.t);
}

/** Where vLLM, Agent Lightning's LLM proxy and others put token ids on a span. */
const PROMPT_TOKEN_KEYS = ["prompt_token_ids", "gen_ai.prompt_token_ids", "gen_ai.request.prompt_token_ids", "llm.prompt_token_ids", "vllm.prompt_token_ids"];
const RESPONSE_TOKEN_KEYS = ["response_token_ids", "gen_ai.response_token_ids", "gen_ai.response.token_ids", "llm.response_token_ids", "vllm.response_token_ids", "completion_token_ids"];

function tokenIds(a: Attributes, keys: readonly string[]): number[] | undefined {
  for (const key of keys) {
    const raw = a[key];
    const value: Json | undefined = typeof raw === "string" ? parseJson(raw) : (raw);
    if (Array.isArray(value) && value.every((x) => typeof x === "number" && Number.isInteger(x) && x >= 0)) return value as number[];
  }
  return undefined;
}

function responseIdOf(span: OtlpSpan): string | undefined {
  const a = span.attributes;
  const direct = textAttr(a, "gen_ai.response.id", "ai.response.id", "llm.response.id");
  if (direct !== undefined) return direct;
  // OpenAI Agents (an array of completions) and LangChain (generations -> AIMessage kwargs.id) keep it in output.value
  const out = parseJson(textAttr(a, "output.value"));
  const first = Array.isArray(out) ? out[0] : out;
  if (isObj(first) && typeof first.id === "string" && Array.isArray(first.choices)) return first.id;
  const generation = isObj(first) && Array.isArray(first.generations) ? (first.generations.flat()[0]) : undefined;
  const message = isObj(generation) ? generation.message : undefined;
  const kwargs = isObj(message) ? message.kwargs : undefined;
  return isObj(kwargs) && typeof kwargs.id === "string" ? kwargs.id : undefined;
}

/** The agent of a call that produced no event: the nearest enclosing agent span, else the service. */
function agentOf(span: OtlpSpan, byId: ReadonlyMap<string, OtlpSpan>): string {
  for (let at: OtlpSpan | undefined = span, hops = 0; at !== undefined && hops < 1000; at = at.parentSpanId !== undefined ? byId.get(at.parentSpanId) : undefined, hops++) {
    const c = classifySpan(at);
    if (c?.role === "agent" && c.name !== undefined) return c.name;
  }
  return textAttr(span.resource, "service.name") ?? "unknown_agent";
}

function inputOf(span: OtlpSpan, parent: OtlpSpan | undefined): CallMessage[] {
  const a = span.attributes;
  const genai = parsedArray(a, "gen_ai.input.messages");
  if (genai !== undefined) {
    const system = parsedArray(a, "gen_ai.system_instructions");
    const instructions: Json[] = system !== undefined && system.length > 0 ? [{ role: "system", parts: system }] : [];
    return chatMessageList([...instructions, ...genai]);
  }
  const adk = adkRequest(a);
  if (adk !== undefined) return adk.messages;
  const flattened = unflatten(a, "llm.input_messages");
  if (flattened !== undefined) return smolagentsSent(flattened) ?? autogenSent(span.name, withIds(chatMessageList(flattened), messagesOf(parseJson(textAttr(a, "input.value")))));
  const logfire = logfireMessages(a);
  const found =
    parsedArray(a, "ai.prompt.messages") ??
    unflatten(a, "gen_ai.prompt") ??
    (parent !== undefined ? parsedArray(parent.attributes, "mastra.model_step.input") : undefined) ??
    (logfire !== undefined ? logfire.slice(0, logfire.length - trailingAssistant(logfire)) : undefined) ??
    messagesOf(parseJson(textAttr(a, "input.value")));
  return chatMessageList(found ?? []);
}

function outputOf(span: OtlpSpan, parent: OtlpSpan | undefined): CallMessage {
  const a = span.attributes;
  const step = parent !== undefined ? parseJson(textAttr(parent.attributes, "mastra.model_step.output")) : undefined;
  if (isObj(step) && (typeof step.text === "string" || Array.isArray(step.toolCalls))) return sdkAnswer(step.text, step.toolCalls);
  const messages = messagesOf(parseJson(textAttr(a, "gen_ai.output.messages"))) ?? unflatten(a, "llm.output_messages");
  if (messages !== undefined && messages.length > 0) return replyOf(messages);
  const text = textAttr(a, "ai.response.text");
  const toolCalls = parseJson(textAttr(a, "ai.response.toolCalls"));
  if (text !== undefined || toolCalls !== undefined) return sdkAnswer(text ?? "", toolCalls);
  const logfire = logfireReply(a);
  if (logfire !== undefined) return logfire;
  const adk = adkReply(a);
  if (adk !== undefined) return adk;
  const anyAgent = anyAgentReply(a);
  if (anyAgent !== undefined) return anyAgent;
  const completion = unflatten(a, "gen_ai.completion") ?? messagesOf(parseJson(textAttr(a, "output.value")));
  if (completion !== undefined && completion.length > 0) return replyOf(completion.slice(-1));
  return { role: "assistant", content: "" };
}

/** AI SDK and Mastra answers: text plus `{toolCallId, toolName, input | args}` calls. */
function sdkAnswer(text: Json | undefined, calls: Json | undefined): CallMessage {
  const parts: Json[] = [];
  if (typeof text === "string" && text !== "") parts.push({ type: "text", text });
  for (const c of Array.isArray(calls) ? calls : []) {
    if (isObj(c) && typeof c.toolName === "string") parts.push({ type: "tool-call", toolCallId: c.toolCallId ?? null, toolName: c.toolName, input: c.input ?? c.args ?? null });
  }
  return replyOf([{ role: "assistant", content: parts }]);
}

function parsedArray(a: Attributes, key: string): Json[] | undefined {
  const raw = a[key];
  const value = typeof raw === "string" ? parseJson(raw) : (raw as Json | undefined);
  return Array.isArray(value) ? value : undefined;
}

/**
 * Flattened attributes (`llm.input_messages.0.message.role`, `gen_ai.prompt.1.content`)
 * back into an array of objects; numeric segments become arrays. OpenInference's
 * `message.tool_calls.N.tool_call.function.*` and `message.contents.N.message_content.*`
 * are unwrapped into OpenAI's shape.
 */
function unflatten(a: Attributes, prefix: string): Json[] | undefined {
  const root: Json[] = [];
  let found = false;
  for (const [key, value] of Object.entries(a)) {
    if (!key.startsWith(`${prefix}.`)) continue;
    const path = key.slice(prefix.length + 1).split(".");
    if (!/^\d+$/.test(path[0]!)) continue;
    found = true;
    set(root, path, value);
  }
  if (!found) return undefined;
  return root.filter((m) => m !== undefined && m !== null).map(openInference);
}

function set(container: Json[] | { [key: string]: Json }, path: string[], value: AttrValue): void {
  const [head, ...rest] = path as [string, ...string[]];
  const index: string | number = Array.isArray(container) ? Number(head) : head;
  const slot = container as Record<string | number, Json>;
  if (rest.length === 0) {
    slot[index] = value;
    return;
  }
  const existing = slot[index];
  const next = existing !== undefined && existing !== null && typeof existing === "object" ? existing : /^\d+$/.test(rest[0]!) ? [] : {};
  slot[index] = next;
  set(next, rest, value);
}

function openInference(entry: Json): Json {
  // AutoGen's function results sit beside the message: `llm.input_messages.N.function.M`
  const m = isObj(entry) && isObj(entry.message) ? { ...entry.message, ...(entry.function !== undefined ? { function: entry.function } : {}) } : entry;
  if (!isObj(m)) return m;
  const out: { [key: string]: Json } = { ...m };
  if (Array.isArray(m.tool_calls)) out.tool_calls = m.tool_calls.map((c) => (isObj(c) && isObj(c.tool_call) ? c.tool_call : c));
  if (m.content === undefined && Array.isArray(m.contents)) {
    out.content = m.contents.map((c) => (isObj(c) && isObj(c.message_content) ? c.message_content : c));
    delete out.contents;
  }
  return out;
}

function isObj(v: Json | undefined): v is { [key: string]: Json } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
