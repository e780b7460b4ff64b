import type { CallMessage } from "../../trace/calls";
import { langchain, type Json } from "./content";

/**
 * Messages in any instrumentation's shape -> the chat API's messages as the
 * model was sent them (baton-spec-4, SPEC.md section 6): roles `system`,
 * `developer`, `user`, `assistant`, `tool`; an assistant's `tool_calls`
 * (`{id, name, arguments}`, arguments as the JSON text sent) with `content:
 * null` when it said nothing (no `name(args)` text is made up); each tool
 * result a `tool` message with its `tool_call_id`. Shapes read:
 * - OpenAI chat messages (`tool_calls[].function`, `tool_call_id`), also
 *   logfire's events (`gen_ai.tool.message` carries the call id as `id`);
 * - GenAI semconv `parts` (`text`, `tool_call`, `tool_call_response`):
 *   pydantic-ai puts tool results in a `user` message (its ModelRequest), the
 *   model was sent them as `tool` messages, one per result;
 * - LangChain serialised messages (JS `{lc, kwargs}`, Python `{type, data}`);
 * - AutoGen's `function` message (FunctionExecutionResultMessage, flattened
 *   by OpenInference as `function.N` JSON `{content, call_id}`): one `tool`
 *   message per result, as autogen-ext's OpenAI client sends it;
 * - smolagents' internal roles: `tool-call` is sent as `assistant` and
 *   `tool-response` as `user` (smolagents/models.py `tool_role_conversions`),
 *   as text: smolagents writes the calls into the text, not as `tool_calls`;
 * - AI SDK / Mastra content parts (`tool-call`, `tool-result`);
 * - Responses API input items (`function_call`, `function_call_output`),
 *   one chat message each.
 */

type Obj = { [key: string]: Json };
const isObj = (v: Json | undefined): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: Json | undefined): string | undefined => (typeof v === "string" ? v : undefined);

/** The role the model was sent, from an instrumentation's own name for it. */
const ROLE: Readonly<Record<string, string>> = {
  human: "user",
  ai: "assistant",
  model: "assistant",
  HumanMessage: "user",
  AIMessage: "assistant",
  SystemMessage: "system",
  ToolMessage: "tool",
  "tool-call": "assistant",
  "tool-response": "user",
  function: "tool",
};

type ToolCall = NonNullable<CallMessage["tool_calls"]>[number];

/** Arguments as the chat API sends them: JSON text (an object the span parsed is written back compactly). */
function argumentsText(args: Json | undefined): string {
  if (typeof args === "string") return args;
  return JSON.stringify(args ?? {});
}

function resultText(value: Json | undefined): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  return JSON.stringify(value);
}

/** Text of content parts (text only: tool calls and results are their own fields). */
function partsText(parts: readonly Json[]): string {
  return parts
    .map((p) => {
      if (typeof p === "string") return p;
      if (!isObj(p)) return "";
      const type = str(p.type);
      if (type === undefined || ["text", "output_text", "input_text"].includes(type) || p.block_type === "text") return str(p.text) ?? str(p.content) ?? "";
      return "";
    })
    .filter((t) => t !== "")
    .join("\n");
}

function callsOf(m: Obj): ToolCall[] {
  const out: ToolCall[] = [];
  const add = (id: Json | undefined, name: Json | undefined, args: Json | undefined) => {
    if (typeof name !== "string") return;
    out.push({ ...(typeof id === "string" && id !== "" ? { id } : {}), name, arguments: argumentsText(args) });
  };
  if (Array.isArray(m.tool_calls)) {
    for (const c of m.tool_calls) {
      const call = isObj(c) && isObj(c.tool_call) ? c.tool_call : c;
      if (!isObj(call)) continue;
      if (isObj(call.function)) add(call.id, call.function.name, call.function.arguments);
      else add(call.id, call.name, call.args ?? call.arguments);
    }
  }
  for (const p of partsOf(m)) {
    if (!isObj(p)) continue;
    if (p.type === "tool_call" || p.type === "function_call") add(p.id ?? p.call_id, p.name, p.arguments);
    if (p.type === "tool-call") add(p.toolCallId, p.toolName, p.input ?? p.args);
  }
  return out;
}

function partsOf(m: Obj): Json[] {
  if (Array.isArray(m.parts)) return m.parts;
  if (Array.isArray(m.content)) return m.content;
  if (Array.isArray(m.contents)) return m.contents.map((c) => (isObj(c) && isObj(c.message_content) ? c.message_content : c));
  return [];
}

