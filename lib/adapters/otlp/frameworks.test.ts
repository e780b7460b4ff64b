import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { computeMetrics } from "../../metrics/index";
import { validateTrace } from "../../trace/validate";
import { data, expectValid } from "../fixtures";
import { readOtlpJson } from "../otlp-json";
import { textAttr, type OtlpSpan } from "../otlp-span";
import type { AdaptedEvent, AdaptedTrace } from "../types";
import { agentOpsExportSpans } from "./fixtures/agentops-export";
import { PYTHON_RUNS, type HandMadeRun } from "./fixtures/python";
import { LIVE_RUNS } from "./fixtures/python-live";
import { PUBLISHED_CASES } from "./fixtures/python-published";
import { otlpSpansToTrace } from "./index";

/**
 * Every framework fixture (captured ones from scripts/frameworks/, made by
 * `npm run frameworks:capture`; hand-made ones marked so in their `_about`)
 * replayed through the OTLP/JSON reader and the mapping, checked against
 * the run's ground truth: what the scenario script did.
 */

interface Truth {
  task?: string;
  fixture: string;
  lanes: string[];
  delegations: string[];
  tools: { tool: string; id: string }[];
  request: string;
  answer: string;
  group?: string;
}

/** The scenario scripts' ground truth, shared with the live harness (scripts/frameworks/live.mjs). */
export const FRAMEWORKS = JSON.parse(readFileSync("scripts/frameworks/truth.json", "utf8")) as Truth[];

export function fixtureSpans(name: string): OtlpSpan[] {
  const read = readOtlpJson(JSON.parse(readFileSync(`lib/adapters/otlp/fixtures/${name}.json`, "utf8")));
  if (!read.ok) throw new Error(read.problems.join("; "));
  return read.spans;
}

const successors = (t: AdaptedTrace, id: string) => t.edges.filter((e) => e.src === id && e.type !== "temporal").map((e) => ({ event: t.events.find((x) => x.id === e.dst)!, type: e.type }));
const isModelCall = (e: AdaptedEvent) => e.operation === "model_call";

/** The real AgentOps export of a CrewAI crew (shared/data), as the agentops SDK sent its spans; the crew's result is its own `crewai.crew.result`. */
const AGENTOPS_SPANS = agentOpsExportSpans(data("agentops_crewai_ibm/agent_ops_traces.json"));
const AGENTOPS_CASE: HandMadeRun = {
  truth: {
    fixture: "agentops crewai (real export)",
    lanes: ["Songwriter", "Website Researcher"],
    delegations: [],
    tools: [],
    request: "Research this URL for songwriting material: https://www.ibm.com/think/topics/agent-communication-protocol",
    answer: textAttr(AGENTOPS_SPANS.find((s) => s.attributes["agentops.span.kind"] === "workflow")!.attributes, "crewai.crew.result")!,
  },
  spans: AGENTOPS_SPANS,
};

/** Issue 44's runs in their current instrumentations' shapes (fixtures/python-live.ts; the logfire client-only run has no agents to check). */
const LIVE_CASES: HandMadeRun[] = LIVE_RUNS.map((r) => ({
  truth: { fixture: `${r.name} (current release shapes)`, lanes: r.lanes, delegations: [...r.spawns].sort(), tools: r.tools.map((t) => ({ tool: t.tool, id: t.id ?? "" })), request: r.request, answer: r.answer },
  spans: r.spans,
}));

const CASES = [...FRAMEWORKS.map((truth) => ({ truth, spans: fixtureSpans(truth.fixture) })), ...PYTHON_RUNS, ...PUBLISHED_CASES, ...LIVE_CASES, AGENTOPS_CASE];

/** A model-call span as each instrumentation marks it, not counting a same-name model span wrapped directly in another (smolagents' nesting). */
function modelSpans(spans: readonly OtlpSpan[]): OtlpSpan[] {
  const marked = (s: OtlpSpan) =>
    /LLM|chat|doGenerate|call_llm/.test(JSON.stringify([s.attributes["openinference.span.kind"], s.attributes["gen_ai.operation.name"], s.attributes["ai.operationId"]])) ||
    /^Chat completion with /.test(textAttr(s.attributes, "logfire.msg_template") ?? "") ||
    s.attributes["agentops.span.kind"] === "llm" ||
    (s.attributes["gen_ai.system"] === "gcp.vertex.agent" && s.name === "call_llm");
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  return spans.filter((s) => marked(s) && !(byId.get(s.parentSpanId ?? "")?.name === s.name && marked(byId.get(s.parentSpanId!)!)));
}

