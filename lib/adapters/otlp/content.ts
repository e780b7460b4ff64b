/**
 * Readable text from what frameworks put in span attributes: chat messages
 * (OpenAI, GenAI `parts`, LangChain serialised messages, Vercel AI SDK
 * content parts), completions and generations. Message parts are joined as
 * text, tool-call parts written `name(args)`; a value that is JSON data
 * (a tool's result) is kept as it is.
 */

import type { Attributes } from "../otlp-span";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

export function parseJson(text: string | undefined): Json | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (!/^[[{"]/.test(trimmed)) return undefined;
  try {
    return JSON.parse(trimmed) as Json;
  } catch {
    return undefined;
  }
}

const isObj = (v: Json | undefined): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: Json | undefined): string | undefined => (typeof v === "string" ? v : undefined);

/** `name(args)` with args as compact JSON (a JSON string is parsed first, so it is not quoted twice). */
export function callText(name: string, args: Json | string | undefined): string {
  const parsed = typeof args === "string" ? (parseJson(args) ?? args) : args;
  const shown = parsed === undefined || (isObj(parsed) && Object.keys(parsed).length === 0) ? "" : typeof parsed === "string" ? parsed : JSON.stringify(parsed);
  return `${name}(${shown})`;
}

const MESSAGE_CLASS: Readonly<Record<string, string>> = { human: "HumanMessage", ai: "AIMessage", system: "SystemMessage", tool: "ToolMessage" };

/**
 * A LangChain serialised message: JS and `to_json()` write
 * `{lc, type: "constructor", id: [..., "AIMessage"], kwargs}`; Python's
 * `message_to_dict` (what OpenInference's Python tracer writes) writes
 * `{type: "ai", data: {content, tool_calls, tool_call_id, ...}}`. Its class and fields.
 */
export function langchain(v: Obj): { kind: string; kwargs: Obj } | undefined {
  if (typeof v.type === "string" && isObj(v.data) && MESSAGE_CLASS[v.type] !== undefined && Object.keys(v).length === 2) return { kind: MESSAGE_CLASS[v.type]!, kwargs: v.data };
  if (v.lc === undefined || !isObj(v.kwargs) || !Array.isArray(v.id)) return undefined;
  const last = v.id[v.id.length - 1];
  return { kind: typeof last === "string" ? last : "", kwargs: v.kwargs };
}

/** The role of a message in any of the shapes above. */
export function roleOf(message: Json): string | undefined {
  if (!isObj(message)) return undefined;
  const lc = langchain(message);
  if (lc) return { HumanMessage: "user", AIMessage: "assistant", SystemMessage: "system", ToolMessage: "tool" }[lc.kind] ?? lc.kind;
  const role = str(message.role) ?? str(message.type);
  return role === "human" ? "user" : role === "ai" ? "assistant" : role;
}

/** Text of a content value: a string, or parts (text joined, tool calls as `name(args)`). */
function contentText(content: Json | undefined): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => {
      if (typeof part === "string") return part;
      if (!isObj(part)) return "";
      const type = str(part.type);
      if (type === "text" || type === "output_text" || type === "input_text" || type === "reasoning" || part.block_type === "text") return str(part.text) ?? str(part.content) ?? "";
      if (type === "tool_call" || type === "tool-call" || type === "function_call") return callText(str(part.name) ?? str(part.toolName) ?? "tool", part.arguments ?? part.input ?? part.args);
      if (type === "tool_call_response" || type === "tool-result") return textOf(part.response ?? part.output ?? part.result ?? null);
      return str(part.text) ?? "";
    })
    .filter((t) => t !== "")
    .join("\n");
}

