import { textAttr, type OtlpSpan } from "../../otlp-span";
import { messagesOf, parseJson, requestText, textOf, toolCallsOf, type Json } from "../content";
import type { Classified, ToolCallPart } from "../model";
import { transferTarget } from "../model";
import { modelOf, usageOf } from "./genai";

/**
 * OpenInference (`openinference.span.kind` AGENT, CHAIN, LLM, TOOL,
 * RETRIEVER, ...): `llm.input_messages.*` / `llm.output_messages.*`
 * (flattened), `input.value` / `output.value` with their mime types,
 * `tool.name`, `graph.node.id` / `graph.node.parent_id`. The shapes of two
 * instrumentations are read here too:
 * - OpenAI Agents SDK: its trace root ("Agent workflow", an AGENT span
 *   without `graph.node.id`) is the run, not an agent; a handoff span
 *   (`handoff to <agent>`, output `{"to_agent": ...}`) hands control over;
 * - LangChain/LangGraph: a graph node running a same-name subgraph is an
 *   agent (classify.ts, which sees the tree); a tool's result is a
 *   ToolMessage carrying its `tool_call_id`.
 */

const OUTPUT_KEY = /^llm\.output_messages\.(\d+)\.message\.(content|tool_calls\.(\d+)\.tool_call\.(id|function\.name|function\.arguments))$/;

/** Tool calls of the flattened output messages, ids filled from output.value where the flattening left them out (LangChain). */
function outputCalls(span: OtlpSpan): ToolCallPart[] {
  const calls = new Map<string, { id?: string; name?: string; args?: string }>();
  for (const [key, value] of Object.entries(span.attributes)) {
    const m = OUTPUT_KEY.exec(key);
    if (!m || m[3] === undefined || typeof value !== "string") continue;
    const k = `${m[1]}.${m[3]}`;
    const call = calls.get(k) ?? {};
    if (m[4] === "id") call.id = value;
    if (m[4] === "function.name") call.name = value;
    if (m[4] === "function.arguments") call.args = value;
    calls.set(k, call);
  }
  const fromValue = (messagesOf(parseJson(textAttr(span.attributes, "output.value"))) ?? []).flatMap(toolCallsOf);
  if (calls.size === 0) return fromValue;
  return [...calls.values()].flatMap((c, i) => {
    if (c.name === undefined) return [];
    const id = c.id ?? fromValue.find((v, j) => v.name === c.name && j === i)?.id ?? fromValue.find((v) => v.name === c.name)?.id;
    return [{ ...(id !== undefined ? { id } : {}), name: c.name, args: c.args ?? "{}" }];
  });
}

function outputText(span: OtlpSpan): string | undefined {
  const parts = Object.entries(span.attributes)
    .filter(([key, value]) => /^llm\.output_messages\.\d+\.message\.content$/.test(key) && typeof value === "string" && value !== "")
    .map(([, value]) => value as string);
  if (parts.length > 0) return parts.join("\n");
  const out = textAttr(span.attributes, "output.value");
  const messages = messagesOf(parseJson(out));
  if (messages !== undefined) return textOf(out) || undefined;
  return out;
}

/**
 * The tool call id a tool span executed: an attribute, or the ToolMessage
 * it returned (LangChain; a LangGraph Command carries the history, whose
 * last ToolMessage is this call's).
 */
function toolCallIdOf(span: OtlpSpan): string | undefined {
  const direct = textAttr(span.attributes, "tool_call.id", "tool.id", "tool.call_id");
  if (direct !== undefined) return direct;
  const out = parseJson(textAttr(span.attributes, "output.value"));
  const output = isObj(out) ? out.output : undefined;
  if (!isObj(output)) return undefined;
  const kwargs = isObj(output.kwargs) ? output.kwargs : undefined;
  if (kwargs !== undefined && typeof kwargs.tool_call_id === "string") return kwargs.tool_call_id;
  const update = isObj(output.update) ? output.update : undefined;
  const messages = update !== undefined && Array.isArray(update.messages) ? update.messages : [];
  const ids = messages.flatMap((m) => (isObj(m) && isObj(m.kwargs) && typeof m.kwargs.tool_call_id === "string" ? [m.kwargs.tool_call_id] : []));
  return ids.at(-1);
}

const isObj = (v: Json | undefined): v is { [key: string]: Json } => typeof v === "object" && v !== null && !Array.isArray(v);

export const classifyOpenInference = (span: OtlpSpan): Classified | undefined => {
  const kind = textAttr(span.attributes, "openinference.span.kind")?.toUpperCase();
  if (kind === undefined) return undefined;
  const a = span.attributes;
  const base = { family: "openinference" as const };
  const input = textAttr(a, "input.value");
  if (kind === "LLM") {
    const model = modelOf(span);
    const text = outputText(span);
    return {
      ...base,
      role: "llm",
      ...(text !== undefined ? { output: textOf(text) } : {}),
      calls: outputCalls(span),
      request: textAttr(a, "llm.input_messages.1.message.role") === "user" ? textAttr(a, "llm.input_messages.1.message.content") : requestText(input),
      ...(model !== undefined ? { model } : {}),
      usage: usageOf(span),
    };
  }
  if (kind === "TOOL") {
    const name = textAttr(a, "tool.name") ?? span.name;
    const handoff = /^handoff to (.+)$/.exec(span.name)?.[1];
    const toAgent = handoff !== undefined ? (parseJson(textAttr(a, "output.value")) as { to_agent?: string } | undefined)?.to_agent : undefined;
    const target = toAgent ?? handoff ?? transferTarget(name);
    const id = toolCallIdOf(span);
    return {
      ...base,
      role: "tool",
      name,
      ...(id !== undefined ? { toolCallId: id } : {}),
      ...(input !== undefined ? { input } : {}),
      output: textOf(textAttr(a, "output.value")) || undefined,
      ...(target !== undefined ? { handoffTo: target } : {}),
    };
  }
  if (kind === "AGENT") {
    const node = textAttr(a, "graph.node.id");
    const workflowRoot = node === undefined && (span.name === "Agent workflow" || (span.scope.name ?? "").includes("openai-agents"));
    const parent = textAttr(a, "graph.node.parent_id");
    return {
      ...base,
      role: workflowRoot ? "run" : "agent",
      name: node ?? textAttr(a, "agent.name") ?? span.name,
      ...(input !== undefined ? { input, request: requestText(input) } : {}),
      output: textOf(textAttr(a, "output.value")) || undefined,
      ...(parent !== undefined ? { parentAgent: parent } : {}),
      usage: usageOf(span),
    };
  }
  // CHAIN and the rest: plumbing unless classify.ts finds a LangGraph agent or the run's root
  return { ...base, role: "other", name: span.name, ...(input !== undefined ? { input, request: requestText(input) } : {}), output: textOf(textAttr(a, "output.value")) || undefined };
};
