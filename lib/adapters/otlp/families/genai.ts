import { numberAttr, textAttr, type OtlpSpan } from "../../otlp-span";
import { indexedMessages, messagesOf, messageText, parseJson, requestText, roleOf, textOf, toolCallsOf } from "../content";
import type { Classified, Role, ToolCallPart } from "../model";
import { transferTarget } from "../model";

/**
 * OpenTelemetry GenAI semantic conventions: `gen_ai.operation.name`
 * (invoke_agent, invoke_workflow, create_agent, execute_tool, chat,
 * text_completion, generate_content), `gen_ai.agent.*`, `gen_ai.tool.*`,
 * `gen_ai.input.messages` / `gen_ai.output.messages` with `parts`.
 * any-agent writes `call_llm` model calls whose reply is `gen_ai.output`
 * (text when `gen_ai.output.type` is `text`, else JSON tool calls
 * `[{"tool.name", "tool.args"}]`, no ids) and tools' arguments and results
 * as `gen_ai.tool.args` / `gen_ai.output`.
 */

/** any-agent's reply: its text, or its tool calls (no ids: paired with the tools by name). */
function anyAgentOutput(span: OtlpSpan): { text?: string; calls: ToolCallPart[] } | undefined {
  const output = textAttr(span.attributes, "gen_ai.output");
  if (output === undefined) return undefined;
  if (textAttr(span.attributes, "gen_ai.output.type") !== "json") return { text: output, calls: [] };
  const parsed = parseJson(output);
  const calls = (Array.isArray(parsed) ? parsed : []).flatMap((c): ToolCallPart[] => {
    if (typeof c !== "object" || c === null || Array.isArray(c) || typeof c["tool.name"] !== "string") return [];
    const args = c["tool.args"];
    return [{ name: c["tool.name"], args: typeof args === "string" ? args : JSON.stringify(args ?? {}) }];
  });
  return calls.length > 0 ? { calls } : { text: output, calls: [] };
}

const ROLES: Readonly<Record<string, Role>> = {
  invoke_agent: "agent",
  invoke_workflow: "run",
  create_agent: "create_agent",
  execute_tool: "tool",
  chat: "llm",
  text_completion: "llm",
  generate_content: "llm",
  // any-agent (tinyagent's span generation) names its model-call operation call_llm
  call_llm: "llm",
};

const NAME_PREFIX = /^(invoke_agent|invoke_workflow|create_agent|execute_tool)\s+/;

export function usageOf(span: OtlpSpan): { input?: number; output?: number; total?: number } {
  const a = span.attributes;
  const input = numberAttr(a, "gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "llm.token_count.prompt", "ai.usage.inputTokens", "ai.usage.promptTokens");
  const output = numberAttr(a, "gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens", "llm.token_count.completion", "ai.usage.outputTokens", "ai.usage.completionTokens");
  const reported = numberAttr(a, "gen_ai.usage.total_tokens", "llm.token_count.total", "ai.usage.totalTokens");
  const total = reported ?? (input !== undefined || output !== undefined ? (input ?? 0) + (output ?? 0) : undefined);
  return {
    ...(input !== undefined && input >= 0 ? { input } : {}),
    ...(output !== undefined && output >= 0 ? { output } : {}),
    ...(total !== undefined && total >= 0 ? { total } : {}),
  };
}

export function modelOf(span: OtlpSpan): string | undefined {
  return textAttr(span.attributes, "gen_ai.response.model", "gen_ai.request.model", "llm.model_name", "ai.response.model", "ai.model.id");
}

export const classifyGenAi = (span: OtlpSpan): Classified | undefined => {
  const operation = textAttr(span.attributes, "gen_ai.operation.name");
  const role = operation !== undefined ? ROLES[operation] : undefined;
  if (role === undefined) return undefined;
  const a = span.attributes;
  const base = { family: "genai" as const, role };
  if (role === "llm" && operation === "call_llm") {
    const reply = anyAgentOutput(span);
    const request = requestText(textAttr(a, "gen_ai.input.messages"));
    return { ...base, ...(reply?.text !== undefined ? { output: reply.text } : {}), calls: reply?.calls ?? [], ...(request !== undefined ? { request } : {}), ...(modelOf(span) !== undefined ? { model: modelOf(span) } : {}), usage: usageOf(span) };
  }
  if (role === "llm") {
    const out = parseJson(textAttr(a, "gen_ai.output.messages"));
    // OpenLLMetry versions that set the operation but still index the messages (`gen_ai.completion.N.*`)
    const messages = messagesOf(out) ?? indexedMessages(a, "gen_ai.completion");
    const indexedUser = indexedMessages(a, "gen_ai.prompt").find((m) => roleOf(m) === "user");
    const indexedText = out === undefined ? messages.map((m) => (typeof m === "object" && m !== null && !Array.isArray(m) && typeof m.content === "string" ? m.content : "")).filter((t) => t !== "").join("\n") : "";
    return {
      ...base,
      output: textOf(textAttr(a, "gen_ai.output.messages", "gen_ai.completion")) || indexedText || undefined,
      calls: messages.flatMap(toolCallsOf),
      request: requestText(textAttr(a, "gen_ai.input.messages", "gen_ai.prompt")) ?? (indexedUser !== undefined ? messageText(indexedUser) || undefined : undefined),
      ...(modelOf(span) !== undefined ? { model: modelOf(span) } : {}),
      usage: usageOf(span),
    };
  }
  if (role === "tool") {
    const name = textAttr(a, "gen_ai.tool.name") ?? (span.name.replace(NAME_PREFIX, "") || "tool");
    const target = transferTarget(name, textAttr(a, "gen_ai.tool.call.arguments", "gen_ai.tool.args"));
    return {
      ...base,
      name,
      ...(textAttr(a, "gen_ai.tool.call.id") !== undefined ? { toolCallId: textAttr(a, "gen_ai.tool.call.id") } : {}),
      input: textAttr(a, "gen_ai.tool.call.arguments", "gen_ai.tool.args"),
      output: textOf(textAttr(a, "gen_ai.tool.call.result", "gen_ai.output")) || undefined,
      ...(target !== undefined ? { handoffTo: target } : {}),
    };
  }
  const name = textAttr(a, "gen_ai.agent.name", "gen_ai.workflow.name", "gen_ai.agent.id") ?? (span.name.replace(NAME_PREFIX, "") || span.spanId);
  const input = textAttr(a, "gen_ai.input.messages", "gen_ai.prompt");
  return { ...base, name, input, request: requestText(input), output: textOf(textAttr(a, "gen_ai.output.messages", "gen_ai.completion")) || undefined, usage: usageOf(span) };
};
