import { textAttr, type OtlpSpan } from "../../otlp-span";
import { langchain, messageRepr, messagesOf, parseJson, requestText, roleOf, textOf, toolCallsOf, type Json } from "../content";
import type { Classified, ToolCallPart } from "../model";
import { transferTarget } from "../model";
import { modelOf, usageOf } from "./genai";

/**
 * OpenInference (`openinference.span.kind` AGENT, CHAIN, LLM, TOOL,
 * RETRIEVER, ...): `llm.input_messages.*` / `llm.output_messages.*`
 * (flattened), `input.value` / `output.value` with their mime types,
 * `tool.name`, `graph.node.id` / `graph.node.parent_id`. The shapes of
 * these instrumentations are read here too:
 * - OpenAI Agents SDK: its trace root ("Agent workflow", an AGENT span
 *   without `graph.node.id`) is the run, not an agent; a handoff span
 *   (`handoff to <agent>`, output `{"to_agent": ...}`) hands control over;
 * - LangChain/LangGraph: a graph node running a same-name subgraph is an
 *   agent (classify.ts, which sees the tree); a tool's result is a
 *   ToolMessage carrying its `tool_call_id` (JS `{output: {lc, kwargs}}`,
 *   Python `{type: "tool", data}`, its Python repr `content='…' tool_call_id='…'`,
 *   or inside a handoff's Command);
 * - smolagents: agents are `<name>.run`, model text may come as
 *   `message.contents.N.message_content.text`, tool-call arguments that
 *   were parsed into a dict only in `output.value` (the ChatMessage JSON),
 *   and `final_answer` is the agent's answer, not a tool;
 * - LlamaIndex AgentWorkflow: no span is an agent; the workflow's step
 *   spans name the agent they run for (`current_agent_name` in their bound
 *   event), and the `handoff` tool's `to_agent` hands control over;
 * - AutoGen AgentChat: the model client's raw CreateResult in output.value
 *   is not text (its flattened output messages say what came out).
 * Where two instrumentations wrap one call, layers.ts decides.
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
  const value = parseJson(textAttr(span.attributes, "output.value"));
  // a list of messages, or one message (smolagents' ChatMessage.model_dump_json)
  const fromValue = (messagesOf(value) ?? (isObj(value) && roleOf(value) !== undefined ? [value] : [])).flatMap(toolCallsOf);
  if (calls.size === 0) return fromValue;
  return [...calls.values()].flatMap((c, i) => {
    if (c.name === undefined) return [];
    const twin = fromValue.find((v, j) => v.name === c.name && j === i) ?? fromValue.find((v) => v.name === c.name);
    const id = c.id ?? twin?.id;
    // smolagents flattens only string arguments; parsed (dict) arguments are only in output.value
    return [{ ...(id !== undefined ? { id } : {}), name: c.name, args: c.args ?? twin?.args ?? "{}" }];
  });
}

/** `message.content`, or the text blocks of `message.contents.N.message_content.text` (smolagents' model spans). */
const OUTPUT_TEXT = /^llm\.output_messages\.\d+\.message\.(content|contents\.\d+\.message_content\.text)$/;

function outputText(span: OtlpSpan): string | undefined {
  const parts = Object.entries(span.attributes)
    .filter(([key, value]) => OUTPUT_TEXT.test(key) && typeof value === "string" && value !== "")
    .map(([, value]) => value as string);
  if (parts.length > 0) return parts.join("\n");
  const out = textAttr(span.attributes, "output.value");
  const parsed = parseJson(out);
  if (messagesOf(parsed) !== undefined) return textOf(out) || undefined;
  // the client's raw response object (AutoGen's CreateResult) when the flattened messages already said what came out (tool calls)
  if (isObj(parsed) && Object.keys(span.attributes).some((key) => key.startsWith("llm.output_messages."))) return undefined;
  return out;
}

/**
 * smolagents' `final_answer` tool is how its agents answer (the run ends
 * with it): the model call that asks for it gives the agent's answer, its
 * tool span is part of that answer.
 */
const FINAL_ANSWER = "final_answer";

function finalAnswerOf(calls: readonly ToolCallPart[]): string | undefined {
  const call = calls.find((c) => c.name === FINAL_ANSWER);
  if (call === undefined) return undefined;
  const args = parseJson(call.args);
  const answer = isObj(args) ? args.answer : args;
  return typeof answer === "string" ? answer : answer === undefined ? call.args : JSON.stringify(answer);
}

/**
 * The tool call id a tool span executed: an attribute, or the ToolMessage
 * it returned (LangChain; a LangGraph Command carries the history, whose
 * last ToolMessage is this call's).
 */
function toolCallIdOf(span: OtlpSpan): string | undefined {
  const direct = textAttr(span.attributes, "tool_call.id", "tool.id", "tool.call_id");
  if (direct !== undefined) return direct;
  const text = textAttr(span.attributes, "output.value");
  const quoted = parseJson(text);
  const repr = text !== undefined ? messageRepr(typeof quoted === "string" ? quoted : text)?.toolCallId : undefined;
  if (repr !== undefined) return repr;
  const out = parseJson(text);
  // LangChain.js wraps the tool's return as {output}; the Python tracer writes it as it is
  const output = isObj(out) && isObj(out.output) ? out.output : out;
  if (!isObj(output)) return undefined;
  const own = callIdOfMessage(output);
  if (own !== undefined) return own;
  const update = isObj(output.update) ? output.update : undefined;
  const messages = update !== undefined && Array.isArray(update.messages) ? update.messages : [];
  return messages.flatMap((m) => (isObj(m) && callIdOfMessage(m) !== undefined ? [callIdOfMessage(m)!] : [])).at(-1);
}

