import { describe, expect, it } from "vitest";
import { edgeTypes, eventTypes, expectValid } from "./fixtures";
import { adaptOtlpSpans } from "./otlp";
import { orchestratorRun, span, spanId, TRACE } from "./otlp-fixtures";
import { AdapterInputError, type AdaptedTrace } from "./types";

const summary = (t: AdaptedTrace) => t.events.map((e) => `${e.id} ${e.t} ${e.type} ${e.agent}${e.to ? `->${e.to}` : ""}${e.tool ? ` ${e.tool}` : ""}${e.status ? ` [${e.status}]` : ""}`);
const edges = (t: AdaptedTrace) => t.edges.map((e) => `${e.src}>${e.dst} ${e.type}`).sort();

describe("adaptOtlpSpans: GenAI semantic conventions", () => {
  const trace = adaptOtlpSpans(orchestratorRun());

  it("maps agents, model calls and tools onto events in time order; model calls are never messages", () => {
    expect(expectValid(trace)).toEqual([]);
    expect(summary(trace)).toEqual([
      "e1 0.5 orchestrator_decision orchestrator",
      "e2 1 spawn orchestrator->researcher",
      "e3 1.2 tool_call researcher search",
      "e4 2 tool_result researcher search [ok]",
      "e5 3.2 return researcher->orchestrator",
      "e6 5.5 spawn orchestrator->coder",
      "e7 6 tool_call coder run_code",
      "e8 7 tool_result coder run_code [error]",
      "e9 7.5 return coder->orchestrator",
      "e10 9.2 aggregate orchestrator",
    ]);
    expect(eventTypes(trace)).toEqual({ orchestrator_decision: 1, spawn: 2, tool_call: 2, tool_result: 2, return: 2, aggregate: 1 });
  });

  it("draws spawn, return, tool_dependency (by tool-call id), causal (lane order and the span link) and temporal edges", () => {
    expect(edges(trace)).toEqual([
      "e1>e10 causal", "e1>e2 causal", "e1>e6 causal", "e2>e3 spawn", "e2>e6 temporal", "e3>e4 return", "e3>e5 causal", "e4>e10 causal", "e4>e5 tool_dependency",
      "e5>e6 return", "e6>e10 temporal", "e6>e7 spawn", "e7>e8 return", "e8>e9 tool_dependency", "e9>e10 aggregate",
    ]);
    expect(edgeTypes(trace)).toEqual({ causal: 5, spawn: 2, return: 3, tool_dependency: 2, temporal: 2, aggregate: 1 });
  });

  it("carries times, tokens, models, tool call ids, errors and the evaluation reward", () => {
    const [plan, , call, result, , , failedCall, failed, judged, answer] = trace.events;
    expect(plan).toMatchObject({ t: 0.5, t_end: 1, decision: "continue", tokens: 120, input_tokens: 100, output_tokens: 20, model: "gpt-test", content: "plan: research, then code", span_id: spanId("s2") });
    // the model call that asked for the search is the tool_call (its span's time); the tool span is the result
    expect(call).toMatchObject({ t: 1.2, t_end: 1.8, tool_call_id: "call_1", tokens: 60, content: 'search({"q":"otel"})', span_id: spanId("s4") });
    expect(result).toMatchObject({ t: 2, t_end: 3, content: "3 hits", status: "ok", tool_call_id: "call_1" });
    expect(failedCall).not.toHaveProperty("status");
    expect(failed).toMatchObject({ status: "error", error_type: "RuntimeError", status_message: "exit 1", tool_call_id: "call_2" });
    // relevance 0.75 on [0, 1] -> 2 x 0.75 - 1, on the coder's answer (a return: a step_quality anchor)
    expect(judged).toMatchObject({ type: "return", rewards: { step_quality: 0.5 }, evaluations: [{ name: "relevance", score: 0.75, reward: 0.5 }] });
    expect(answer).toMatchObject({ type: "aggregate", t: 9.2, t_end: 9.8, tokens: 60 });
    expect(trace.costs).toMatchObject({ tokens: 450 });
  });

  it("names the trace after OTLP: trace id, service, provenance; no request, so the task is the trace", () => {
    expect(trace).toMatchObject({ trace_id: TRACE, task_id: `trace-${TRACE}`, system: "research-crew", topology: "centralized", project: "default" });
    expect(trace.metadata).toMatchObject({
      source: { format: "otlp", adapter: "otlp", service: "research-crew", sdk: "opentelemetry nodejs", scopes: ["baton-tests"], spans: 10 },
      clock: "seconds",
      started_at: "2023-11-14T22:13:20.000Z",
      root_span: "invoke_agent orchestrator",
      unmapped_spans: 0,
      otlp: { families: ["genai"], unmapped: { count: 0, names: [] }, conversation_id: "conv-1" },
    });
  });
});

