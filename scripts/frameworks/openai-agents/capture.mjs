// OpenAI Agents SDK, run unchanged behind its own OpenAI client pointed at a
// scripted chat-completions server on loopback, traced by OpenInference's
// openai-agents instrumentation and exported over OTLP/HTTP JSON. Scenario:
// a triage agent asks a researcher agent (called as a tool), which looks an
// order up with a tool; triage then hands off to a writer agent, whose
// answer is the run's final output.
// Usage: node capture.mjs <fixture.json | -> [Baton OTLP traces url]  (the captured
// export requests are written as the fixture, and/or posted as they came to the url)
import * as agents from "@openai/agents";
import { OpenAIAgentsInstrumentation } from "@arizeai/openinference-instrumentation-openai-agents";
import OpenAI from "openai";
import { z } from "zod";
import { finish, lastOf, startCapture, startMockOpenAI, systemOf } from "../shared/servers.mjs";
import { startTracing } from "../shared/otel.mjs";

const { Agent, run, tool, setDefaultOpenAIClient, setOpenAIAPI, setTracingDisabled } = agents;
const [out, target] = process.argv.slice(2);
const capture = await startCapture();
const provider = startTracing(capture.url, "openai-agents-support");
new OpenAIAgentsInstrumentation({ tracerProvider: provider }).manuallyInstrument(agents);

const REQUEST = "Where is my order 42? Please answer politely.";
const model = await startMockOpenAI((body) => {
  const system = systemOf(body);
  const last = lastOf(body);
  if (system.includes("You are the researcher")) {
    return last.role === "tool" ? { text: "Order 42 shipped on Monday and arrives Thursday." } : { tools: [{ id: "call_lookup_1", name: "lookup_order", args: { order_id: "42" } }] };
  }
  if (system.includes("You are the writer")) return { text: "Good news: your order 42 shipped on Monday and should arrive on Thursday." };
  // triage: first ask the researcher, then hand off to the writer
  const askedResearcher = body.messages.some((m) => m.role === "tool" && m.tool_call_id === "call_research_1");
  return askedResearcher ? { tools: [{ id: "call_handoff_1", name: "transfer_to_writer", args: {} }] } : { tools: [{ id: "call_research_1", name: "ask_researcher", args: { input: "Find the status of order 42." } }] };
});

setDefaultOpenAIClient(new OpenAI({ baseURL: model.baseURL, apiKey: "mock-key" }));
setOpenAIAPI("chat_completions");
setTracingDisabled(false);

const lookupOrder = tool({
  name: "lookup_order",
  description: "Looks an order up by id",
  parameters: z.object({ order_id: z.string() }),
  execute: async ({ order_id }) => JSON.stringify({ order_id, status: "shipped", shipped: "Monday", eta: "Thursday" }),
});
const researcher = new Agent({ name: "researcher", instructions: "You are the researcher. Use tools to find facts.", model: "gpt-mock", tools: [lookupOrder] });
const writer = new Agent({ name: "writer", instructions: "You are the writer. Answer the customer.", model: "gpt-mock" });
const triage = new Agent({
  name: "triage",
  instructions: "You are triage. Ask the researcher, then hand off to the writer.",
  model: "gpt-mock",
  tools: [researcher.asTool({ toolName: "ask_researcher", toolDescription: "Ask the researcher agent" })],
  handoffs: [writer],
});

const result = await run(triage, REQUEST);
console.error(`final answer: ${result.finalOutput}`);
await agents.getGlobalTraceProvider?.().forceFlush?.();
await provider.forceFlush();
await provider.shutdown();
await model.close();
await finish(capture, out, target, "captured: @openai/agents 0.20.0 + @arizeai/openinference-instrumentation-openai-agents 0.2.15, scripted chat-completions server behind the SDK's own OpenAI client (scripts/frameworks/openai-agents)");
