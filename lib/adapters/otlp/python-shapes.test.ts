import { describe, expect, it } from "vitest";
import type { OtlpSpan } from "../otlp-span";
import type { AdaptedTrace } from "../types";
import { classifySpan } from "./classify";
import { requestText, textOf } from "./content";
import { PYTHON_RUNS } from "./fixtures/python";
import { otlpSpansToTrace } from "./index";

/**
 * The Python shapes the hand-made fixtures (fixtures/python-more.ts) carry,
 * and what the mapping must make of them beyond the shared ground truth in
 * frameworks.test.ts: each assertion names a convention the instrumentation
 * source writes, checked on the fixture first so the test cannot pass on a
 * fixture that lost the shape.
 */

const run = (fixture: string): { spans: OtlpSpan[]; trace: AdaptedTrace } => {
  const found = PYTHON_RUNS.find((r) => r.truth.fixture === fixture)!;
  return { spans: found.spans, trace: otlpSpansToTrace(found.spans) };
};
const unmappedNames = (t: AdaptedTrace) => (t.metadata as { otlp: { unmapped: { names: { name: string }[] } } }).otlp.unmapped.names.map((n) => n.name);
const kind = (s: OtlpSpan) => s.attributes["openinference.span.kind"];

describe("hand-made Python fixtures", () => {
  it("give every span its own id (fixture ids keep 8 bytes of their name)", () => {
    for (const r of PYTHON_RUNS) expect(new Set(r.spans.map((s) => s.spanId)).size, r.truth.fixture).toBe(r.spans.length);
  });
});

describe("LangGraph Python (openinference-instrumentation-langchain)", () => {
  const { spans, trace } = run("langgraph-python (hand-made)");

  it("types the react agent's model node AGENT by its name; inside an expert it is a step, not a lane", () => {
    const named = spans.filter((s) => s.name === "agent");
    expect(named.length).toBe(7);
    expect(named.every((s) => kind(s) === "AGENT")).toBe(true);
    expect(trace.events.map((e) => e.agent)).not.toContain("agent");
    expect(unmappedNames(trace)).toContain("agent");
  });

  it("keeps ParentCommand spans status OK with an exception event, and maps no error", () => {
    const hops = spans.filter((s) => s.events.some((e) => e.attributes["exception.type"] === "ParentCommand"));
    expect(hops.map((s) => s.name).sort()).toEqual(["supervisor", "supervisor", "supervisor", "supervisor", "tools", "tools"]);
    expect(hops.every((s) => s.status.code === 0)).toBe(true);
    expect(trace.events.filter((e) => e.status === "error" || e.control_flow !== undefined)).toEqual([]);
  });

  it("reads tool results and ids from message_to_dict ToolMessages and from a handoff's Command", () => {
    const search = spans.find((s) => s.name === "web_search")!;
    expect(JSON.parse(search.attributes["output.value"] as string)).toMatchObject({ type: "tool", data: { tool_call_id: "call_ws1" } });
    expect(classifySpan(search)).toMatchObject({ role: "tool", toolCallId: "call_ws1", output: "Mars has 2 moons; Jupiter has 95 confirmed moons." });
    const transfer = spans.find((s) => s.name === "transfer_to_math_expert")!;
    expect(classifySpan(transfer)).toMatchObject({ role: "tool", handoffTo: "math_expert", toolCallId: "call_t2" });
    expect(trace.events.find((e) => e.type === "tool_result" && e.tool === "web_search")?.content).toBe("Mars has 2 moons; Jupiter has 95 confirmed moons.");
  });
});

describe("AutoGen AgentChat (OpenInference + autogen-core spans in one trace)", () => {
  const { spans, trace } = run("autogen-agentchat (hand-made)");

  it("holds autogen-core's execute_tool inside each OpenInference tool span: one tool run, its call id from the inner span", () => {
    const inner = spans.filter((s) => s.name === "execute_tool population");
    expect(inner.map((s) => spans.find((p) => p.spanId === s.parentSpanId)?.name)).toEqual(["researcher.population", "researcher.population"]);
    expect(trace.events.filter((e) => e.type === "tool_result").map((e) => e.tool_call_id)).toEqual(["call_lyon", "call_mrs"]);
    expect(unmappedNames(trace).every((n) => /^autogen (publish|process) /.test(n))).toBe(true);
  });

  it("takes each speaker's graph.node.parent_id through the native invoke_agent span that wraps it", () => {
    expect(spans.filter((s) => s.name.startsWith("invoke_agent ")).every((s) => s.attributes["graph.node.parent_id"] === undefined)).toBe(true);
    const messages = trace.events.filter((e) => e.type === "message" && e.from !== "user");
    expect(messages.map((e) => `${e.from}->${e.to}`)).toEqual(["planner->researcher", "researcher->writer"]);
  });

  it("does not show the model client's raw CreateResult as text", () => {
    expect(trace.events.some((e) => typeof e.content === "string" && e.content.includes("finish_reason"))).toBe(false);
    expect(trace.events.find((e) => e.tool_call_id === "call_lyon" && e.type === "tool_call")?.content).toBe('population({"city":"Lyon"})');
  });
});

describe("smolagents (openinference-instrumentation-smolagents)", () => {
  const { spans, trace } = run("smolagents (hand-made)");

  it("names lanes by the agent, not <name>.run", () => {
    expect(spans.filter((s) => kind(s) === "AGENT").map((s) => s.name)).toEqual(["manager.run", "web_agent.run"]);
    expect([...new Set(trace.events.map((e) => e.agent))].sort()).toEqual(["manager", "web_agent"]);
  });

  it("makes final_answer the agent's answer: no tool call, its FinalAnswerTool span not listed as unmapped", () => {
    expect(spans.filter((s) => s.name === "FinalAnswerTool")).toHaveLength(2);
    expect(trace.events.filter((e) => e.tool === "final_answer")).toEqual([]);
    expect(unmappedNames(trace)).toEqual(["Step 1", "Step 2"]);
    expect(trace.events.find((e) => e.type === "return")).toMatchObject({ agent: "web_agent", to: "manager", tool_call_id: "call_m1" });
  });

  it("starts the managed agent with the model call that asked for it (no tool span between them)", () => {
    const managed = spans.find((s) => s.name === "web_agent.run")!;
    expect(spans.find((s) => s.spanId === managed.parentSpanId)?.name).toBe("Step 1");
    const spawns = trace.events.filter((e) => e.type === "spawn");
    expect(spawns).toHaveLength(1);
    expect(spawns[0]).toMatchObject({ agent: "manager", to: "web_agent", tool_call_id: "call_m1", operation: "model_call" });
  });
});

describe("content of Python shapes", () => {
  it("reads a message_to_dict message as its content, and only that exact shape", () => {
    expect(textOf(JSON.stringify({ type: "tool", data: { content: "97", tool_call_id: "c1" } }))).toBe("97");
    expect(textOf(JSON.stringify({ messages: [{ type: "human", data: { content: "hi" } }, { type: "ai", data: { content: "hello" } }] }))).toBe("hello");
    const other = JSON.stringify({ type: "tool", data: { content: "x" }, extra: 1 });
    expect(textOf(other)).toBe(other);
  });

  it("takes a bound {task} input as the request (AutoGen run_stream, smolagents run)", () => {
    expect(requestText(JSON.stringify({ task: "Plan it.", cancellation_token: null }))).toBe("Plan it.");
    expect(requestText(JSON.stringify({ task: " ", other: 1 }))).toBe(JSON.stringify({ task: " ", other: 1 }));
  });
});
