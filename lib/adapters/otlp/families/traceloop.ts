import { textAttr, type OtlpSpan } from "../../otlp-span";
import { requestText, textOf } from "../content";
import type { Classified } from "../model";
import { transferTarget } from "../model";

/**
 * OpenLLMetry / Traceloop decorators: `traceloop.span.kind` workflow (the
 * run), agent, task (plumbing), tool; names and payloads in
 * `traceloop.entity.name/input/output`. Its model calls carry GenAI
 * attributes (`gen_ai.operation.name: chat`) and are read by genai.ts.
 */
export const classifyTraceloop = (span: OtlpSpan): Classified | undefined => {
  const kind = textAttr(span.attributes, "traceloop.span.kind");
  if (kind === undefined) return undefined;
  const a = span.attributes;
  const name = textAttr(a, "traceloop.entity.name") ?? span.name.replace(/\.(workflow|agent|task|tool)$/, "");
  const input = textAttr(a, "traceloop.entity.input");
  const output = textOf(textAttr(a, "traceloop.entity.output")) || undefined;
  const base = { family: "traceloop" as const, name, output, ...(input !== undefined && !/^\{"args":\[\],"kwargs":\{\}\}$/.test(input) ? { input, request: requestText(input) } : {}) };
  if (kind === "workflow") return { ...base, role: "run" };
  if (kind === "agent") return { ...base, role: "agent" };
  if (kind === "tool") {
    const target = transferTarget(name, input);
    return { ...base, role: "tool", ...(target !== undefined ? { handoffTo: target } : {}) };
  }
  return { ...base, role: "other" };
};
