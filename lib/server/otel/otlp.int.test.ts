/**
 * The OTLP receiver with a real client: the official OpenTelemetry JS SDK
 * and its OTLP/HTTP exporters (JSON and protobuf, plain and gzip) send a
 * multi-agent run to the route handlers behind a real HTTP server; the
 * trace is flushed and read back through the API.
 */
import { context, trace, SpanStatusCode, type Attributes, type Link, type Span, type Tracer } from "@opentelemetry/api";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { CompressionAlgorithm } from "@opentelemetry/otlp-exporter-base";
import { defaultResource, resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor, SimpleSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as getTrace } from "@/app/api/traces/[id]/route";
import { POST as flushRoute } from "@/app/api/otel/v1/flush/route";
import { POST as tracesRoute } from "@/app/api/otel/v1/traces/route";
import { prisma } from "@/lib/server/db/client";
import { getRequest, params } from "@/scripts/lib/test-http";
import { startRouteServer, type RouteServer } from "@/scripts/lib/test-route-server";
import { listReceivingTraces, receivingState } from "./receiving";
import { stopSweeper, sweepSettled } from "./sweeper";

const chat = (input: number, output: number, extra: Attributes = {}): Attributes => ({
  "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-test", "gen_ai.usage.input_tokens": input, "gen_ai.usage.output_tokens": output, ...extra,
});
const agent = (name: string, extra: Attributes = {}): Attributes => ({ "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": name, ...extra });
const tool = (name: string, callId: string): Attributes => ({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name, "gen_ai.tool.call.id": callId });

/**
 * An orchestrator plans, runs a researcher (chat, a search tool, chat) and a
 * coder (a run_code tool that fails, a chat with an evaluation), and answers
 * (a chat linked to the search). Times are seconds after t0. Returns the trace id.
 */
function emitMultiAgentRun(tracer: Tracer, t0: number): string {
  const at = (s: number) => t0 + s * 1000;
  const start = (name: string, attributes: Attributes, s: number, parent?: Span, links: Link[] = []) =>
    tracer.startSpan(name, { startTime: at(s), attributes, links }, parent ? trace.setSpan(context.active(), parent) : context.active());
  const root = start("invoke_agent orchestrator", agent("orchestrator", { "gen_ai.conversation.id": "conv-1" }), 0);
  start("chat gpt-test", chat(100, 20), 0.5, root).end(at(1));
  const researcher = start("invoke_agent researcher", agent("researcher"), 1, root);
  start("chat gpt-test", chat(50, 10, { "gen_ai.output.messages": '[{"role":"assistant","parts":[{"type":"tool_call","id":"call_1"}]}]' }), 1.2, researcher).end(at(1.8));
  const search = start("execute_tool search", tool("search", "call_1"), 2, researcher);
  search.end(at(3));
  start("chat gpt-test", chat(80, 30), 3.2, researcher).end(at(4));
  researcher.end(at(5));
  const coder = start("invoke_agent coder", agent("coder"), 5.5, root);
  const runCode = start("execute_tool run_code", { ...tool("run_code", "call_2"), "error.type": "RuntimeError" }, 6, coder);
  runCode.setStatus({ code: SpanStatusCode.ERROR, message: "exit 1" });
  runCode.end(at(7));
  const judged = start("chat gpt-test", chat(60, 40), 7.5, coder);
  judged.addEvent("gen_ai.evaluation.result", { "gen_ai.evaluation.name": "relevance", "gen_ai.evaluation.score.value": 0.75 }, at(8.4));
  judged.end(at(8.5));
  coder.end(at(9));
  start("chat gpt-test", chat(40, 20), 9.2, root, [{ context: search.spanContext() }]).end(at(9.8));
  root.end(at(10));
  return root.spanContext().traceId;
}

interface Client {
  name: string;
  contentType: string;
  contentEncoding: string | null;
  exporter: (url: string) => SpanExporter;
  batch: boolean;
}

const gzip = { compression: CompressionAlgorithm.GZIP };
const CLIENTS: Client[] = [
  { name: "OTLP/JSON", contentType: "application/json", contentEncoding: null, exporter: (url) => new JsonExporter({ url }), batch: false },
  { name: "OTLP/protobuf", contentType: "application/x-protobuf", contentEncoding: null, exporter: (url) => new ProtobufExporter({ url }), batch: true },
  { name: "OTLP/protobuf, gzip", contentType: "application/x-protobuf", contentEncoding: "gzip", exporter: (url) => new ProtobufExporter({ url, ...gzip }), batch: false },
  { name: "OTLP/JSON, gzip", contentType: "application/json", contentEncoding: "gzip", exporter: (url) => new JsonExporter({ url, ...gzip }), batch: true },
];

let server: RouteServer;

beforeAll(async () => {
  server = await startRouteServer({ "/api/otel/v1/traces": tracesRoute, "/api/otel/v1/flush": flushRoute });
});