describe("adaptOtlpSpans: OpenInference span kinds", () => {
  const kind = (k: string, extra = {}) => ({ "openinference.span.kind": k, ...extra });
  const trace = adaptOtlpSpans([
    span({ id: "c", name: "LangGraph", start: 0, end: 6, attrs: kind("CHAIN", { "session.id": "sess-9" }), resource: {} }),
    span({ id: "sup", parent: "c", name: "supervisor", start: 0.1, end: 5.9, attrs: kind("AGENT") }),
    span({ id: "l1", parent: "sup", name: "ChatOpenAI", start: 0.2, end: 0.6, attrs: kind("LLM", { "llm.token_count.prompt": 10, "llm.token_count.completion": 5, "llm.model_name": "m" }) }),
    span({ id: "w", parent: "sup", name: "worker", start: 1, end: 5, attrs: kind("AGENT", { "agent.name": "worker-1" }) }),
    span({ id: "sw", parent: "w", name: "sub", start: 1.5, end: 3, attrs: kind("AGENT") }),
    span({ id: "t", parent: "sw", name: "calc", start: 2, end: 2.5, attrs: kind("TOOL", { "tool.name": "calculator", "input.value": "1+1", "output.value": "2" }) }),
    span({ id: "r", parent: "w", name: "retrieve", start: 3.5, end: 4, attrs: kind("RETRIEVER") }),
  ]);

  it("reads AGENT, LLM and TOOL; a CHAIN root is the run (no lane); other kinds add no event and are listed", () => {
    expect(expectValid(trace)).toEqual([]);
    expect(summary(trace)).toEqual([
      "e1 0.2 orchestrator_decision supervisor",
      "e2 1 spawn supervisor->worker-1",
      "e3 1.5 spawn worker-1->sub",
      "e4 2 tool_call sub calculator",
      "e5 2.5 tool_result sub calculator [ok]",
      "e6 3 return sub->worker-1",
      "e7 5 return worker-1->supervisor",
      "e8 5.9 aggregate supervisor",
    ]);
    expect(edges(trace)).toEqual([
      "e1>e2 causal", "e1>e8 causal", "e2>e3 spawn", "e2>e8 temporal", "e3>e4 spawn", "e3>e7 temporal", "e4>e5 return", "e5>e6 tool_dependency", "e6>e7 return", "e7>e8 aggregate",
    ]);
    expect(trace.events[0]).toMatchObject({ tokens: 15, input_tokens: 10, output_tokens: 5, model: "m" });
    expect(trace).toMatchObject({ task_id: `trace-${TRACE}`, system: "unknown_service", topology: "hierarchical" });
    expect(trace.metadata).toMatchObject({ unmapped_spans: 1, otlp: { unmapped: { count: 1, names: [{ name: "retrieve", count: 1 }] } } });
  });
});

