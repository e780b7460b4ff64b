import { numberAttr, spanFailed, textAttr, type OtlpSpan } from "./otlp-span";

/**
 * What a span means for orchestration, read from the OpenTelemetry GenAI
 * semantic conventions (`gen_ai.*`) and, failing those, from OpenInference
 * (`openinference.span.kind`, `llm.*`, `tool.*`, `input.value`, ...).
 * docs/otlp.md has the table.
 */

export type SpanRole =
  /** invoke_agent, invoke_workflow; OpenInference AGENT */
  | "agent"
  /** create_agent: an agent is made, not run */
  | "create_agent"
  /** chat, text_completion, generate_content; OpenInference LLM */
  | "llm"
  /** execute_tool; OpenInference TOOL */
  | "tool"
  /** anything else (HTTP, CHAIN, RETRIEVER, embeddings, ...): no event of its own; what it holds belongs to the enclosing agent */
  | "other";

const OPERATION_ROLES: Readonly<Record<string, SpanRole>> = {
  invoke_agent: "agent",
  invoke_workflow: "agent",
  create_agent: "create_agent",
  execute_tool: "tool",
  chat: "llm",
  text_completion: "llm",
  generate_content: "llm",
};

const OPENINFERENCE_ROLES: Readonly<Record<string, SpanRole>> = { AGENT: "agent", TOOL: "tool", LLM: "llm" };

export function roleOf(span: OtlpSpan): SpanRole {
  const operation = operationOf(span);
  if (operation !== undefined && OPERATION_ROLES[operation]) return OPERATION_ROLES[operation];
  const kind = textAttr(span.attributes, "openinference.span.kind")?.toUpperCase();
  return (kind && OPENINFERENCE_ROLES[kind]) || "other";
}

/** `gen_ai.operation.name`, else the OpenInference span kind (kept on events as `operation`). */
export function operationOf(span: OtlpSpan): string | undefined {
  return textAttr(span.attributes, "gen_ai.operation.name") ?? textAttr(span.attributes, "openinference.span.kind");
}

const NAME_PREFIX = /^(invoke_agent|invoke_workflow|create_agent|execute_tool)\s+/;

/** The agent an agent span runs (or a create_agent span makes). */
export function agentNameOf(span: OtlpSpan): string {
  return textAttr(span.attributes, "gen_ai.agent.name", "gen_ai.workflow.name", "agent.name", "gen_ai.agent.id") ?? (span.name.replace(NAME_PREFIX, "") || span.spanId);
}

export function toolNameOf(span: OtlpSpan): string {
  return textAttr(span.attributes, "gen_ai.tool.name", "tool.name") ?? (span.name.replace(NAME_PREFIX, "") || "tool");
}

export function toolCallIdOf(span: OtlpSpan): string | undefined {
  return textAttr(span.attributes, "gen_ai.tool.call.id", "tool.id", "tool_call.id");
}

export function modelOf(span: OtlpSpan): string | undefined {
  return textAttr(span.attributes, "gen_ai.response.model", "gen_ai.request.model", "llm.model_name");
}

/** Input and output tokens (GenAI usage; older prompt/completion names; OpenInference token counts). */
export function usageOf(span: OtlpSpan): { input?: number; output?: number; total?: number } {
  const a = span.attributes;
  const input = numberAttr(a, "gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "llm.token_count.prompt");
  const output = numberAttr(a, "gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens", "llm.token_count.completion");
  const reported = numberAttr(a, "gen_ai.usage.total_tokens", "llm.token_count.total");
  const total = reported ?? (input !== undefined || output !== undefined ? (input ?? 0) + (output ?? 0) : undefined);
  return {
    ...(input !== undefined && input >= 0 ? { input } : {}),
    ...(output !== undefined && output >= 0 ? { output } : {}),
    ...(total !== undefined && total >= 0 ? { total } : {}),
  };
}

/** What went into the span: tool arguments, the agent's or model's input messages. */
export function inputOf(span: OtlpSpan): string | undefined {
  return textAttr(span.attributes, "gen_ai.tool.call.arguments", "gen_ai.input.messages", "input.value", "gen_ai.prompt");
}

/** What came out: tool result, output messages, OpenInference output. */
export function outputOf(span: OtlpSpan): string | undefined {
  return (
    textAttr(span.attributes, "gen_ai.tool.call.result", "gen_ai.output.messages", "output.value", "gen_ai.completion") ??
    textAttr(span.attributes, "llm.output_messages.0.message.content")
  );
}

/** The conversation (task) a span belongs to. */
export function conversationOf(span: OtlpSpan): string | undefined {
  return textAttr(span.attributes, "gen_ai.conversation.id", "session.id");
}

const INPUT_KEY = /^(gen_ai\.input\.|gen_ai\.prompt|llm\.input_messages\.|input\.value$)/;
const OUTPUT_KEY = /^(gen_ai\.output\.|gen_ai\.completion|llm\.output_messages\.|output\.value$)/;

/**
 * Whether the span's input (`"input"`) or output (`"output"`) attributes
 * name a tool call id: an LLM call that read the tool's result, or the one
 * that asked for the call. Matches the whole value, or the id as a JSON
 * string inside a messages document.
 */
export function mentionsToolCall(span: OtlpSpan, side: "input" | "output", callId: string): boolean {
  const keys = side === "input" ? INPUT_KEY : OUTPUT_KEY;
  const quoted = JSON.stringify(callId);
  return Object.entries(span.attributes).some(([key, value]) => keys.test(key) && typeof value === "string" && (value === callId || value.includes(quoted)));
}

/** `status: "error"` with `error_type` and `status_message` for a failed span; `status: "ok"` otherwise when `withOk` (tool results). */
export function statusOf(span: OtlpSpan, withOk = false): Record<string, string> {
  if (!spanFailed(span)) return withOk ? { status: "ok" } : {};
  const type = textAttr(span.attributes, "error.type");
  return { status: "error", ...(type ? { error_type: type } : {}), ...(span.status.message ? { status_message: span.status.message } : {}) };
}

/** `metadata.source` of a trace read from OTLP: the service, its SDK and the instrumentation scopes. */
export function provenanceOf(spans: readonly OtlpSpan[], service: string | undefined, file: string | undefined): Record<string, unknown> {
  const resource = spans[0]?.resource ?? {};
  const sdk = [textAttr(resource, "telemetry.sdk.name"), textAttr(resource, "telemetry.sdk.language"), textAttr(resource, "telemetry.sdk.version")].filter(Boolean).join(" ");
  const version = textAttr(resource, "service.version");
  return {
    format: "otlp",
    adapter: "otlp",
    dataset: "OpenTelemetry (OTLP)",
    ...(service !== undefined ? { service } : {}),
    ...(version !== undefined ? { service_version: version } : {}),
    ...(sdk ? { sdk } : {}),
    scopes: [...new Set(spans.map((s) => s.scope.name).filter((n): n is string => n !== undefined))],
    spans: spans.length,
    ...(file !== undefined ? { file } : {}),
  };
}
