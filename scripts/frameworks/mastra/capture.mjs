// Mastra 1.x, run unchanged with `ai/test` mock models: a supervisor agent
// with two sub-agents (Mastra's `agents` option: each becomes a tool
// `agent-<name>`), the researcher calling a `search` tool; Mastra's own
// observability with `@mastra/otel-exporter` exports OTLP/HTTP JSON.
// Mastra streams: its model span stays open while the tools it asked for
// run, which is what the mapping must not misread. Needs Node 22.13+
// (scripts/frameworks/node22).
// Usage: node capture.mjs <fixture.json | -> [Baton OTLP traces url]
import { Agent } from "@mastra/core/agent";
import { Mastra } from "@mastra/core/mastra";
import { createTool } from "@mastra/core/tools";
import { Observability } from "@mastra/observability";
import { OtelExporter } from "@mastra/otel-exporter";
import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { finish, startCapture } from "../shared/servers.mjs";

const [out, target] = process.argv.slice(2);
const capture = await startCapture();
const REQUEST = "Write a two-sentence brief on the boiling point of water at altitude.";

const usage = { inputTokens: { total: 20, noCache: 20, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 10, text: 10, reasoning: 0 } };
/** A mock model answering from a script, one entry per call, streamed as Mastra asks. */
function scripted(name, steps) {
  let i = 0;
  const next = () => steps[Math.min(i++, steps.length - 1)];
  const finishOf = (step) => ({ unified: step.tool ? "tool-calls" : "stop", raw: undefined });
  return new MockLanguageModelV3({
    modelId: `mock-${name}`,
    doGenerate: async () => {
      const step = next();
      const content = step.tool ? [{ type: "tool-call", toolCallId: step.id, toolName: step.tool, input: JSON.stringify(step.args) }] : [{ type: "text", text: step.text }];
      return { content, finishReason: finishOf(step), usage, warnings: [] };
    },
    doStream: async () => {
      const step = next();
      const chunks = step.tool
        ? [{ type: "tool-call", toolCallId: step.id, toolName: step.tool, input: JSON.stringify(step.args) }]
        : [{ type: "text-start", id: "t1" }, { type: "text-delta", id: "t1", delta: step.text }, { type: "text-end", id: "t1" }];
      return { stream: simulateReadableStream({ chunks: [{ type: "stream-start", warnings: [] }, ...chunks, { type: "finish", finishReason: finishOf(step), usage }] }) };
    },
  });
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
  instructions: "You are the researcher.",
  model: scripted("researcher", [
    { tool: "search", id: "call_search_1", args: { query: "boiling point altitude" } },
    { text: "Facts: water boils near 93 C at 2000 m; about 1 C lower per 300 m." },
  ]),
  tools: { search },
});

const writer = new Agent({
  id: "writer",
  name: "writer",
  description: "Writing agent: drafts text",
  instructions: "You are the writer.",
  model: scripted("writer", [{ text: "At altitude water boils below 100 C: near 93 C at 2000 m. Cooking takes longer there." }]),
});

const orchestrator = new Agent({
  id: "orchestrator",
  name: "orchestrator",
  instructions: "You are the orchestrator. Delegate research and writing.",
  model: scripted("orchestrator", [
    { tool: "agent-researcher", id: "call_research_1", args: { prompt: "How does altitude change the boiling point of water?" } },
    { tool: "agent-writer", id: "call_write_1", args: { prompt: "Draft a brief from: water boils near 93 C at 2000 m; about 1 C lower per 300 m" } },
    { text: "Brief: At altitude water boils below 100 C, near 93 C at 2000 m. Cooking takes longer there." },
  ]),
  agents: { researcher, writer },
});

const mastra = new Mastra({
  agents: { orchestrator, researcher, writer },
  logger: false,
  observability: new Observability({
    configs: {
      otel: {
        serviceName: "mastra-research-team",
        exporters: [new OtelExporter({ provider: { custom: { endpoint: capture.url, protocol: "http/json" } }, resourceAttributes: { "baton.group_id": "frameworks-fixtures" } })],
      },
    },
  }),
});

const result = await mastra.getAgent("orchestrator").generate(REQUEST, { maxSteps: 5 });
console.error(`final answer: ${result.text}`);
await mastra.shutdown();
await finish(capture, out, target, "captured: @mastra/core 1.71.0 + @mastra/observability 1.17.9 + @mastra/otel-exporter 1.4.0 on Node 22 run unchanged with ai/test MockLanguageModelV3, exported by @opentelemetry/exporter-trace-otlp-http 0.218.0 (scripts/frameworks/mastra)");
