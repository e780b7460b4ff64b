import { textAttr, type OtlpSpan } from "../../otlp-span";
import { requestText, textOf } from "../content";
import type { Classified } from "../model";
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
 */
export const classifyMastra = (span: OtlpSpan): Classified | undefined => {
  const type = textAttr(span.attributes, "mastra.span.type")?.toLowerCase();
  if (type === undefined) return undefined;
  const a = span.attributes;
  const genai = classifyGenAi(span);
  if (type === "agent_run" || type === "workflow_run") {
    const input = textAttr(a, `mastra.${type}.input`);
    const output = textOf(textAttr(a, `mastra.${type}.output`)) || undefined;
    return {
      ...(genai ?? {}),
      family: "mastra",
      role: type === "agent_run" ? "agent" : "run",
      name: textAttr(a, "gen_ai.agent.name", "gen_ai.agent.id") ?? span.name.replace(/^(invoke_agent|invoke_workflow)\s+/, ""),
      ...(input !== undefined ? { input, request: requestText(input) } : {}),
      ...(output !== undefined ? { output } : {}),
    };
  }
  if ((type === "model_generation" || type === "tool_call" || type === "mcp_tool_call") && genai) return { ...genai, family: "mastra" };
  return { family: "mastra", role: "other" };
};
