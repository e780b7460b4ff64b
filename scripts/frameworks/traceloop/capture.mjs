// OpenLLMetry (@traceloop/node-server-sdk), its decorators and its OpenAI
// instrumentation run unchanged; the OpenAI client calls a scripted
// chat-completions server on loopback; spans go out through an OTLP/HTTP
// JSON exporter. Scenario: a workflow whose orchestrator agent plans with
// the model, runs a researcher agent (which calls a `lookup_weather` tool
// the model asked for) and a writer agent, then answers.
// Usage: node capture.mjs <fixture.json | -> [Baton OTLP traces url]  (the captured
// export requests are written as the fixture, and/or posted as they came to the url)
import * as traceloop from "@traceloop/node-server-sdk";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import OpenAI from "openai";
import { finish, startCapture, startMockOpenAI, systemOf } from "../shared/servers.mjs";

const [out, target] = process.argv.slice(2);
const capture = await startCapture();
const REQUEST = "Should I take an umbrella in Paris tomorrow?";
const model = await startMockOpenAI((body) => {
  const system = systemOf(body);
  if (system.includes("You are the researcher")) {
    return body.messages.some((m) => m.role === "tool") ? { text: "Paris tomorrow: 80% chance of rain, 14 C." } : { tools: [{ id: "call_weather_1", name: "lookup_weather", args: { city: "Paris", day: "tomorrow" } }] };
  }
  if (system.includes("You are the writer")) return { text: "Yes, take an umbrella: rain is likely in Paris tomorrow (80%)." };
  return body.messages.some((m) => m.role === "assistant") ? { text: "Yes, take an umbrella: rain is likely in Paris tomorrow (80%)." } : { text: "Plan: ask the researcher for the forecast, then the writer for the answer." };
});

traceloop.initialize({
  appName: "traceloop-weather-team",
  exporter: new OTLPTraceExporter({ url: capture.url }),
  disableBatch: true,
  // no Traceloop cloud: no prompt sync, no API key
  traceloopSyncEnabled: false,
  silenceInitializationMessage: true,
  instrumentModules: { openAI: OpenAI },
});
const client = new OpenAI({ baseURL: model.baseURL, apiKey: "mock-key" });
const chat = (messages, extra = {}) => client.chat.completions.create({ model: "gpt-mock", messages, ...extra });

const weatherTool = { type: "function", function: { name: "lookup_weather", description: "Forecast for a city", parameters: { type: "object", properties: { city: { type: "string" }, day: { type: "string" } }, required: ["city", "day"] } } };

const researcher = (question) =>
  traceloop.withAgent({ name: "researcher" }, async () => {
    const messages = [{ role: "system", content: "You are the researcher." }, { role: "user", content: question }];
    const first = await chat(messages, { tools: [weatherTool] });
    const call = first.choices[0].message.tool_calls[0];
    const args = JSON.parse(call.function.arguments);
    const result = await traceloop.withTool({ name: "lookup_weather" }, async () => JSON.stringify({ ...args, rain_chance: 0.8, temp_c: 14 }));
    messages.push(first.choices[0].message, { role: "tool", tool_call_id: call.id, content: result });
    const second = await chat(messages, { tools: [weatherTool] });
    return second.choices[0].message.content;
  });

const writer = (facts) =>
  traceloop.withAgent({ name: "writer" }, async () => (await chat([{ role: "system", content: "You are the writer." }, { role: "user", content: `Answer the user from: ${facts}` }])).choices[0].message.content);

const answer = await traceloop.withWorkflow({ name: "weather_answer", associationProperties: { "baton.group_id": "frameworks-fixtures" } }, () =>
  traceloop.withAgent({ name: "orchestrator" }, async () => {
    const messages = [{ role: "system", content: "You are the orchestrator." }, { role: "user", content: REQUEST }];
    const plan = await chat(messages);
    const facts = await researcher("Forecast for Paris tomorrow?");
    const draft = await writer(facts);
    messages.push(plan.choices[0].message, { role: "user", content: `Researcher: ${facts}\nWriter: ${draft}` });
    return (await chat(messages)).choices[0].message.content;
  }),
);
console.error(`final answer: ${answer}`);
await traceloop.forceFlush();
await model.close();
await finish(capture, out, target, "captured: @traceloop/node-server-sdk 0.27.0 (OpenAI instrumentation, withWorkflow/withAgent/withTool), scripted chat-completions server behind the openai client (scripts/frameworks/traceloop)");