afterAll(async () => {
  await server.close();
  stopSweeper();
  await sweepSettled();
});

beforeEach(async () => {
  await sweepSettled();
  const otel = await prisma().otelTrace.findMany({ select: { traceId: true } });
  await prisma().trace.deleteMany({ where: { traceId: { in: otel.map((o) => o.traceId) } } });
  await prisma().otelTrace.deleteMany();
  server.log.length = 0;
});

const countBy = (items: { type: string }[]) => items.reduce<Record<string, number>>((acc, i) => ({ ...acc, [i.type]: (acc[i.type] ?? 0) + 1 }), {});

describe.each(CLIENTS)("the OpenTelemetry SDK exporting with $name", (client) => {
  it("stages the run while it is received, then stores it as orchestration events and edges on flush", async () => {
    const exporter = client.exporter(`${server.url}/api/otel/v1/traces`);
    const provider = new BasicTracerProvider({
      resource: defaultResource().merge(resourceFromAttributes({ "service.name": "research-crew", "service.version": "1.4.0" })),
      spanProcessors: [client.batch ? new BatchSpanProcessor(exporter) : new SimpleSpanProcessor(exporter)],
    });
    const traceId = emitMultiAgentRun(provider.getTracer("baton-otlp-test"), Date.now() - 60_000);
    await provider.forceFlush();
    await provider.shutdown();

    // every export reached the route in the client's encoding, and was accepted
    expect(server.log.length).toBeGreaterThanOrEqual(client.batch ? 1 : 10);
    expect(server.log.every((r) => r.path === "/api/otel/v1/traces" && r.status === 200 && r.contentType === client.contentType && r.contentEncoding === client.contentEncoding)).toBe(true);

    // receiving: staged, listed as receiving, not (yet) a trace
    expect(await receivingState(traceId)).toMatchObject({ status: "receiving", spans: 10, service: "research-crew", root_name: "invoke_agent orchestrator" });
    expect((await listReceivingTraces()).map((r) => r.trace_id)).toContain(traceId);
    expect((await getTrace(getRequest(`/api/traces/${traceId}`), params({ id: traceId }))).status).toBe(404);

    const flushed = await fetch(`${server.url}/api/otel/v1/flush`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ trace_id: traceId }) });
    expect(flushed.status).toBe(200);
    expect(await flushed.json()).toEqual({ traces: [{ trace_id: traceId, status: "stored", events: 11, edges: 16, error: null }] });
    expect(await receivingState(traceId)).toBeNull();

    const response = await getTrace(getRequest(`/api/traces/${traceId}`), params({ id: traceId }));
    const stored = (await response.json()) as { task_id: string; system: string; topology: string; metadata: { source: Record<string, unknown> }; events: Record<string, unknown>[] & { type: string }[]; edges: { type: string }[]; costs: { tokens: number } };
    expect(countBy(stored.events)).toEqual({ orchestrator_decision: 2, spawn: 2, tool_call: 2, tool_result: 2, return: 2, aggregate: 1 });
    expect(countBy(stored.edges)).toEqual({ causal: 6, spawn: 2, return: 3, tool_dependency: 2, temporal: 2, aggregate: 1 });
    const results = stored.events.filter((e) => e.type === "tool_result");
    expect(results.map((e) => [e.tool, e.status])).toEqual([["search", "ok"], ["run_code", "error"]]);
    expect(results[1]).toMatchObject({ error_type: "RuntimeError", status_message: "exit 1", tool_call_id: "call_2" });
    // model calls are not messages: each is the event it became
    const modelCalls = stored.events.filter((e) => e.operation === "model_call");
    expect(modelCalls.map((e) => [e.type, e.tokens])).toEqual([["orchestrator_decision", 120], ["orchestrator_decision", 60], ["return", 110], ["return", 100], ["aggregate", 60]]);
    expect(modelCalls.map((e) => [e.t, e.t_end])).toEqual([[0.5, 1], [1.2, 1.8], [3.2, 4], [7.5, 8.5], [9.2, 9.8]]);
    expect(modelCalls[3]).toMatchObject({ agent: "coder", rewards: { step_quality: 0.5 } });
    expect(stored.events.filter((e) => e.type === "spawn").map((e) => `${e.agent as string}->${e.to as string}`)).toEqual(["orchestrator->researcher", "orchestrator->coder"]);
    expect(stored.costs.tokens).toBe(450);
    expect(stored).toMatchObject({ task_id: `trace-${traceId}`, system: "research-crew", topology: "centralized" });
    expect(stored.metadata.source).toMatchObject({ format: "otlp", service: "research-crew", service_version: "1.4.0", sdk: "opentelemetry nodejs 2.12.1", scopes: ["baton-otlp-test"], spans: 10 });
  });
});