describe.each(CASES.map((c) => ({ ...c, name: c.truth.fixture })))("framework fixture $name", ({ truth, spans }) => {
  const trace = otlpSpansToTrace(spans);
  const byT = [...trace.events].sort((a, b) => a.t - b.t);

  it("is a valid trace with the run's agent lanes", () => {
    expect(expectValid(trace)).toEqual([]);
    expect([...new Set(trace.events.map((e) => e.agent))].sort()).toEqual(truth.lanes);
  });

  it("has each delegation parent -> child, the child's lane entered by a spawn edge", () => {
    const spawns = trace.events.filter((e) => e.type === "spawn");
    expect([...new Set(spawns.map((e) => `${e.agent}->${e.to}`))].sort()).toEqual(truth.delegations);
    for (const spawn of spawns) expect(successors(trace, spawn.id).some((s) => s.type === "spawn" && s.event.agent === spawn.to), spawn.id).toBe(true);
  });

  it("links every tool call to its result by tool-call id, and the result to the model call that read it", () => {
    const calls = trace.events.filter((e) => e.type === "tool_call");
    expect(calls.map((e) => ({ tool: e.tool, id: e.tool_call_id }))).toEqual(truth.tools);
    for (const call of calls) {
      const results = successors(trace, call.id).filter((s) => s.event.type === "tool_result");
      expect(results.map((r) => r.event.tool_call_id)).toEqual([call.tool_call_id]);
      const result = results[0]!.event;
      expect(result.status).toBe("ok");
      const readers = successors(trace, result.id);
      // read in the caller's lane, or by the agent it handed over to (a handoff passes the conversation on: OpenAI Agents)
      expect(readers.map((r) => [r.type, isModelCall(r.event)])).toEqual([["tool_dependency", true]]);
      expect([call.agent, ...truth.delegations.filter((d) => d.startsWith(`${call.agent}->`)).map((d) => d.split("->")[1])]).toContain(readers[0]!.event.agent);
    }
  });

  it("keeps the request as the first event and the final answer as the terminal aggregate, as text", () => {
    expect(byT[0]).toMatchObject({ type: "message", from: "user", content: truth.request });
    const aggregates = trace.events.filter((e) => e.type === "aggregate");
    expect(aggregates).toHaveLength(1);
    expect(aggregates[0]!.content).toBe(truth.answer);
    expect(trace.events.every((e) => typeof e.content !== "string" || !/"(role|lc|choices|generations)"/.test(e.content)), "no raw message JSON").toBe(true);
  });

  it("has no false errors (LangGraph control flow is not a failure)", () => {
    expect(trace.events.filter((e) => e.status === "error")).toEqual([]);
  });

  it("keeps model calls out of E3: messages are only the user's request and outputs addressed to another agent; every model output has an anchor", () => {
    const messages = trace.events.filter((e) => e.type === "message");
    expect(messages[0]).toMatchObject({ from: "user", to: byT[0]!.agent });
    for (const m of messages.slice(1)) expect(truth.lanes.includes(String(m.to)) && m.to !== m.from && truth.delegations.includes(`${m.from}->${m.to}`), m.id).toBe(true);
    const llmSpans = modelSpans(spans);
    const modelEvents = new Set(trace.events.filter(isModelCall).map((e) => e.span_id));
    expect(modelEvents.size).toBe(llmSpans.length);
    // a model output that answers is a step_quality anchor (return or aggregate)
    for (const e of trace.events.filter((x) => isModelCall(x) && x.type !== "spawn" && x.type !== "tool_call")) expect(["return", "aggregate", "message", "orchestrator_decision"]).toContain(e.type);
    const validated = validateTrace(trace);
    if (!validated.ok) throw new Error("invalid");
    const e3 = computeMetrics(validated.trace).e3;
    expect([e3.message_redundancy, e3.dead_message_rate]).toEqual([0, 0]);
  });

  it("returns sub-agents' answers to their delegator, feeding its next step", () => {
    for (const ret of trace.events.filter((e) => e.type === "return")) {
      expect(truth.delegations).toContain(`${ret.to}->${ret.agent}`);
      expect(successors(trace, ret.id).some((s) => s.event.agent === ret.to)).toBe(true);
    }
  });

  it("takes task_id from baton.task_id or a hash of the request (never a span name), group_id from baton.group_id", () => {
    if (truth.task !== undefined) expect(trace.task_id).toBe(truth.task);
    else expect(trace.task_id).toMatch(/^request-[0-9a-f]{12}$/);
    expect(spans.map((s) => s.name)).not.toContain(trace.task_id);
    expect(trace.group_id).toBe(truth.group);
    const pinned = spans.map((s) => ({ ...s, resource: { ...s.resource, "baton.task_id": "refund-flow" } }));
    expect(otlpSpansToTrace(pinned).task_id).toBe("refund-flow");
  });

  it("lists the spans it did not map, by name", () => {
    const unmapped = (trace.metadata as { otlp: { unmapped: { count: number; names: { name: string; count: number }[] } } }).otlp.unmapped;
    expect(unmapped.names.reduce((n, x) => n + x.count, 0)).toBe(unmapped.count);
    expect(trace.metadata).toMatchObject({ unmapped_spans: unmapped.count });
  });
});

