// OpenAI Agents SDK run unchanged against Baton's recording gateway: no
// instrumentation, only OPENAI_BASE_URL (e.g. http://127.0.0.1:3000/api/llm/run/<key>/v1)
// and OPENAI_API_KEY (a Baton API key of scope ingest, or anything in open mode).
// Scenario (as capture.mjs): triage asks a researcher agent (called as a tool), which
// looks an order up with a tool; triage then hands off to a writer, whose answer is final.
// Usage: node gateway.mjs <responses|chat_completions> [--stream]
import * as agents from "@openai/agents";
import { z } from "zod";

const { Agent, run, tool, setOpenAIAPI, setTracingDisabled } = agents;
const [api = "responses", ...flags] = process.argv.slice(2);
setOpenAIAPI(api);
setTracingDisabled(true);

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

const stream = flags.includes("--stream");
const result = await run(triage, "Where is my order 42? Please answer politely.", { stream });
if (stream) await result.completed;
console.log(JSON.stringify({ final: result.finalOutput }));
