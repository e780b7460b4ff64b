import type { ScriptedAnswer } from "./scripted-openai";

/**
 * The scripted answers of the frameworks run against the gateway
 * (npm run frameworks:gateway). The support scenario (scripts/frameworks/openai-agents),
 * for the chat-completions and the Responses API alike: each agent is recognised
 * by its instructions, and where it is by the tool results already in its prompt.
 */
type Body = Record<string, unknown>;
type Message = { role?: string; content?: unknown; tool_call_id?: string; type?: string; call_id?: string };

function systemText(body: Body): string {
  if (typeof body.instructions === "string") return body.instructions;
  // chat completions' messages, or the Responses API's input items (a system message there when there are no instructions)
  const system = ((body.messages ?? body.input ?? []) as Message[]).find((m) => m.role === "system" || m.role === "developer");
  return typeof system?.content === "string" ? system.content : JSON.stringify(system?.content ?? "");
}

function hasResult(body: Body, callId: string): boolean {
  if (Array.isArray(body.messages)) return (body.messages as Message[]).some((m) => m.role === "tool" && m.tool_call_id === callId);
  return Array.isArray(body.input) && (body.input as Message[]).some((item) => item.type === "function_call_output" && item.call_id === callId);
}

export function supportAnswer(body: Body): ScriptedAnswer {
  const system = systemText(body);
  if (system.includes("You are the researcher")) {
    return hasResult(body, "call_lookup_1") ? { text: "Order 42 shipped on Monday and arrives Thursday." } : { tools: [{ id: "call_lookup_1", name: "lookup_order", args: { order_id: "42" } }] };
  }
  if (system.includes("You are the writer")) return { text: "Good news: your order 42 shipped on Monday and should arrive on Thursday." };
  return hasResult(body, "call_research_1")
    ? { tools: [{ id: "call_handoff_1", name: "transfer_to_writer", args: {} }] }
    : { tools: [{ id: "call_research_1", name: "ask_researcher", args: { input: "Find the status of order 42." } }] };
}

/** The population scenario (scripts/frameworks/langgraph): supervisor -> researcher (a tool) -> writer -> answer. */
export function populationAnswer(body: Body): ScriptedAnswer {
  const system = systemText(body);
  if (system.includes("You are the researcher")) {
    return hasResult(body, "call_lookup_1") ? { text: "Lyon has about 520,000 inhabitants (city proper)." } : { tools: [{ id: "call_lookup_1", name: "lookup_population", args: { city: "Lyon" } }] };
  }
  if (system.includes("You are the writer")) return { text: "Lyon is home to about 520,000 people." };
  if (!hasResult(body, "call_transfer_1")) return { tools: [{ id: "call_transfer_1", name: "transfer_to_researcher", args: {} }] };
  if (!hasResult(body, "call_transfer_2")) return { tools: [{ id: "call_transfer_2", name: "transfer_to_writer", args: {} }] };
  return { text: "Lyon is home to about 520,000 people." };
}

/** The AI SDK scenario (scripts/frameworks/ai-sdk-6/gateway.mjs): orchestrator -> researcher (a tool, with its own tool) -> writer (a tool) -> answer. */
export function orchestratorAnswer(body: Body): ScriptedAnswer {
  const system = systemText(body);
  if (system.includes("You are the researcher")) return supportAnswer(body);
  if (system.includes("You are the writer")) return { text: "Good news: your order 42 shipped on Monday and should arrive on Thursday." };
  if (!hasResult(body, "call_research_1")) return { tools: [{ id: "call_research_1", name: "ask_researcher", args: { input: "Find the status of order 42." } }] };
  if (!hasResult(body, "call_write_1")) return { tools: [{ id: "call_write_1", name: "ask_writer", args: { facts: "Order 42 shipped on Monday and arrives Thursday." } }] };
  return { text: "Your order 42 shipped on Monday and should arrive on Thursday. Thank you for your patience!" };
}

/** The Mastra scenario (scripts/frameworks/mastra/gateway.mjs): orchestrator -> researcher (a sub-agent, with a search tool) -> writer (a sub-agent) -> answer. */
export function mastraAnswer(body: Body): ScriptedAnswer {
  const system = systemText(body);
  if (system.includes("You are the researcher")) {
    return hasResult(body, "call_search_1") ? { text: "Facts: water boils near 93 C at 2000 m; about 1 C lower per 300 m." } : { tools: [{ id: "call_search_1", name: "search", args: { query: "boiling point altitude" } }] };
  }
  if (system.includes("You are the writer")) return { text: "At altitude water boils below 100 C: near 93 C at 2000 m. Cooking takes longer there." };
  if (!hasResult(body, "call_research_1")) return { tools: [{ id: "call_research_1", name: "agent-researcher", args: { prompt: "How does altitude change the boiling point of water?" } }] };
  if (!hasResult(body, "call_write_1")) return { tools: [{ id: "call_write_1", name: "agent-writer", args: { prompt: "Draft a brief from: water boils near 93 C at 2000 m; about 1 C lower per 300 m" } }] };
  return { text: "Brief: At altitude water boils below 100 C, near 93 C at 2000 m. Cooking takes longer there." };
}