describe("framework fixtures: shapes that must not regress", () => {
  it("LangGraph: the fixture really has ParentCommand errors, supervisor node spans are CHAIN, plumbing is listed", () => {
    const spans = fixtureSpans("langgraph");
    expect(spans.filter((s) => s.status.code === 2 && /ParentCommand/.test(s.status.message ?? "")).length).toBeGreaterThan(0);
    expect(spans.filter((s) => s.name === "supervisor").every((s) => s.attributes["openinference.span.kind"] === "CHAIN")).toBe(true);
    const trace = otlpSpansToTrace(spans);
    const names = (trace.metadata as { otlp: { unmapped: { names: { name: string }[] } } }).otlp.unmapped.names.map((n) => n.name);
    expect(names).toEqual(expect.arrayContaining(["RunnableSequence", "__start__", "prompt"]));
    expect(names).not.toContain("supervisor");
  });

  it("Mastra: the model call's chat span stays open while the tool it asked for runs; the tool still hangs off that call, its result feeds the next call", () => {
    const spans = fixtureSpans("mastra");
    const search = spans.find((s) => s.name === "execute_tool search")!;
    const asking = spans.find((s) => s.name === "chat mock-researcher" && BigInt(s.startTimeUnixNano) < BigInt(search.startTimeUnixNano))!;
    expect(BigInt(asking.endTimeUnixNano)).toBeGreaterThan(BigInt(search.startTimeUnixNano));
    const trace = otlpSpansToTrace(spans);
    const call = trace.events.find((e) => e.type === "tool_call" && e.tool === "search")!;
    expect(call.span_id).toBe(asking.spanId);
    const into = trace.edges.filter((e) => e.dst === call.id).map((e) => [trace.events.find((x) => x.id === e.src)!.type, e.type]);
    expect(into).toEqual([["spawn", "spawn"]]);
  });

  it("AI SDK v7: the group id set as runtime context is read from ai.settings.context.baton.group_id", () => {
    const spans = fixtureSpans("ai-sdk-7");
    expect(spans.some((s) => s.attributes["ai.settings.context.baton.group_id"] === "frameworks-fixtures")).toBe(true);
    expect(spans.some((s) => Object.keys(s.attributes).some((k) => k.startsWith("ai.telemetry.metadata")))).toBe(false);
  });

  it("OpenAI Agents: the 'Agent workflow' root is the run, no lane; the handoff comes from triage", () => {
    const trace = otlpSpansToTrace(fixtureSpans("openai-agents"));
    expect(trace.events.map((e) => e.agent)).not.toContain("Agent workflow");
    const handoff = trace.events.find((e) => e.type === "spawn" && e.to === "writer")!;
    expect(handoff).toMatchObject({ agent: "triage", content: "transfer_to_writer()" });
  });
});

describe("unmappedSpansOf: what the trace page lists", () => {
  it("reads metadata.otlp.unmapped of a mapped trace, and nothing from other metadata", async () => {
    const { unmappedSpansOf } = await import("./provenance");
    const trace = otlpSpansToTrace(fixtureSpans("openai-agents"));
    expect(unmappedSpansOf(trace.metadata)).toEqual({ count: 7, names: [{ name: "turn", count: 5 }, { name: "Agent workflow", count: 2 }] });
    expect(unmappedSpansOf(otlpSpansToTrace(fixtureSpans("ai-sdk-6")).metadata)).toBeNull();
    expect(unmappedSpansOf({ ground_truth: {} })).toBeNull();
    expect(unmappedSpansOf({ otlp: { unmapped: { count: "7", names: [] } } })).toBeNull();
  });
});
