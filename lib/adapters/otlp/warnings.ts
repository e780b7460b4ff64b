import { textAttr } from "../otlp-span";
import { AdapterInputError } from "../types";
import type { SpanNode } from "./classify";

/**
 * What an export does not say, in words for the trace page
 * (`metadata.otlp.notes`), for framework shapes whose gaps are known from
 * their instrumentation's source; and exports that are no run at all.
 */

/** Spans that are no run (framework bookkeeping): the receiver sets them aside instead of failing them. */
export class NotARunError extends AdapterInputError {
  constructor(file: string, detail: string) {
    super("otlp", file, [detail]);
    this.name = "NotARunError";
  }
}

/** Spans that only record agents being made (AutoGen's `create_agent <name>` when agents are constructed, before the run): bookkeeping, not a run. */
export function bookkeepingOnly(nodes: readonly SpanNode[]): string | undefined {
  const made = nodes.filter((n) => n.c.role === "create_agent");
  if (made.length === 0 || !nodes.every((n) => n.c.role === "create_agent" || n.c.role === "other" || n.c.role === "run")) return undefined;
  const names = [...new Set(made.map((n) => n.c.name ?? n.span.name))].join(", ");
  return `only agent-creation spans (create_agent: ${names}): framework bookkeeping recorded when the agents were built, outside any run; no trace is made of them`;
}

export function frameworkNotes(nodes: readonly SpanNode[]): string[] {
  const notes: string[] = [];
  const clientCalls = nodes.filter((n) => n.c.family === "logfire" && n.c.role === "llm" && n.span.scope.name === "logfire.openai");
  if (clientCalls.length > 0 && !nodes.some((n) => n.c.family === "logfire" && n.span.scope.name !== "logfire.openai")) {
    notes.push(
      `only logfire's OpenAI client spans (${clientCalls.length} model calls), no OpenAI Agents span: the Agents SDK's own tracing was off (set_tracing_disabled, OPENAI_AGENTS_DISABLE_TRACING), so which agent made each call, its handoffs and its function tools' runs are not in the export; the calls and the tools they asked for are shown in one lane`,
    );
  }
  const anyAgent = nodes.filter((n) => n.c.role === "llm" && textAttr(n.span.attributes, "gen_ai.operation.name") === "call_llm" && textAttr(n.span.attributes, "gen_ai.input.messages") !== undefined);
  if (anyAgent.length > 1) {
    notes.push("any-agent records only the system instruction and the first message of each model call's prompt: the calls after the first miss the rest of what the model was sent (earlier replies and tool results)");
  }
  return notes;
}
