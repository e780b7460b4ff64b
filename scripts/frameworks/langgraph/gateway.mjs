// LangGraph.js supervisor run unchanged against Baton's recording gateway: no
// instrumentation, ChatOpenAI pointed at OPENAI_BASE_URL (e.g.
// http://127.0.0.1:3000/api/llm/run/<key>/v1) with OPENAI_API_KEY (a Baton ingest key,
// or anything in open mode). Scenario (as capture.mjs): the supervisor transfers to the
// researcher (who calls `lookup_population`), then to the writer, then answers.
// Usage: node gateway.mjs [--stream]
import { tool } from "@langchain/core/tools";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { createSupervisor } from "@langchain/langgraph-supervisor";
import { ChatOpenAI } from "@langchain/openai";
import { z } from "zod";

const streaming = process.argv.includes("--stream");
const llm = new ChatOpenAI({ model: "gpt-mock", apiKey: process.env.OPENAI_API_KEY, configuration: { baseURL: process.env.OPENAI_BASE_URL }, temperature: 0, streaming });
const lookupPopulation = tool(async ({ city }) => JSON.stringify({ city, population: 520000, year: 2022 }), {
  name: "lookup_population",
  description: "Looks up a city's population",
  schema: z.object({ city: z.string() }),
});
const researcher = createReactAgent({ llm, tools: [lookupPopulation], name: "researcher", prompt: "You are the researcher. Find facts with tools." });
const writer = createReactAgent({ llm, tools: [], name: "writer", prompt: "You are the writer. Write the answer." });
const app = createSupervisor({ agents: [researcher, writer], llm, prompt: "You are the supervisor. Use the researcher, then the writer, then answer." }).compile();

const result = await app.invoke({ messages: [{ role: "user", content: "What is the population of Lyon? Answer in one sentence." }] });
console.log(JSON.stringify({ final: result.messages.at(-1).content }));