describe("adaptOtlpSpans: one agent with parallel tools", () => {
  const assistant = { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "assistant" };
  const evaluation = (attrs: Record<string, string | number>) => ({ name: "gen_ai.evaluation.result", at: 5, attrs });
  const trace = adaptOtlpSpans([
    span({ id: "a", name: "invoke_agent assistant", start: 0, end: 5, attrs: assistant }),
    span({ id: "m1", parent: "a", name: "chat", start: 0, end: 1, attrs: { "gen_ai.operation.name": "chat", "gen_ai.output.messages": '["call_a","call_b"]' } }),
    span({ id: "ta", parent: "a", name: "execute_tool lookup", start: 1, end: 2, attrs: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.call.id": "call_a" } }),
    span({
      id: "tb", parent: "a", name: "execute_tool fetch", start: 1, end: 3, attrs: { "gen_ai.operation.name": "execute_tool", "error.type": "timeout" },
      events: [evaluation({ "gen_ai.evaluation.name": "tool_use_correctness", "gen_ai.evaluation.score.value": 0.2 })],
    }),
    span({
      id: "m2", parent: "a", name: "chat", start: 3, end: 4, attrs: { "gen_ai.operation.name": "generate_content" },
      events: [evaluation({ "gen_ai.evaluation.name": "answer", "gen_ai.evaluation.score.label": "fail", "gen_ai.evaluation.score.value": 4 })],
    }),
  ]);

  it("fans out from the LLM call and joins both results into the next one; error.type alone fails a tool", () => {
    expect(expectValid(trace)).toEqual([]);
    expect(summary(trace)).toEqual([
      "e1 0 orchestrator_decision assistant",
      "e2 1 tool_call assistant lookup",
      "e3 1 tool_call assistant fetch",
      "e4 2 tool_result assistant lookup [ok]",
      "e5 3 tool_result assistant fetch [error]",
      "e6 3 aggregate assistant",
    ]);
    expect(edges(trace)).toEqual([
      "e1>e2 causal", "e1>e3 causal", "e1>e6 causal", "e2>e3 temporal", "e2>e4 return", "e3>e4 temporal", "e3>e5 return", "e4>e5 temporal", "e4>e6 tool_dependency", "e5>e6 tool_dependency",
    ]);
    expect(trace.topology).toBe("harness");
    // the answer of the only agent is the run's aggregate; without a request the task is the trace, never a span name
    expect(trace.task_id).toBe(`trace-${TRACE}`);
  });

  it("scales evaluations: a family name is kept; a score off [-1, 1] falls back to the label", () => {
    // 2 x 0.2 - 1
    expect(trace.events[2]!.rewards!.tool_use_correctness).toBeCloseTo(-0.6, 12);
    expect(trace.events[5]).toMatchObject({ rewards: { step_quality: -1 }, evaluations: [{ name: "answer", score: 4, label: "fail", reward: -1 }] });
  });
});

describe("adaptOtlpSpans: edge cases", () => {
  it("puts root spans of several roots under one agent named after the service, and skips links backwards in time", () => {
    const trace = adaptOtlpSpans([
      span({ id: "x", parent: "gone", name: "chat", start: 1, end: 2, attrs: { "gen_ai.operation.name": "chat" }, links: ["y"] }),
      span({ id: "y", name: "chat", start: 3, end: 4, attrs: { "gen_ai.operation.name": "chat" } }),
    ]);
    expect(summary(trace)).toEqual(["e1 0 orchestrator_decision research-crew", "e2 2 aggregate research-crew"]);
    expect(edges(trace)).toEqual(["e1>e2 causal"]);
    expect(trace.metadata).toMatchObject({ links_skipped: 1 });
  });

  it("survives parent links that loop, and counts evaluations with no event to land on", () => {
    const chat = { "gen_ai.operation.name": "chat" };
    const judged = { name: "gen_ai.evaluation.result", at: 1, attrs: { "gen_ai.evaluation.name": "x", "gen_ai.evaluation.score.value": 1 } };
    const trace = adaptOtlpSpans([
      span({ id: "p", parent: "q", name: "chat", start: 0, end: 1, attrs: chat }),
      span({ id: "q", parent: "p", name: "chat", start: 2, end: 3, attrs: chat }),
      span({ id: "h", name: "GET /", start: 0, end: 4, events: [judged] }),
    ]);
    expect(expectValid(trace)).toEqual([]);
    expect(summary(trace)).toEqual(["e1 0 orchestrator_decision research-crew", "e2 2 aggregate research-crew"]);
    expect(trace.metadata).toMatchObject({ unmapped_spans: 1, evaluations_unattached: 1 });
  });

  it("refuses a trace with no GenAI or OpenInference span", () => {
    expect(() => adaptOtlpSpans([span({ id: "h", name: "GET /", start: 0, end: 1 })])).toThrow(AdapterInputError);
    expect(() => adaptOtlpSpans([span({ id: "h", name: "GET /", start: 0, end: 1 })])).toThrow(/none of its 1 span\(s\) is a GenAI or OpenInference agent, LLM or tool span/);
  });
});