/** Tool calls a message carries (OpenAI `tool_calls`, LangChain `tool_calls`, GenAI/Vercel parts). */
export function toolCallsOf(message: Json): { id?: string; name: string; args: string }[] {
  if (!isObj(message)) return [];
  const lc = langchain(message);
  const m = lc ? lc.kwargs : message;
  const out: { id?: string; name: string; args: string }[] = [];
  const add = (id: Json | undefined, name: Json | undefined, args: Json | undefined) => {
    if (typeof name !== "string") return;
    out.push({ ...(typeof id === "string" ? { id } : {}), name, args: typeof args === "string" ? args : JSON.stringify(args ?? {}) });
  };
  if (Array.isArray(m.tool_calls)) {
    for (const c of m.tool_calls) {
      if (!isObj(c)) continue;
      if (isObj(c.function)) add(c.id, c.function.name, c.function.arguments);
      else add(c.id, c.name, c.args ?? c.arguments);
    }
  }
  const parts = Array.isArray(m.parts) ? m.parts : Array.isArray(m.content) ? m.content : [];
  for (const p of parts) {
    if (!isObj(p)) continue;
    if (p.type === "tool_call" || p.type === "function_call") add(p.id ?? p.call_id, p.name, p.arguments);
    if (p.type === "tool-call") add(p.toolCallId, p.toolName, p.input ?? p.args);
  }
  return out;
}

/** Readable text of one message: its content, then its tool calls as `name(args)`. */
export function messageText(message: Json): string {
  if (!isObj(message)) return typeof message === "string" ? message : "";
  const lc = langchain(message);
  const m = lc ? lc.kwargs : message;
  const text = contentText(m.content ?? m.parts ?? m.blocks ?? null);
  const alreadyInParts = Array.isArray(m.parts) || Array.isArray(m.content);
  const calls = alreadyInParts && !Array.isArray(m.tool_calls) ? [] : toolCallsOf(message).map((c) => callText(c.name, c.args));
  return [text, ...calls].filter((t) => t !== "").join("\n");
}

/** The messages of a chat value: an array of messages, `{messages}`, OpenAI `choices`, LangChain `generations`. */
export function messagesOf(value: Json | undefined): Json[] | undefined {
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every((v) => Array.isArray(v))) return value.flat();
    if (value.every((v) => isObj(v) && (roleOf(v) !== undefined || Array.isArray(v.choices)))) return value.flatMap((v) => (isObj(v) && Array.isArray(v.choices) ? (messagesOf(v) ?? []) : [v]));
    return undefined;
  }
  if (!isObj(value)) return undefined;
  if (Array.isArray(value.messages)) return messagesOf(value.messages) ?? value.messages;
  if (Array.isArray(value.choices)) return value.choices.map((c) => (isObj(c) ? (c.message ?? c.text ?? null) : null));
  if (Array.isArray(value.generations)) return value.generations.flat().map((g) => (isObj(g) ? (g.message ?? g.text ?? null) : null));
  return undefined;
}

/**
 * Readable text of any attribute value. Chat values give the text of their
 * last message (what came out); a LangChain tool result its content; other
 * JSON stays JSON; plain text stays text.
 */
export function textOf(value: Json | string | undefined): string {
  if (value === undefined || value === null) return "";
  const parsed = typeof value === "string" ? parseJson(value) : value;
  if (parsed === undefined && typeof value === "string") return messageRepr(value)?.content ?? value;
  if (parsed === undefined) return "";
  if (typeof parsed === "string") return messageRepr(parsed)?.content ?? parsed;
  const messages = messagesOf(parsed);
  if (messages !== undefined && messages.length > 0) return messageText(messages[messages.length - 1]!);
  if (isObj(parsed)) {
    const lc = langchain(parsed);
    if (lc) return messageText(parsed);
    if (isObj(parsed.output) || (typeof parsed.output === "string" && Object.keys(parsed).length === 1)) return textOf(parsed.output);
    if (roleOf(parsed) !== undefined && (parsed.content !== undefined || parsed.parts !== undefined)) return messageText(parsed);
  }
  return typeof value === "string" ? value : JSON.stringify(parsed);
}

/** The first user message's text in a chat value (the run's request), else the plain text. */
export function requestText(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const parsed = parseJson(value);
  if (parsed === undefined) return value.trim() === "" ? undefined : value;
  if (typeof parsed === "string") return parsed;
  // `prompt` (AI SDK), `task` (AutoGen's run_stream and smolagents' run), `user_msg` (LlamaIndex AgentWorkflow.run), bound as JSON by their instrumentors
  if (isObj(parsed) && typeof parsed.prompt === "string") return parsed.prompt;
  if (isObj(parsed) && typeof parsed.task === "string" && parsed.task.trim() !== "") return parsed.task;
  if (isObj(parsed) && typeof parsed.user_msg === "string" && parsed.user_msg.trim() !== "") return parsed.user_msg;
  const messages = messagesOf(parsed) ?? (isObj(parsed) && Array.isArray(parsed.messages) ? parsed.messages : undefined);
  const user = messages?.find((m) => roleOf(m) === "user");
  if (user !== undefined) return messageText(user) || undefined;
  // structured inputs (a crew's kickoff inputs): the JSON is the request
  return isObj(parsed) && messages === undefined && Object.keys(parsed).length > 0 ? value : undefined;
}

