import type { CallMessage } from "../../trace/calls";
import { textAttr, type Attributes } from "../otlp-span";
import { chatMessageList, replyOf } from "./chat-messages";
import { parseJson, roleOf, type Json } from "./content";

/**
 * Where particular instrumentations keep a model call's messages apart from
 * the shared conventions (read by ../otlp-calls.ts): LangChain.js ids left
 * out of the flattening, logfire's own attributes, any-agent's reply,
 * smolagents' message roles.
 */

const isObj = (v: Json | undefined): v is { [key: string]: Json } => typeof v === "object" && v !== null && !Array.isArray(v);

function parsedArray(a: Attributes, key: string): Json[] | undefined {
  const raw = a[key];
  const value = typeof raw === "string" ? parseJson(raw) : raw;
  return Array.isArray(value) ? value : undefined;
}

/**
 * OpenInference's JS LangChain tracer flattens messages without their tool
 * call ids (and without the calls of an AIMessage that has them only in
 * `tool_calls`, as langgraph-supervisor's handoff-back messages); the
 * serialised messages in `input.value` hold them (an AIMessage's
 * `tool_calls[].id`, a ToolMessage's `tool_call_id`). Filled in when both
 * list the same messages in the same roles.
 */
export function withIds(messages: CallMessage[], serialised: Json[] | undefined): CallMessage[] {
  if (serialised === undefined || serialised.length !== messages.length) return messages;
  const full = chatMessageList(serialised);
  if (full.length !== messages.length || full.some((m, i) => m.role !== messages[i]!.role)) return messages;
  return messages.map((m, i) => {
    const source = full[i]!;
    // a message whose calls the flattening left out altogether (LangChain.js flattens `additional_kwargs.tool_calls` only): the serialised message's
    if (m.tool_calls === undefined && source.tool_calls !== undefined) return { ...m, content: m.content === "" ? null : m.content, tool_calls: source.tool_calls };
    const calls = m.tool_calls?.map((c, j) => (c.id === undefined && source.tool_calls?.[j]?.name === c.name && source.tool_calls[j].id !== undefined ? { ...c, id: source.tool_calls[j].id } : c));
    return {
      ...m,
      ...(calls !== undefined ? { tool_calls: calls } : {}),
      ...(m.role === "tool" && m.tool_call_id === undefined && source.tool_call_id !== undefined ? { tool_call_id: source.tool_call_id } : {}),
    };
  });
}

/**
 * logfire: its OpenAI Agents Responses spans and its OpenAI integration's
 * Responses spans keep inputs then outputs as `events`; its OpenAI Agents
 * chat-completions spans (`Chat completion with …`, GenerationSpanData) keep
 * the messages sent as `input` and the reply as `output`; its OpenAI
 * integration's chat spans keep the request body as `request_data` and the
 * reply as `response_data.message`. The messages sent, with the reply last.
 */
export function logfireMessages(a: Attributes): Json[] | undefined {
  if (textAttr(a, "logfire.msg_template") === undefined) return undefined;
  const events = parsedArray(a, "events");
  if (events !== undefined) return events;
  const input = parsedArray(a, "input");
  if (input !== undefined) return [...input, ...(parsedArray(a, "output") ?? [])];
  const request = parseJson(textAttr(a, "request_data"));
  if (isObj(request) && Array.isArray(request.messages)) {
    const response = parseJson(textAttr(a, "response_data"));
    return [...request.messages, ...(isObj(response) && response.message !== undefined ? [response.message] : [])];
  }
  return undefined;
}

export function trailingAssistant(messages: readonly Json[]): number {
  let n = 0;
  while (n < messages.length && roleOf(messages[messages.length - 1 - n]!) === "assistant") n++;
  return n;
}

export function logfireReply(a: Attributes): CallMessage | undefined {
  const messages = logfireMessages(a);
  if (messages === undefined) return undefined;
  const n = trailingAssistant(messages);
  return n > 0 ? replyOf(messages.slice(messages.length - n)) : undefined;
}

/** any-agent (tinyagent's span generation): `gen_ai.output` is the text (`gen_ai.output.type: text`) or the tool calls `[{"tool.name", "tool.args"}]` (`json`), without ids. */
export function anyAgentReply(a: Attributes): CallMessage | undefined {
  const output = textAttr(a, "gen_ai.output");
  if (output === undefined || textAttr(a, "gen_ai.operation.name") !== "call_llm") return undefined;
  if (textAttr(a, "gen_ai.output.type") !== "json") return { role: "assistant", content: output };
  const calls = parseJson(output);
  const list = Array.isArray(calls) ? calls.filter(isObj).filter((c) => typeof c["tool.name"] === "string") : [];
  if (list.length === 0) return { role: "assistant", content: output };
  return { role: "assistant", content: null, tool_calls: list.map((c) => ({ name: c["tool.name"] as string, arguments: typeof c["tool.args"] === "string" ? c["tool.args"] : JSON.stringify(c["tool.args"] ?? {}) })) };
}

