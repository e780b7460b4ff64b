// Mastra 1.x run unchanged against Baton's recording gateway: no instrumentation, each
// agent's model an @ai-sdk/openai provider whose baseURL is OPENAI_BASE_URL (e.g.
// http://127.0.0.1:3000/api/llm/run/<key>/v1) and apiKey OPENAI_API_KEY (a Baton API key
// of scope ingest, or anything in open mode). The agent's name rides in the provider's
// `x-baton-agent` header, which the gateway reads as the agent's lane.
// Scenario: a supervisor with two sub-agents (Mastra's `agents` option: each becomes a
// tool `agent-<name>`), the researcher calling a `search` tool; `agent.generate`, or
// `agent.stream` read to the end. Needs Node 22.13+ (scripts/frameworks/node22).
// Usage: node gateway.mjs <responses|chat_completions> [--stream]
import { createOpenAI } from "@ai-sdk/openai";
import { Agent } from "@mastra/core/agent";
import { Mastra } from "@mastra/core/mastra";
import { createTool } from "@mastra/core/tools";
import { z } from "zod";

const [api = "responses", ...flags] = process.argv.slice(2);
const stream = flags.includes("--stream");
/** The model of one agent: the same upstream, the agent's name in a header. */
function modelOf(name) {
  const provider = createOpenAI({ baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY, headers: { "x-baton-agent": name } });
  return api === "responses" ? provider.responses("gpt-mock") : provider.chat("gpt-mock");
}

const search = createTool({
  id: "search",
  description: "Search reference notes",
  inputSchema: z.object({ query: z.string() }),
  execute: async ({ query }) => ({ query, hits: ["Water boils at about 93 C at 2000 m.", "Boiling point drops about 1 C per 300 m."] }),
});

const researcher = new Agent({
  id: "researcher",
  name: "researcher",
  description: "Research agent: finds facts",
  instructions: "You are the researcher. Use tools to find facts.",
  model: modelOf("researcher"),
  tools: { search },
});

const writer = new Agent({
  id: "writer",
  name: "writer",
  description: "Writing agent: drafts text",
  instructions: "You are the writer. Draft the brief.",
  model: modelOf("writer"),
});

const orchestrator = new Agent({
  id: "orchestrator",
  name: "orchestrator",
  instructions: "You are the orchestrator. Delegate research and writing, then answer.",
  model: modelOf("orchestrator"),
  agents: { researcher, writer },
});

const mastra = new Mastra({ agents: { orchestrator, researcher, writer }, logger: false });
const request = "Write a two-sentence brief on the boiling point of water at altitude.";
const agent = mastra.getAgent("orchestrator");
let final;
if (stream) {
  const output = await agent.stream(request, { maxSteps: 5 });
  for await (const _ of output.textStream);
  final = await output.text;
} else {
  final = (await agent.generate(request, { maxSteps: 5 })).text;
}
console.log(JSON.stringify({ final }));
