import { textAttr, type Attributes, type OtlpSpan } from "../../otlp-span";
import { indexedMessages, messageText, roleOf, textOf, toolCallsOf } from "../content";
import type { Classified } from "../model";
import { modelOf, usageOf } from "./genai";

/**
 * AgentOps (agentops SDK, agentops/semconv) and the indexed prompt
 * attributes OpenLLMetry's LLM instrumentations wrote before the GenAI
 * conventions had `gen_ai.operation.name`:
 * - `agentops.span.kind`: workflow / session (the run; a crew's result in
 *   `crewai.crew.result`), workflow.step / task (plumbing holding the task's
 *   `agentops.entity.input`), agent (named by `agent.role`, else the span's
 *   `<role>.agent` name), llm, tool (`tool.name`, `tool.parameters`, `tool.result`);
 * - a model call's messages as `gen_ai.prompt.N.{role,content}` and
 *   `gen_ai.completion.N.{role,content,tool_calls.M.{id,name,arguments}}`.
 */

const hasIndexed = (a: Attributes) => Object.keys(a).some((k) => /^gen_ai\.(prompt|completion)\.\d+\./.test(k));

/** A model call read from indexed prompt/completion attributes. */
function indexedLlm(span: OtlpSpan, family: "agentops" | "genai"): Classified {
  const prompt = indexedMessages(span.attributes, "gen_ai.prompt");
  const completion = indexedMessages(span.attributes, "gen_ai.completion");
  const user = prompt.find((m) => roleOf(m) === "user");
  const text = completion.map((m) => (typeof m === "object" && m !== null && !Array.isArray(m) && typeof m.content === "string" ? m.content : "")).filter((t) => t !== "").join("\n");
  const model = modelOf(span);
  return {
    family,
    role: "llm",
    ...(text !== "" ? { output: text } : {}),
    calls: completion.flatMap(toolCallsOf),
    ...(user !== undefined && messageText(user) !== "" ? { request: messageText(user) } : {}),
    ...(model !== undefined ? { model } : {}),
    usage: usageOf(span),
  };
}

export const classifyAgentOps = (span: OtlpSpan): Classified | undefined => {
  const a = span.attributes;
  const kind = textAttr(a, "agentops.span.kind")?.toLowerCase();
  if (kind === undefined) return undefined;
  const base = { family: "agentops" as const };
  const input = textAttr(a, "agentops.entity.input");
  const output = textOf(textAttr(a, "crewai.crew.result", "agentops.entity.output")) || undefined;
  if (kind === "workflow" || kind === "session") return { ...base, role: "run", ...(output !== undefined ? { output } : {}), usage: usageOf(span) };
  if (kind === "agent") {
    const name = textAttr(a, "agent.role", "gen_ai.agent.name", "agent.name") ?? span.name.replace(/\.agent$/, "");
    return { ...base, role: "agent", name, ...(output !== undefined ? { output } : {}), usage: usageOf(span) };
  }
  if (kind === "llm" || kind === "llm.call") return hasIndexed(a) ? indexedLlm(span, "agentops") : { ...base, role: "llm", calls: [], usage: usageOf(span) };
  if (kind === "tool") {
    const name = textAttr(a, "tool.name") ?? span.name.replace(/\.tool$/, "");
    return { ...base, role: "tool", name, ...(textAttr(a, "tool.parameters") !== undefined ? { input: textAttr(a, "tool.parameters") } : {}), output: textOf(textAttr(a, "tool.result")) || undefined };
  }
  // a CrewAI task names the agent that runs it (when no agent span below says so, its steps are that agent's)
  const agent = textAttr(a, "crewai.task.agent");
  return { ...base, role: "other", name: span.name, ...(input !== undefined ? { input, request: input } : {}), ...(agent !== undefined ? { agent } : {}) };
};

/** OpenLLMetry-style model calls without `gen_ai.operation.name`: indexed `gen_ai.prompt.N.*` / `gen_ai.completion.N.*`. */
export const classifyIndexedPrompt = (span: OtlpSpan): Classified | undefined => (hasIndexed(span.attributes) ? indexedLlm(span, "genai") : undefined);
