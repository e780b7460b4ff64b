// LangGraph.js supervisor (@langchain/langgraph-supervisor) with two ReAct
// experts, run unchanged behind ChatOpenAI pointed at a scripted
// chat-completions server on loopback, traced by OpenInference's LangChain
// instrumentation and exported over OTLP/HTTP JSON. Scenario: the supervisor
// transfers to the researcher (who calls `lookup_population`), then to the
// writer, then answers.
// Usage: node capture.mjs <fixture.json | -> [Baton OTLP traces url]  (the captured
// export requests are written as the fixture, and/or posted as they came to the url)
import { LangChainInstrumentation } from "@arizeai/openinference-instrumentation-langchain";
import * as CallbackManagerModule from "@langchain/core/callbacks/manager";
import { tool } from "@langchain/core/tools";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { createSupervisor } from "@langchain/langgraph-supervisor";
import { ChatOpenAI } from "@langchain/openai";
import { z } from "zod";
import { finish, startCapture, startMockOpenAI, systemOf } from "../shared/servers.mjs";
import { startTracing } from "../shared/otel.mjs";

const [out, target] = process.argv.slice(2);
const capture = await startCapture();
const provider = startTracing(capture.url, "langgraph-supervisor-team");
new LangChainInstrumentation({ tracerProvider: provider }).manuallyInstrument(CallbackManagerModule);

const REQUEST = "What is the population of Lyon? Answer in one sentence.";
const model = await startMockOpenAI((body) => {
  const system = systemOf(body);
  if (system.includes("You are the researcher")) {
    const looked = body.messages.some((m) => m.role === "tool" && m.tool_call_id === "call_lookup_1");
    return looked ? { text: "Lyon has about 520,000 inhabitants (city proper)." } : { tools: [{ id: "call_lookup_1", name: "lookup_population", args: { city: "Lyon" } }] };
  }
  if (system.includes("You are the writer")) return { text: "Lyon is home to about 520,000 people." };
  // supervisor: researcher, then writer, then the final answer
  const transferred = body.messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id);
  if (!transferred.includes("call_transfer_1")) return { tools: [{ id: "call_transfer_1", name: "transfer_to_researcher", args: {} }] };
  if (!transferred.includes("call_transfer_2")) return { tools: [{ id: "call_transfer_2", name: "transfer_to_writer", args: {} }] };
  return { text: "Lyon is home to about 520,000 people." };
});

const llm = new ChatOpenAI({ model: "gpt-mock", apiKey: "mock-key", configuration: { baseURL: model.baseURL }, temperature: 0 });
const lookupPopulation = tool(async ({ city }) => JSON.stringify({ city, population: 520000, year: 2022 }), {
  name: "lookup_population",
  description: "Looks up a city's population",
  schema: z.object({ city: z.string() }),
});
const researcher = createReactAgent({ llm, tools: [lookupPopulation], name: "researcher", prompt: "You are the researcher. Find facts with tools." });
const writer = createReactAgent({ llm, tools: [], name: "writer", prompt: "You are the writer. Write the answer." });
const app = createSupervisor({ agents: [researcher, writer], llm, prompt: "You are the supervisor. Use the researcher, then the writer, then answer." }).compile();

const result = await app.invoke({ messages: [{ role: "user", content: REQUEST }] });
console.error(`final answer: ${result.messages.at(-1).content}`);
await provider.forceFlush();
await provider.shutdown();
await model.close();
await finish(capture, out, target, "captured: @langchain/langgraph 1.7.3 + @langchain/langgraph-supervisor 1.1.3 + @arizeai/openinference-instrumentation-langchain 4.1.1, scripted chat-completions server behind ChatOpenAI (scripts/frameworks/langgraph)");