/**
 * smolagents sends its memory through `get_clean_message_list` with
 * `tool_role_conversions`: `tool-call` as `assistant`, `tool-response` as
 * `user`, and consecutive messages of one role merged into one (texts joined
 * by a newline). The messages as the model got them; undefined when the
 * input has none of smolagents' own roles.
 */
export function smolagentsSent(messages: readonly Json[]): CallMessage[] | undefined {
  if (!messages.some((m) => isObj(m) && (m.role === "tool-call" || m.role === "tool-response"))) return undefined;
  const out: CallMessage[] = [];
  for (const m of chatMessageList(messages)) {
    const last = out[out.length - 1];
    if (last !== undefined && last.role === m.role && typeof last.content === "string" && typeof m.content === "string") last.content = `${last.content}\n${m.content}`;
    else out.push({ ...m });
  }
  return out;
}

/** autogen-ext's OpenAI model clients (`OpenAIChatCompletionClient.create`, `AzureOpenAIChatCompletionClient.create_stream`, ...), as OpenInference names their spans. */
const AUTOGEN_CLIENT = /ChatCompletionClient\.create(_stream)?$/;

/**
 * OpenInference's AutoGen instrumentation writes a SystemMessage with role
 * `developer`, and the client's CreateResult `finish_reason`, which
 * autogen-ext renames (`tool_calls` -> `function_calls`); the OpenAI client
 * sends `system` and receives `tool_calls` (microsoft/autogen 027ecf0a
 * autogen-ext models/openai/_openai_client.py `system_message_to_oai`,
 * models/_utils/normalize_stop_reason.py).
 */
export function autogenSent(spanName: string, messages: CallMessage[]): CallMessage[] {
  if (!AUTOGEN_CLIENT.test(spanName)) return messages;
  return messages.map((m) => (m.role === "developer" ? { ...m, role: "system" } : m));
}

export function autogenFinish(spanName: string, reason: string | undefined): string | undefined {
  return AUTOGEN_CLIENT.test(spanName) && reason === "function_calls" ? "tool_calls" : reason;
}

/**
 * Google ADK's own tracing (`call_llm`): the request as `gcp.vertex.agent.llm_request`
 * (`config.system_instruction`, `config.tools`, `contents` of Gemini `parts`:
 * `text`, `function_call {id, name, args}`, `function_response {id, name,
 * response}`; roles `user` and `model`) and the reply as `llm_response.content`.
 * Read as chat messages: the system instruction first, `model` as
 * `assistant`, each function response a `tool` message with its id.
 */
function adkMessages(content: Json | undefined): CallMessage[] {
  if (!isObj(content) || !Array.isArray(content.parts)) return [];
  const parts = content.parts.filter(isObj);
  const responses = parts.flatMap((p) => (isObj(p.function_response) ? [p.function_response] : []));
  if (responses.length > 0) return responses.map((r) => ({ role: "tool", content: typeof r.response === "string" ? r.response : JSON.stringify(r.response ?? null), ...(typeof r.id === "string" ? { tool_call_id: r.id } : {}) }));
  const text = parts.flatMap((p) => (typeof p.text === "string" && p.thought !== true ? [p.text] : [])).join("\n");
  const calls = parts.flatMap((p) => (isObj(p.function_call) && typeof p.function_call.name === "string" ? [p.function_call] : []));
  const role = content.role === "model" ? "assistant" : typeof content.role === "string" ? content.role : "user";
  return [{ role, content: calls.length > 0 && text === "" ? null : text, ...(calls.length > 0 ? { tool_calls: calls.map((c) => ({ ...(typeof c.id === "string" ? { id: c.id } : {}), name: c.name as string, arguments: JSON.stringify(c.args ?? {}) })) } : {}) }];
}

export function adkRequest(a: Attributes): { messages: CallMessage[]; tools?: { [key: string]: Json }[]; params?: { [key: string]: Json } } | undefined {
  const request = parseJson(textAttr(a, "gcp.vertex.agent.llm_request"));
  if (!isObj(request) || !Array.isArray(request.contents)) return undefined;
  const config = isObj(request.config) ? request.config : {};
  const system = typeof config.system_instruction === "string" ? [{ role: "system", content: config.system_instruction }] : [];
  const tools = Array.isArray(config.tools) ? config.tools.filter(isObj) : [];
  const params = Object.fromEntries(Object.entries(config).filter(([k, v]) => v !== null && !["system_instruction", "tools", "labels", "http_options"].includes(k)));
  return { messages: [...system, ...request.contents.flatMap(adkMessages)], ...(tools.length > 0 ? { tools } : {}), ...(Object.keys(params).length > 0 ? { params } : {}) };
}

export function adkReply(a: Attributes): CallMessage | undefined {
  const response = parseJson(textAttr(a, "gcp.vertex.agent.llm_response"));
  if (!isObj(response) || !isObj(response.content)) return undefined;
  const [reply] = adkMessages({ ...response.content, role: "model" });
  return reply;
}