/** Tool results carried as parts (GenAI `tool_call_response`, AI SDK `tool-result`). */
function resultParts(m: Obj): { id?: string; content: string }[] {
  return partsOf(m).flatMap((p) => {
    if (!isObj(p)) return [];
    if (p.type === "tool_call_response") return [{ ...(str(p.id) !== undefined ? { id: str(p.id) } : {}), content: resultText(p.response ?? p.result ?? null) }];
    if (p.type === "tool-result") return [{ ...(str(p.toolCallId) !== undefined ? { id: str(p.toolCallId) } : {}), content: resultText(sdkOutput(p.output ?? p.result ?? null)) }];
    return [];
  });
}

/** AI SDK v5+ tool outputs are typed (`{type: "json" | "text" | "error-text" | "error-json", value}`); the provider sends the value (JSON as text). */
function sdkOutput(output: Json): Json {
  if (!isObj(output) || typeof output.type !== "string" || !("value" in output) || Object.keys(output).length !== 2) return output;
  return ["json", "text", "error-text", "error-json"].includes(output.type) ? (output.value ?? null) : output;
}

/** AutoGen's function results flattened by OpenInference: `function.N` JSON `{content, call_id}`. */
function autogenResults(m: Obj): { id?: string; content: string }[] {
  const holder = isObj(m.function) ? Object.values(m.function) : Array.isArray(m.function) ? m.function : [];
  const results = holder.map((v) => (typeof v === "string" ? (safeJson(v) ?? v) : v));
  return results.flatMap((r) => (isObj(r) && r.call_id !== undefined ? [{ ...(str(r.call_id) !== undefined ? { id: str(r.call_id) } : {}), content: resultText(r.content ?? null) }] : []));
}

function safeJson(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

const toolMessage = (r: { id?: string; content: string }): CallMessage => ({ role: "tool", content: r.content, ...(r.id !== undefined ? { tool_call_id: r.id } : {}) });

/** One message in any shape -> one or more chat API messages (a message holding several tool results is several `tool` messages). */
export function chatMessages(message: Json): CallMessage[] {
  if (typeof message === "string") return [{ role: "user", content: message }];
  const outer = isObj(message) && isObj(message.message) ? message.message : message;
  if (!isObj(outer)) return [];
  // Responses API input items without a role (OpenAI Agents' raw input): a function call and its output
  if (outer.role === undefined && outer.type === "function_call" && typeof outer.name === "string") {
    return [{ role: "assistant", content: null, tool_calls: [{ ...(str(outer.call_id) !== undefined ? { id: str(outer.call_id) } : {}), name: outer.name, arguments: argumentsText(outer.arguments) }] }];
  }
  if (outer.role === undefined && outer.type === "function_call_output") return [toolMessage({ ...(str(outer.call_id) !== undefined ? { id: str(outer.call_id) } : {}), content: resultText(outer.output ?? null) })];
  const lc = langchain(outer);
  const m: Obj = lc ? lc.kwargs : outer;
  const rawRole = lc?.kind ?? str(outer.role) ?? str(outer.type) ?? "user";
  const role = ROLE[rawRole] ?? rawRole;

  const results = [...resultParts(m), ...(rawRole === "function" ? autogenResults(m) : [])];
  if (results.length > 0) return results.map(toolMessage);

  const text = typeof m.content === "string" ? m.content : partsText(partsOf(m));
  const toolCallId = str(m.tool_call_id) ?? (role === "tool" ? str(m.id) : undefined);
  if (role === "tool") return [{ role, content: text, ...(toolCallId !== undefined ? { tool_call_id: toolCallId } : {}) }];

  const calls = rawRole === "tool-call" ? [] : callsOf(m);
  return [{ role, content: calls.length > 0 && text === "" ? null : text, ...(calls.length > 0 ? { tool_calls: calls } : {}) }];
}

/** A list of messages -> chat API messages. */
export function chatMessageList(messages: readonly Json[]): CallMessage[] {
  return messages.flatMap(chatMessages);
}

/**
 * The reply of a call from the messages it produced: one assistant message,
 * text joined (null when there is none and tools were called), tool calls in
 * order (the Responses API returns a message and function calls as separate
 * items; logfire writes one event each).
 */
export function replyOf(messages: readonly Json[]): CallMessage {
  const list = chatMessageList(messages).filter((m) => m.role === "assistant");
  const text = list.map((m) => (typeof m.content === "string" ? m.content : "")).filter((t) => t !== "").join("\n");
  const calls = list.flatMap((m) => m.tool_calls ?? []);
  return { role: "assistant", content: calls.length > 0 && text === "" ? null : text, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
}