/** A serialised ToolMessage's tool_call_id (JS `{lc, kwargs}`, Python `{type: "tool", data}`). */
function callIdOfMessage(message: { [key: string]: Json }): string | undefined {
  const fields = langchain(message)?.kwargs ?? (isObj(message.kwargs) ? message.kwargs : undefined);
  return typeof fields?.tool_call_id === "string" ? fields.tool_call_id : undefined;
}

/** LlamaIndex AgentWorkflow's events (AgentInput, AgentSetup, AgentOutput) name the agent they run for: `current_agent_name`, at the top or in the bound `ev`. */
function currentAgentName(value: string | undefined): string | undefined {
  if (value === undefined || !value.includes("current_agent_name")) return undefined;
  const parsed = parseJson(value);
  const holder = isObj(parsed) && isObj(parsed.ev) ? parsed.ev : parsed;
  return isObj(holder) && typeof holder.current_agent_name === "string" && holder.current_agent_name !== "" ? holder.current_agent_name : undefined;
}

/** A tool's arguments: a Python instrumentor's bound call `{args: [], kwargs: {...}}` (LlamaIndex, smolagents) is its keyword arguments. */
function toolArguments(input: string | undefined): string | undefined {
  const parsed = parseJson(input);
  if (!isObj(parsed) || !isObj(parsed.kwargs) || !Array.isArray(parsed.args) || parsed.args.length > 0) return input;
  return JSON.stringify(parsed.kwargs);
}

/** LlamaIndex AgentWorkflow's `handoff` tool names the agent it hands over to: `to_agent`, bound as `{args, kwargs}`. */
function handoffArgument(input: string | undefined): string | undefined {
  const parsed = parseJson(input);
  const args = isObj(parsed) && isObj(parsed.kwargs) ? parsed.kwargs : parsed;
  return isObj(args) && typeof args.to_agent === "string" ? args.to_agent : undefined;
}

/** Agent spans named `<agent>.<method>` (smolagents `<name>.run`, AutoGen `<name>.on_messages_stream`, CrewAI `<role>._execute_core`) are named by the agent. */
const AGENT_METHOD = /\.(?:run|on_messages_stream|_execute_core)$/;

const isObj = (v: Json | undefined): v is { [key: string]: Json } => typeof v === "object" && v !== null && !Array.isArray(v);

export const classifyOpenInference = (span: OtlpSpan): Classified | undefined => {
  const kind = textAttr(span.attributes, "openinference.span.kind")?.toUpperCase();
  if (kind === undefined) return undefined;
  const a = span.attributes;
  const base = { family: "openinference" as const };
  const input = textAttr(a, "input.value");
  if (kind === "LLM") {
    const model = modelOf(span);
    const all = outputCalls(span);
    const calls = all.filter((c) => c.name !== FINAL_ANSWER);
    const answer = finalAnswerOf(all);
    const said = outputText(span);
    const text = answer ?? (said !== undefined ? textOf(said) : undefined);
    return {
      ...base,
      role: "llm",
      ...(text !== undefined ? { output: text } : {}),
      calls,
      request: textAttr(a, "llm.input_messages.1.message.role") === "user" ? textAttr(a, "llm.input_messages.1.message.content") : requestText(input),
      ...(model !== undefined ? { model } : {}),
      usage: usageOf(span),
    };
  }
  if (kind === "TOOL") {
    const name = textAttr(a, "tool.name") ?? span.name;
    if (name === FINAL_ANSWER) return { ...base, role: "other", name, absorbed: true };
    const handoff = /^handoff to (.+)$/.exec(span.name)?.[1];
    const toAgent = handoff !== undefined ? (parseJson(textAttr(a, "output.value")) as { to_agent?: string } | undefined)?.to_agent : undefined;
    const target = toAgent ?? handoff ?? transferTarget(name, input) ?? (name === "handoff" ? handoffArgument(input) : undefined);
    const id = toolCallIdOf(span);
    const args = toolArguments(input);
    return {
      ...base,
      role: "tool",
      name,
      ...(id !== undefined ? { toolCallId: id } : {}),
      ...(args !== undefined ? { input: args } : {}),
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
      name: node ?? textAttr(a, "agent.name") ?? span.name.replace(AGENT_METHOD, ""),
      ...(input !== undefined ? { input, request: requestText(input) } : {}),
      output: textOf(textAttr(a, "output.value")) || undefined,
      ...(parent !== undefined ? { parentAgent: parent } : {}),
      usage: usageOf(span),
    };
  }
  // CHAIN and the rest: plumbing unless classify.ts finds a LangGraph agent or the run's root
  const agent = currentAgentName(input) ?? currentAgentName(textAttr(a, "output.value"));
  return { ...base, role: "other", name: span.name, ...(input !== undefined ? { input, request: requestText(input) } : {}), output: textOf(textAttr(a, "output.value")) || undefined, ...(agent !== undefined ? { agent } : {}) };
};
