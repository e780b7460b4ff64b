import { textAttr, type OtlpSpan } from "../../otlp-span";
import { parseJson, requestText, textOf, type Json } from "../content";
import type { Classified, ToolCallPart } from "../model";
import { classifyGenAi } from "./genai";

/**
 * Mastra's OTel exporter (`@mastra/otel-exporter`): GenAI attributes plus
 * `mastra.span.type` (agent_run, workflow_run, model_generation,
 * model_step, model_chunk, tool_call, mcp_tool_call, workflow_step, ...).
 * An agent run's request and answer are in `mastra.agent_run.input/output`
 * (a workflow's in `mastra.workflow_run.*`); tools carry
 * `gen_ai.tool.call.id` (Mastra's toolCallId), which pairs them with the
 * model call that asked for them even though Mastra's model span stays
 * open while its tools run. Steps and chunks are plumbing.
 *
 * Mastra 1.x: an agent step is a `model_step` span holding the model call
 * (`model_inference`, `chat <model>`) and the tools it asked for as
 * siblings; the chat span's output has the text only, the step's
 * `mastra.model_step.output` has `{text, toolCalls}`. withStepCalls gives
 * the model call the calls its step made.
 */
export const classifyMastra = (span: OtlpSpan): Classified | undefined => {
  const type = textAttr(span.attributes, "mastra.span.type")?.toLowerCase();
  if (type === undefined) return undefined;
  const a = span.attributes;
  const genai = classifyGenAi(span);
  if (type === "agent_run" || type === "workflow_run") {
    const input = textAttr(a, `mastra.${type}.input`);
    const output = mastraText(textAttr(a, `mastra.${type}.output`));
    return {
      ...(genai ?? {}),
      family: "mastra",
      role: type === "agent_run" ? "agent" : "run",
      name: textAttr(a, "gen_ai.agent.name", "gen_ai.agent.id") ?? span.name.replace(/^(invoke_agent|invoke_workflow)\s+/, ""),
      ...(input !== undefined ? { input, request: requestText(input) } : {}),
      ...(output !== undefined ? { output } : {}),
    };
  }
  // 1.x: model_generation wraps an agent's steps (plumbing, no gen_ai chat operation);
  // each model call is a model_inference span (`chat <model>`). 0.x wrote chat on model_generation.
  if ((type === "model_generation" || type === "model_inference" || type === "tool_call" || type === "mcp_tool_call") && genai) return { ...genai, family: "mastra" };
  return { family: "mastra", role: "other" };
};

const isObj = (v: Json | undefined): v is { [key: string]: Json } => typeof v === "object" && v !== null && !Array.isArray(v);

/** Mastra's `{text, files, ...}` results: the text; anything else as textOf reads it. */
function mastraText(value: string | undefined): string | undefined {
  const parsed = parseJson(value);
  if (isObj(parsed) && typeof parsed.text === "string") return parsed.text || undefined;
  return textOf(value) || undefined;
}

/** The tool calls of a `model_step` span's output (`toolCalls: [{toolCallId, toolName, args}]`). */
function stepCalls(step: OtlpSpan): ToolCallPart[] {
  const out = parseJson(textAttr(step.attributes, "mastra.model_step.output"));
  if (!isObj(out) || !Array.isArray(out.toolCalls)) return [];
  return out.toolCalls.flatMap((c): ToolCallPart[] =>
    isObj(c) && typeof c.toolName === "string" ? [{ ...(typeof c.toolCallId === "string" ? { id: c.toolCallId } : {}), name: c.toolName, args: typeof c.args === "string" ? c.args : JSON.stringify(c.args ?? {}) }] : [],
  );
}

/** Whether `c` is a Mastra 1.x model call inside its `model_step` span `parent` (the step is then read, not dropped). */
export function inMastraStep(c: Classified, parent: OtlpSpan | undefined): parent is OtlpSpan {
  return c.family === "mastra" && c.role === "llm" && parent !== undefined && textAttr(parent.attributes, "mastra.span.type") === "model_step";
}

/** A Mastra 1.x model call inside its `model_step`: the calls and request the step recorded. */
export function withStepCalls(c: Classified, parent: OtlpSpan | undefined): Classified {
  if (!inMastraStep(c, parent) || (c.calls ?? []).length > 0) return c;
  const calls = stepCalls(parent);
  const request = c.request ?? requestText(textAttr(parent.attributes, "mastra.model_step.input"));
  return { ...c, ...(calls.length > 0 ? { calls } : {}), ...(request !== undefined ? { request } : {}) };
}