/** A Python string literal as repr() writes it ('…' or "…"), unescaped. */
const PY_STR = String.raw`'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"`;
const REPR_FIELD = (field: string) => new RegExp(String.raw`(?:^|\s)${field}=(${PY_STR})(?=\s|$)`);

function unpy(literal: string): string {
  return literal.slice(1, -1).replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.)/g, (_, e: string) =>
    e === "n" ? "\n" : e === "t" ? "\t" : e === "r" ? "\r" : e.length > 1 ? String.fromCharCode(parseInt(e.slice(1), 16)) : e,
  );
}

/**
 * A LangChain message written as its Python repr (`content='…' name='…'
 * tool_call_id='…'`, what OpenInference's LangChain tracer records when a
 * tool returns a ToolMessage it cannot serialise): its content and tool-call id.
 */
export function messageRepr(text: string): { content: string; toolCallId?: string } | undefined {
  const content = /^content=/.test(text) ? REPR_FIELD("content").exec(text)?.[1] : undefined;
  if (content === undefined) return undefined;
  const id = REPR_FIELD("tool_call_id").exec(text)?.[1];
  return { content: unpy(content), ...(id !== undefined ? { toolCallId: unpy(id) } : {}) };
}

/**
 * The answer of a ReAct-style completion ("Thought: …\nFinal Answer: …",
 * LlamaIndex's "Thought: …\nAnswer: …", CrewAI's "Final Answer:"): the text
 * after the answer marker; undefined when the text is no ReAct answer.
 */
export function reactAnswer(text: string | undefined): string | undefined {
  if (text === undefined || !/^\s*Thought:/.test(text)) return undefined;
  const m = /(?:^|\n)\s*(?:Final Answer|Answer):[ \t]*([\s\S]*)$/.exec(text);
  return m !== null && m[1]!.trim() !== "" ? m[1]!.trim() : undefined;
}

/** `<prefix>.N.{role,content,tool_calls.M.*}` as messages, in index order. */
export function indexedMessages(a: Attributes, prefix: "gen_ai.prompt" | "gen_ai.completion"): Json[] {
  type Indexed = { role?: string; content?: string; calls: Map<number, { id?: string; name?: string; arguments?: string }> };
  const byIndex = new Map<number, Indexed>();
  const pattern = new RegExp(`^${prefix.replace(".", "\\.")}\\.(\\d+)\\.(role|content|tool_calls\\.(\\d+)\\.(id|name|arguments))$`);
  for (const [key, value] of Object.entries(a)) {
    const m = pattern.exec(key);
    if (m === null || (typeof value !== "string" && typeof value !== "number")) continue;
    const message: Indexed = byIndex.get(Number(m[1])) ?? { calls: new Map() };
    if (m[2] === "role") message.role = String(value);
    else if (m[2] === "content") message.content = String(value);
    else {
      const call = message.calls.get(Number(m[3])) ?? {};
      call[m[4] as "id" | "name" | "arguments"] = String(value);
      message.calls.set(Number(m[3]), call);
    }
    byIndex.set(Number(m[1]), message);
  }
  return [...byIndex]
    .sort(([x], [y]) => x - y)
    .map(([, m]): Json => ({
      role: m.role ?? (prefix === "gen_ai.completion" ? "assistant" : "user"),
      content: m.content ?? "",
      ...(m.calls.size > 0 ? { tool_calls: [...m.calls].sort(([x], [y]) => x - y).map(([, c]) => ({ ...(c.id !== undefined ? { id: c.id } : {}), function: { name: c.name ?? "tool", arguments: c.arguments ?? "{}" } })) } : {}),
    }));
}
