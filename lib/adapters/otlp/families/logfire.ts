import { textAttr, type OtlpSpan } from "../../otlp-span";
import { messageText, parseJson, roleOf, textOf, toolCallsOf, type Json } from "../content";
import type { Classified } from "../model";
import { modelOf, usageOf } from "./genai";

/**
 * Pydantic Logfire's OpenAI Agents instrumentation
 * (`logfire.instrument_openai_agents()`, logfire/_internal/integrations/openai_agents.py):
 * each Agents SDK span is a logfire span named by its message template
 * (`logfire.msg_template`), its SpanData exported as attributes:
 * - `OpenAI Agents trace: {name}` is the run; `Task: …` and `Turn {turn} for agent …` are plumbing;
 * - `Agent run: {name!r}` is an agent, its name in `name`;
 * - `Responses API …` / `Chat completion with …` is a model call: messages in
 *   logfire's own `events` (`gen_ai.user.message`, `gen_ai.assistant.message`
 *   with OpenAI `tool_calls`, `gen_ai.tool.message`; inputs first, then the
 *   response's outputs) or, for chat completions, `request_data.messages`;
 *   the request is the first user message (`raw_input` holds the same);
 * - `Function: {name}` is a tool (`name`, `input`, `output`), matched to the
 *   model call that asked for it by name (it carries no call id);
 * - `Handoff: {from_agent} → {to_agent}` hands control to `to_agent`.
 * logfire's OpenAI client integration (scope `logfire.openai`) writes its
 * own model-call spans (`Chat Completion with {request_data[model]!r}`:
 * the request body in `request_data`, the reply in `response_data.message`;
 * `Responses API with …`: `events`), read the same way; inside an Agents
 * SDK span logfire leaves them out (`is_current_agent_span`), so they are
 * the calls only when the Agents SDK's own tracing is off.
 */

const isObj = (v: Json | undefined): v is { [key: string]: Json } => typeof v === "object" && v !== null && !Array.isArray(v);

/** The messages the call produced: the assistant messages after the last input message (a user, system or tool message). */
function outputMessages(messages: readonly Json[]): Json[] {
  let i = messages.length;
  while (i > 0 && roleOf(messages[i - 1]!) === "assistant") i--;
  return messages.slice(i);
}

function modelMessages(span: OtlpSpan): Json[] {
  const events = parseJson(textAttr(span.attributes, "events"));
  if (Array.isArray(events)) return events;
  const request = parseJson(textAttr(span.attributes, "request_data"));
  const messages = isObj(request) && Array.isArray(request.messages) ? request.messages : [];
  // logfire's OpenAI client integration: the request body, and the reply in response_data
  const response = parseJson(textAttr(span.attributes, "response_data"));
  return isObj(response) && isObj(response.message) ? [...messages, response.message] : messages;
}

/**
 * The message templates of logfire's OpenAI Agents spans (openai_agents.py
 * `create_span`), recognised under any `logfire…` scope too: every logfire
 * version so far writes them under `logfire.openai_agents`, but the
 * templates are the integration's own, and a run whose spans are not
 * recognised comes out as one lane named after the service with its
 * handoffs and function tools lost.
 */
const AGENTS_TEMPLATE = /^(OpenAI Agents trace: \{name\}|Agent run: \{name!r\}|Function: \{name\}|Chat completion with \{gen_ai\.request\.model!r\}|Responses API|Handoff: \{from_agent\} → \{to_agent\}|Guardrail \{name!r\}|Custom span: \{name\}|Task: |Turn \{turn\} for agent |OpenAI agents: \{type\} span|MCP: list tools from server)/;

/** logfire's OpenAI client integration (`logfire.instrument_openai()`, scope `logfire.openai`): its model-call spans. */
const CLIENT_CALL = /^(Chat Completion with|Responses API with)/;

export const classifyLogfire = (span: OtlpSpan): Classified | undefined => {
  const a = span.attributes;
  const template = textAttr(a, "logfire.msg_template");
  if (template === undefined) return undefined;
  const client = span.scope.name === "logfire.openai" && CLIENT_CALL.test(template);
  const agents = (span.scope.name ?? "").includes("openai_agents") || ((span.scope.name ?? "").startsWith("logfire") && AGENTS_TEMPLATE.test(template));
  if (!client && !agents) return undefined;
  const base = { family: "logfire" as const };
  const name = textAttr(a, "name");
  if (template.startsWith("OpenAI Agents trace:")) return { ...base, role: "run", ...(name !== undefined ? { name } : {}) };
  if (template.startsWith("Agent run:")) return { ...base, role: "agent", name: name ?? textAttr(a, "logfire.msg") ?? span.name, usage: usageOf(span) };
  if (client || template.startsWith("Responses API") || template.startsWith("Chat completion with")) {
    const messages = modelMessages(span);
    const out = outputMessages(messages);
    const text = out.map(messageTextOnly).filter((t) => t !== "").join("\n");
    const user = messages.find((m) => roleOf(m) === "user");
    const model = modelOf(span);
    return {
      ...base,
      role: "llm",
      ...(text !== "" ? { output: text } : {}),
      calls: out.flatMap(toolCallsOf),
      ...(user !== undefined && messageText(user) !== "" ? { request: messageText(user) } : {}),
      ...(model !== undefined ? { model } : {}),
      usage: usageOf(span),
    };
  }
  if (template.startsWith("Function:")) {
    return { ...base, role: "tool", name: name ?? "tool", ...(textAttr(a, "input") !== undefined ? { input: textAttr(a, "input") } : {}), output: textOf(textAttr(a, "output")) || undefined };
  }
  if (template.startsWith("Handoff:")) {
    const to = textAttr(a, "to_agent");
    return { ...base, role: "tool", name: textAttr(a, "logfire.msg") ?? span.name, ...(to !== undefined ? { handoffTo: to } : {}) };
  }
  return { ...base, role: "other" };
};

/** A message's text without its tool calls (the calls become their own events). */
function messageTextOnly(message: Json): string {
  if (!isObj(message)) return "";
  return typeof message.content === "string" ? message.content : messageText({ ...message, tool_calls: [] });
}
