// Vercel AI SDK v6 with its OpenAI provider, run unchanged against Baton's recording
// gateway: no instrumentation, only the provider's baseURL (OPENAI_BASE_URL, e.g.
// http://127.0.0.1:3000/api/llm/run/<key>/v1) and apiKey (OPENAI_API_KEY: a Baton API key
// of scope ingest, or anything in open mode).
// Scenario: an orchestrator calls two sub-agents as tools, a researcher (which looks an
// order up with a tool) and a writer, then answers. Each agent is its own generateText
// (or streamText) call; the agent's name goes in the request's `user` field (the
// provider option `user`), which the gateway reads as the agent's lane.
// Usage: node gateway.mjs <responses|chat_completions> [--stream]
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs, streamText, tool } from "ai";
import { z } from "zod";

const [api = "responses", ...flags] = process.argv.slice(2);
const stream = flags.includes("--stream");
const provider = createOpenAI({ baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY });
const model = api === "responses" ? provider.responses("gpt-mock") : provider.chat("gpt-mock");

/** One agent's run: generateText, or streamText read to the end. */
async function agent(name, options) {
  const settings = { model, stopWhen: stepCountIs(5), providerOptions: { openai: { user: name } }, ...options };
  if (!stream) return (await generateText(settings)).text;
  const result = streamText(settings);
  for await (const _ of result.textStream);
  return await result.text;
}

const lookupOrder = tool({
  description: "Looks an order up by id",
  inputSchema: z.object({ order_id: z.string() }),
  execute: async ({ order_id }) => JSON.stringify({ order_id, status: "shipped", shipped: "Monday", eta: "Thursday" }),
});
const askResearcher = tool({
  description: "Ask the researcher agent",
  inputSchema: z.object({ input: z.string() }),
  execute: ({ input }) => agent("researcher", { system: "You are the researcher. Use tools to find facts.", prompt: input, tools: { lookup_order: lookupOrder } }),
});
const askWriter = tool({
  description: "Ask the writer agent",
  inputSchema: z.object({ facts: z.string() }),
  execute: ({ facts }) => agent("writer", { system: "You are the writer. Answer the customer.", prompt: `Answer the customer from: ${facts}` }),
});

const final = await agent("orchestrator", {
  system: "You are the orchestrator. Ask the researcher, then the writer, then answer.",
  prompt: "Where is my order 42? Please answer politely.",
  tools: { ask_researcher: askResearcher, ask_writer: askWriter },
});
console.log(JSON.stringify({ final }));
