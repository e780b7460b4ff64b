import { textAttr, type OtlpSpan } from "../../otlp-span";
import { parseJson, requestText, textOf } from "../content";
import type { Classified, ToolCallPart } from "../model";
import { transferTarget } from "../model";
import { modelOf, usageOf } from "./genai";

/**
 * Vercel AI SDK v4-v6 native spans (`experimental_telemetry`), read by
 * `ai.operationId`: `ai.generateText` / `ai.streamText` / `*Object` are an
 * agent's turn named by `ai.telemetry.functionId`; their `.doGenerate` /
 * `.doStream` children are model calls (`ai.response.text`,
 * `ai.response.toolCalls`); `ai.toolCall` is a tool (`ai.toolCall.name/id/
 * args/result`). Embeddings and anything else are plumbing.
 */

const TURNS = new Set(["ai.generateText", "ai.streamText", "ai.generateObject", "ai.streamObject"]);
const CALLS = new Set(["ai.generateText.doGenerate", "ai.streamText.doStream", "ai.generateObject.doGenerate", "ai.streamObject.doStream"]);

function toolCalls(span: OtlpSpan): ToolCallPart[] {
  const parsed = parseJson(textAttr(span.attributes, "ai.response.toolCalls"));
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((c) => {
    if (typeof c !== "object" || c === null || Array.isArray(c) || typeof c.toolName !== "string") return [];
    const args = c.input ?? c.args;
    return [{ ...(typeof c.toolCallId === "string" ? { id: c.toolCallId } : {}), name: c.toolName, args: typeof args === "string" ? args : JSON.stringify(args ?? {}) }];
  });
}

export const classifyVercel = (span: OtlpSpan): Classified | undefined => {
  const operation = textAttr(span.attributes, "ai.operationId");
  if (operation === undefined) return undefined;
  const a = span.attributes;
  const base = { family: "vercel" as const };
  if (TURNS.has(operation)) {
    const prompt = textAttr(a, "ai.prompt");
    return {
      ...base,
      role: "agent",
      name: textAttr(a, "ai.telemetry.functionId") ?? textAttr(a, "resource.name") ?? operation,
      input: prompt,
      request: requestText(prompt),
      output: textAttr(a, "ai.response.text") ?? textAttr(a, "ai.response.object"),
    };
  }
  if (CALLS.has(operation)) {
    const model = modelOf(span);
    return {
      ...base,
      role: "llm",
      output: textAttr(a, "ai.response.text") ?? textAttr(a, "ai.response.object"),
      calls: toolCalls(span),
      request: requestText(textAttr(a, "ai.prompt.messages")),
      ...(model !== undefined ? { model } : {}),
      usage: usageOf(span),
    };
  }
  if (operation === "ai.toolCall") {
    const name = textAttr(a, "ai.toolCall.name") ?? "tool";
    const target = transferTarget(name, textAttr(a, "ai.toolCall.args"));
    const id = textAttr(a, "ai.toolCall.id");
    return {
      ...base,
      role: "tool",
      name,
      ...(id !== undefined ? { toolCallId: id } : {}),
      input: textAttr(a, "ai.toolCall.args"),
      output: textOf(textAttr(a, "ai.toolCall.result")) || undefined,
      ...(target !== undefined ? { handoffTo: target } : {}),
    };
  }
  return { ...base, role: "other" };
};
