// Vercel AI SDK v7, run unchanged with `ai/test` mock models; its telemetry
// goes through `@ai-sdk/otel` (registerTelemetry), which writes OpenTelemetry
// GenAI semantic-convention spans (invoke_agent, chat, execute_tool),
// exported over OTLP/HTTP JSON. Needs Node 22 (scripts/frameworks/node22). Scenario: an
// orchestrator calls two sub-agents as tools (researcher, writer); the
// researcher calls a `search` tool; the orchestrator gives the final answer.
// Usage: node capture.mjs <fixture.json | -> [Baton OTLP traces url]  (the captured
// export requests are written as the fixture, and/or posted as they came to the url)  (without a url, a
// loopback capture server is started and the fixture written).
import { OpenTelemetry } from "@ai-sdk/otel";
import { generateText, registerTelemetry, stepCountIs, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import { finish, startCapture } from "../shared/servers.mjs";
import { startTracing } from "../shared/otel.mjs";

const [out, target] = process.argv.slice(2);
const capture = await startCapture();
const provider = startTracing(capture.url, "ai-sdk-7-research-team");
registerTelemetry(new OpenTelemetry({ runtimeContext: true }));
const REQUEST = "Write a two-sentence brief on the boiling point of water at altitude.";

const usage = { inputTokens: { total: 20, noCache: 20, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 10, text: 10, reasoning: 0 } };
/** A mock model answering from a script: one entry per call. */
function scripted(name, steps) {
  let i = 0;
  return new MockLanguageModelV4({
    modelId: `mock-${name}`,
    doGenerate: async () => {
      const step = steps[Math.min(i++, steps.length - 1)];
      const content = step.tool
        ? [{ type: "tool-call", toolCallId: step.id, toolName: step.tool, input: JSON.stringify(step.args) }]
        : [{ type: "text", text: step.text }];
      return { content, finishReason: { unified: step.tool ? "tool-calls" : "stop", raw: undefined }, usage, warnings: [] };
    },
  });
}

const search = tool({
  description: "Search reference notes",
  inputSchema: z.object({ query: z.string() }),
  execute: async ({ query }) => ({ query, hits: ["Water boils at about 93 C at 2000 m.", "Boiling point drops about 1 C per 300 m."] }),
});

const researcher = tool({
  description: "Research agent: finds facts",
  inputSchema: z.object({ question: z.string() }),
  execute: async ({ question }) => {
    const r = await generateText({
      model: scripted("researcher", [
        { tool: "search", id: "call_search_1", args: { query: "boiling point altitude" } },
        { text: "Facts: water boils near 93 C at 2000 m; about 1 C lower per 300 m." },
      ]),
      system: "You are the researcher.",
      prompt: question,
      tools: { search },
      stopWhen: stepCountIs(4),
      telemetry: { isEnabled: true, functionId: "researcher" },
    });
    return r.text;
  },
});

const writer = tool({
  description: "Writing agent: drafts text",
  inputSchema: z.object({ facts: z.string() }),
  execute: async ({ facts }) => {
    const r = await generateText({
      model: scripted("writer", [{ text: "At altitude water boils below 100 C: near 93 C at 2000 m. Cooking takes longer there." }]),
      system: "You are the writer.",
      prompt: `Draft a brief from: ${facts}`,
      telemetry: { isEnabled: true, functionId: "writer" },
    });
    return r.text;
  },
});

const result = await generateText({
  model: scripted("orchestrator", [
    { tool: "researcher", id: "call_research_1", args: { question: "How does altitude change the boiling point of water?" } },
    { tool: "writer", id: "call_write_1", args: { facts: "water boils near 93 C at 2000 m; about 1 C lower per 300 m" } },
    { text: "Brief: At altitude water boils below 100 C, near 93 C at 2000 m. Cooking takes longer there." },
  ]),
  system: "You are the orchestrator. Delegate research and writing.",
  prompt: REQUEST,
  tools: { researcher, writer },
  stopWhen: stepCountIs(5),
  // v7 has no telemetry metadata: the group id travels as runtime context, which
  // @ai-sdk/otel writes as ai.settings.context.* when told to include it
  runtimeContext: { baton: { group_id: "frameworks-fixtures" } },
  telemetry: { isEnabled: true, functionId: "orchestrator", includeRuntimeContext: { baton: true } },
});
console.error(`final answer: ${result.text}`);
await provider.forceFlush();
await provider.shutdown();
await finish(capture, out, target, "captured: ai@7.0.173 + @ai-sdk/otel 1.0.173 on Node 22 run unchanged with ai/test MockLanguageModelV4, exported by @opentelemetry/exporter-trace-otlp-http 0.223.1 (scripts/frameworks/ai-sdk-7)");
