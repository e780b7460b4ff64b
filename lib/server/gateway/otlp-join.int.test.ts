/**
 * One call, two witnesses: a program that exports OTLP spans (the
 * OpenTelemetry JS SDK) and sends its model call through the gateway
 * (the route handler, a scripted upstream on 127.0.0.1) is stored once:
 * in the OTLP trace, where its span put it, with what the gateway saw.
 */
import { context, trace, type Attributes } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as llmRoute } from "@/app/api/llm/[...path]/route";
import { POST as gatewayFlushRoute } from "@/app/api/llm/flush/route";
import { POST as otelFlushRoute } from "@/app/api/otel/v1/flush/route";
import { POST as tracesRoute } from "@/app/api/otel/v1/traces/route";
import { PUT as putUpstreamRoute } from "@/app/api/projects/[project]/gateway/route";
import { GET as exportTrace } from "@/app/api/traces/[id]/export/route";
import type { ModelCall } from "@/lib/trace/calls";
import { pool, prisma } from "@/lib/server/db/client";
import { authRequest } from "@/scripts/lib/test-auth";
import { getRequest, params } from "@/scripts/lib/test-http";
import { startRouteServer, type RouteServer } from "@/scripts/lib/test-route-server";
import { startScriptedOpenAi, type ScriptedOpenAi } from "@/scripts/lib/scripted-openai";
import { stopSweeper, sweepSettled } from "../otel/sweeper";
import { recorderSettled } from "./recorder";
import { stopGatewaySweeper } from "./sweeper";

const TOOLS = [{ type: "function", function: { name: "add", description: "Adds", parameters: { type: "object", properties: { a: { type: "number" } } } } }];
const QUESTION = "What is 2 + 2? Use the tool.";
const chatSpan = (): Attributes => ({
  "gen_ai.operation.name": "chat",
  "gen_ai.request.model": "m",
  "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: QUESTION }] }]),
  "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "4" }] }]),
});

let server: RouteServer;
let upstream: ScriptedOpenAi;

beforeAll(async () => {
  server = await startRouteServer({ "/api/otel/v1/traces": tracesRoute });
  upstream = await startScriptedOpenAi(() => ({ text: "4" }));
  const put = await putUpstreamRoute(authRequest("PUT", "/api/projects/default/gateway", {}, { base_url: upstream.url }), { params: Promise.resolve({ project: "default" }) });
  expect(put.status).toBe(200);
});

const made: string[] = [];

afterAll(async () => {
  await prisma().trace.deleteMany({ where: { traceId: { in: made } } });
  await prisma().otelTrace.deleteMany({ where: { traceId: { in: made } } });
  stopSweeper();
  stopGatewaySweeper();
  await sweepSettled();
  await pool().query("DELETE FROM gateway_upstreams");
  await server.close();
  await upstream.close();
});

beforeEach(async () => {
  await recorderSettled();
  await pool().query("DELETE FROM gateway_runs");
  await prisma().trace.deleteMany({ where: { traceId: { startsWith: "gw-join-" } } });
});

/** An agent whose one chat span makes the model call through the gateway, with the span's traceparent or without. */
async function run(runKey: string, withTraceparent: boolean): Promise<string> {
  const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ "service.name": "joined-app" }), spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${server.url}/api/otel/v1/traces` }))] });
  const tracer = provider.getTracer("join-test");
  const root = tracer.startSpan("invoke_agent solver", { attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "solver" } });
  const llm = tracer.startSpan("chat m", { attributes: chatSpan() }, trace.setSpan(context.active(), root));
  const headers: Record<string, string> = { "content-type": "application/json", "x-baton-run": runKey };
  if (withTraceparent) new W3CTraceContextPropagator().inject(trace.setSpan(context.active(), llm), headers, { set: (carrier, key, value) => ((carrier as Record<string, string>)[key] = value) });
  const body = JSON.stringify({ model: "m", messages: [{ role: "user", content: QUESTION }], tools: TOOLS, temperature: 0.2 });
  const response = await llmRoute(new Request("http://localhost/api/llm/v1/chat/completions", { method: "POST", headers, body }), { params: Promise.resolve({ path: ["v1", "chat", "completions"] }) });
  expect(response.status).toBe(200);
  await response.text();
  llm.end();
  root.end();
  await provider.forceFlush();
  await provider.shutdown();
  await recorderSettled();
  made.push(root.spanContext().traceId);
  return root.spanContext().traceId;
}

const flushOtel = async (traceId: string) => {
  const r = await otelFlushRoute(authRequest("POST", "/api/otel/v1/flush", {}, { trace_id: traceId }), params({}));
  return ((await r.json()) as { traces: { status: string }[] }).traces[0]!.status;
};
const flushGateway = async (runKey: string) => {
  const r = await gatewayFlushRoute(authRequest("POST", "/api/llm/flush", {}, { run_key: runKey }), params({}));
  return ((await r.json()) as { runs: { status: string; calls: number | null }[] }).runs[0]!;
};
const callsOf = async (traceId: string) => {
  const r = await exportTrace(getRequest(`/api/traces/${traceId}/export?format=extended`), params({ id: traceId }));
  return r.status === 404 ? null : ((await r.json()) as { calls?: ModelCall[] }).calls ?? [];
};

describe("a call reported by OTLP spans and recorded by the gateway", () => {
  it("joined by traceparent: stored once, in the OTLP trace, with the tools and parameters the gateway saw; the run has no trace of its own", async () => {
    const traceId = await run("gw-join-tp", true);
    const { rows } = await pool().query<{ otel_trace_id: string }>("SELECT otel_trace_id FROM gateway_calls WHERE run_key = 'gw-join-tp'");
    expect(rows.map((r) => r.otel_trace_id)).toEqual([traceId]);
    expect(await flushOtel(traceId)).toBe("stored");
    const [call] = (await callsOf(traceId))!;
    expect(call).toMatchObject({ source: "gateway", tools: TOOLS, params: { temperature: 0.2 }, input: [{ role: "user", content: QUESTION }], output: { role: "assistant", content: "4" }, agent: "solver" });
    expect(call!.events.length).toBeGreaterThan(0);
    expect(await flushGateway("gw-join-tp")).toMatchObject({ status: "stored", calls: 0 });
    expect(await callsOf("gw-gw-join-tp")).toBeNull();
  });

  it("joined by content and time when no traceparent came, whichever is stored first: a run stored before the join loses its trace", async () => {
    const traceId = await run("gw-join-ct", false);
    // the gateway's run is stored first, as its own trace
    expect(await flushGateway("gw-join-ct")).toMatchObject({ status: "stored", calls: 1 });
    expect(await callsOf("gw-gw-join-ct")).toHaveLength(1);
    expect(await flushOtel(traceId)).toBe("stored");
    expect((await callsOf(traceId))![0]).toMatchObject({ source: "gateway", tools: TOOLS });
    // the join put the run back to be stored again: it holds no call now, and its trace is gone
    expect(await flushGateway("gw-join-ct")).toMatchObject({ status: "stored", calls: 0 });
    expect(await callsOf("gw-gw-join-ct")).toBeNull();
  });
});
