import { textAttr, type OtlpSpan } from "../../otlp-span";
import { parseJson, textOf, type Json } from "../content";
import { transferTarget, type Classified, type ToolCallPart } from "../model";
import { modelOf } from "./genai";

/**
 * Google ADK's own tracing (google/adk telemetry.py, `gen_ai.system:
 * gcp.vertex.agent`): `invocation` (the run), `agent_run [<name>]`,
 * `call_llm` (no `gen_ai.operation.name`: the request and response as JSON
 * in `gcp.vertex.agent.llm_request` / `llm_response`, genai `Content`s with
 * `text` and `function_call {id, name, args}` parts; the agent's name in the
 * request's `config.labels.adk_agent_name`), `execute_tool <tool>`
 * (`gen_ai.operation.name: execute_tool`, `gen_ai.tool.call.id`, arguments
 * and result in `gcp.vertex.agent.tool_call_args` / `tool_response`).
 * Newer ADK versions also write GenAI `invoke_agent` spans (genai.ts).
 */

const isObj = (v: Json | undefined): v is { [key: string]: Json } => typeof v === "object" && v !== null && !Array.isArray(v);

function parts(content: Json | undefined): Json[] {
  return isObj(content) && Array.isArray(content.parts) ? content.parts : [];
}

function textOfParts(content: Json | undefined): string {
  return parts(content)
    .flatMap((p) => (isObj(p) && typeof p.text === "string" && p.thought !== true ? [p.text] : []))
    .join("\n");
}

export const classifyAdk = (span: OtlpSpan): Classified | undefined => {
  const a = span.attributes;
  if (textAttr(a, "gen_ai.system") !== "gcp.vertex.agent") return undefined;
  const base = { family: "adk" as const };
  if (span.name === "invocation") return { ...base, role: "run" };
  const agent = /^agent_run \[(.+)\]$/.exec(span.name)?.[1];
  if (agent !== undefined) return { ...base, role: "agent", name: agent };
  // after parallel calls ADK repeats their responses in one `execute_tool (merged)` span: the tools are already there
  if (textAttr(a, "gen_ai.tool.name") === "(merged tools)") return { ...base, role: "other", absorbed: true };
  if (textAttr(a, "gen_ai.operation.name") === "execute_tool") {
    const result = parseJson(textAttr(a, "gcp.vertex.agent.tool_response"));
    const id = textAttr(a, "gen_ai.tool.call.id");
    const name = textAttr(a, "gen_ai.tool.name") ?? span.name.replace(/^execute_tool /, "");
    const target = transferTarget(name, textAttr(a, "gcp.vertex.agent.tool_call_args"));
    return {
      ...base,
      role: "tool",
      name,
      ...(target !== undefined ? { handoffTo: target } : {}),
      ...(id !== undefined && id !== "<not specified>" ? { toolCallId: id } : {}),
      ...(textAttr(a, "gcp.vertex.agent.tool_call_args") !== undefined ? { input: textAttr(a, "gcp.vertex.agent.tool_call_args") } : {}),
      output: (isObj(result) && Object.keys(result).length === 1 && result.result !== undefined ? textOf(result.result) : textOf(textAttr(a, "gcp.vertex.agent.tool_response"))) || undefined,
    };
  }
  const request = parseJson(textAttr(a, "gcp.vertex.agent.llm_request"));
  const response = parseJson(textAttr(a, "gcp.vertex.agent.llm_response"));
  // newer ADK versions type their spans with GenAI operations: genai.ts reads them
  if (span.name !== "call_llm" || !isObj(response)) return undefined;
  const calls = parts(response.content).flatMap((p): ToolCallPart[] => {
    const call = isObj(p) && isObj(p.function_call) ? p.function_call : undefined;
    return call !== undefined && typeof call.name === "string" ? [{ ...(typeof call.id === "string" ? { id: call.id } : {}), name: call.name, args: JSON.stringify(call.args ?? {}) }] : [];
  });
  const contents = isObj(request) && Array.isArray(request.contents) ? request.contents : [];
  const user = contents.find((c) => isObj(c) && c.role === "user" && textOfParts(c) !== "");
  const labels = isObj(request) && isObj(request.config) && isObj(request.config.labels) ? request.config.labels : {};
  const usage = isObj(response.usage_metadata) ? response.usage_metadata : {};
  const num = (v: Json | undefined) => (typeof v === "number" ? v : undefined);
  const [input, output, total] = [num(usage.prompt_token_count), num(usage.candidates_token_count), num(usage.total_token_count)];
  const text = textOfParts(response.content);
  const model = modelOf(span);
  return {
    ...base,
    role: "llm",
    ...(text !== "" ? { output: text } : {}),
    calls,
    ...(user !== undefined ? { request: textOfParts(user) } : {}),
    ...(typeof labels.adk_agent_name === "string" ? { agent: labels.adk_agent_name } : {}),
    ...(model !== undefined ? { model } : {}),
    usage: { ...(input !== undefined ? { input } : {}), ...(output !== undefined ? { output } : {}), ...(total !== undefined ? { total } : {}) },
  };
};
