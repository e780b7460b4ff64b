import { describe, expect, it } from "vitest";
import type { ModelCall } from "../../trace/calls";
import { computeDiagnostics } from "../../hacking/index";
import { validateTrace } from "../../trace/validate";
import { adaptOtlpSpans } from "../otlp";
import { AdapterInputError, type AdaptedTrace } from "../types";
import { ANSWER, AUTOGEN_CREATE_AGENTS, LIVE_RUNS, LOGFIRE_CLIENT_ONLY, type Received } from "./fixtures/python-live";
import { PYTHON_RUNS } from "./fixtures/python";
import { ADK_ANSWER, ADK_CALLS, ADK_REQUEST, LF_ANSWER, LF_CALL_HANDOFF, LF_CALL_RANDOM, LF_REQUEST, PUBLISHED_RUNS } from "./fixtures/python-published";

/**
 * Issue 44's Python runs in their current instrumentations' shapes
 * (fixtures/python-live.ts), as a person sees them on the trace page: lanes,
 * spawn and return edges, tools, the request and the answer, and each model
 * call compared field by field with what the scripted model received.
 */

const lanes = (t: AdaptedTrace) => [...new Set(t.events.map((e) => e.agent))].sort();
const between = (t: AdaptedTrace, type: string) =>
  t.edges.filter((e) => e.type === type).map((e) => [t.events.find((x) => x.id === e.src)!.agent, t.events.find((x) => x.id === e.dst)!.agent]).filter(([a, b]) => a !== b).map(([a, b]) => `${a}->${b}`);
const notes = (t: AdaptedTrace): string[] => (t.metadata as { otlp: { notes?: string[] } }).otlp.notes ?? [];

/** What the model received and replied, from a stored call. */
const seen = (c: ModelCall): Received => ({
  agent: c.agent,
  messages: c.input,
  ...(c.tools !== undefined ? { tools: c.tools } : {}),
  ...(c.params !== undefined ? { params: c.params } : {}),
  reply: typeof c.output === "string" ? { role: "assistant", content: c.output } : c.output,
  ...(c.finish_reason !== undefined ? { finish_reason: c.finish_reason } : {}),
});

describe.each(LIVE_RUNS.map((run) => ({ run, name: run.name })))("$name", ({ run }) => {
  const trace = adaptOtlpSpans(run.spans);
  const calls = trace.calls ?? [];

  it("draws the agents as lanes under their own names, with the delegations and returns between them", () => {
    expect(lanes(trace)).toEqual(run.lanes);
    expect(between(trace, "spawn")).toEqual(run.spawns);
    expect([...between(trace, "return"), ...between(trace, "aggregate")]).toEqual(run.returns);
    expect(trace.events.filter((e) => e.type === "tool_result").map((e) => ({ tool: e.tool, ...(e.tool_call_id !== undefined ? { id: e.tool_call_id } : {}) }))).toEqual(run.tools);
  });

  it("starts with the request and ends with the answer", () => {
    expect(trace.events[0]).toMatchObject({ type: "message", from: "user", content: run.request });
    expect(trace.events.filter((e) => e.type === "aggregate").map((e) => e.content)).toEqual([run.answer]);
  });

  it("raises no hacking flag on a run where every spawned agent contributed (no false pseudo_parallelism)", () => {
    const valid = validateTrace(trace);
    if (!valid.ok) throw new Error(JSON.stringify(valid));
    expect(computeDiagnostics(valid.trace).flags).toEqual([]);
  });

  it("keeps each model call as the model received it (messages, tools, parameters, reply)", () => {
    // what the export does not carry (logfire's OpenAI Agents spans name the tools on the agent's span, never their definitions)
    const expected = run.received.map((r) => Object.fromEntries(Object.entries(r).filter(([key]) => !(run.missing ?? []).includes(key as keyof Received))));
    expect(calls.slice(0, run.received.length).map(seen)).toEqual(expected);
    for (const c of calls) expect(c.source).toBe("otlp");
    expect(validateTrace(trace).ok).toBe(true);
  });
});

describe("LangGraph supervisor: experts wrapped in call_agent", () => {
  const run = LIVE_RUNS.find((r) => r.name === "langgraph-supervisor")!;
  const trace = adaptOtlpSpans(run.spans);

  it("has the wrapper the issue saw: an AGENT span call_agent between each expert's node and its graph", () => {
    const wrappers = run.spans.filter((s) => s.name === "call_agent");
    expect(wrappers.map((s) => s.attributes["openinference.span.kind"])).toEqual(["AGENT", "AGENT"]);
    expect(wrappers.map((s) => run.spans.find((p) => p.spanId === s.parentSpanId)!.name)).toEqual(["weather_agent", "poet"]);
    expect(trace.events.map((e) => e.agent)).not.toContain("call_agent");
  });

  it("makes the experts' answers returns to the supervisor, not orchestrator decisions", () => {
    const answers = trace.events.filter((e) => e.agent !== "supervisor" && e.operation === "model_call" && e.type !== "tool_call");
    expect(answers.map((e) => [e.agent, e.type, e.content])).toEqual([["weather_agent", "return", "Paris is sunny at 24 °C."], ["poet", "return", run.received[4]!.reply.content]]);
    expect(trace.events.filter((e) => e.type === "orchestrator_decision")).toEqual([]);
    const supervisorCalls = (trace.calls ?? []).filter((c) => c.agent === "supervisor");
    expect(supervisorCalls).toHaveLength(3);
  });
});

describe("logfire: OpenAI Agents spans under another logfire scope", () => {
  it("maps them by their message templates as under logfire.openai_agents", () => {
    const run = LIVE_RUNS.find((r) => r.name === "logfire openai-agents chat-completions")!;
    const plain = adaptOtlpSpans(run.spans.map((s) => ({ ...s, scope: { name: "logfire" } })));
    const scoped = adaptOtlpSpans(run.spans);
    expect(lanes(plain)).toEqual(run.lanes);
    expect(plain.events.map((e) => [e.agent, e.type, e.content])).toEqual(scoped.events.map((e) => [e.agent, e.type, e.content]));
  });
});

describe("logfire: the OpenAI client's spans without the Agents SDK's", () => {
  const trace = adaptOtlpSpans(LOGFIRE_CLIENT_ONLY.spans);

  it("reads every call's request and reply, and says on the trace what the export does not hold", () => {
    const calls = trace.calls ?? [];
    expect(calls.map((c) => ({ messages: c.input, tools: c.tools, reply: c.output }))).toEqual(LOGFIRE_CLIENT_ONLY.received.map((r) => ({ messages: r.messages, tools: r.tools, reply: r.reply })));
    expect(calls.map((c) => c.params)).toEqual(calls.map(() => ({ temperature: 0.2 })));
    expect(calls.map((c) => c.finish_reason)).toEqual(["tool_calls", "tool_calls", "tool_calls", "stop"]);
    expect(trace.events[0]).toMatchObject({ from: "user", content: LOGFIRE_CLIENT_ONLY.received[0]!.messages[1]!.content });
    expect(trace.events.filter((e) => e.type === "aggregate").map((e) => e.content)).toEqual([ANSWER]);
    expect(trace.events.filter((e) => e.type === "tool_call").map((e) => e.tool)).toEqual(["get_weather"]);
    // the model's handoffs are kept as what it decided; no span says which agent ran next, so no lane is made up for them
    expect(trace.events.filter((e) => e.type === "spawn").map((e) => [e.agent, e.to, e.content])).toEqual([["unknown_service", "weather_agent", "transfer_to_weather_agent()"], ["unknown_service", "poet", "transfer_to_poet()"]]);
    expect(lanes(trace)).toEqual(["unknown_service"]);
    expect(notes(trace).join("\n")).toMatch(/Agents SDK's own tracing was off/);
  });
});

describe("AutoGen AgentChat: agents created outside the run", () => {
  it("makes no trace of create_agent spans alone, and says why", () => {
    expect(AUTOGEN_CREATE_AGENTS.every((s) => s.attributes["gen_ai.operation.name"] === "create_agent")).toBe(true);
    expect(() => adaptOtlpSpans(AUTOGEN_CREATE_AGENTS)).toThrow(AdapterInputError);
    expect(() => adaptOtlpSpans(AUTOGEN_CREATE_AGENTS)).toThrow(/only agent-creation spans \(create_agent: weather_agent, poet\)/);
  });

  it("keeps AutoGen's function results as tool messages with their call ids", () => {
    const autogen = PYTHON_RUNS.find((r) => r.truth.fixture.startsWith("autogen"))!;
    const second = adaptOtlpSpans(autogen.spans).calls!.find((c) => c.input.some((m) => m.role === "tool"))!;
    expect(second.input.slice(3)).toEqual([
      { role: "assistant", content: null, tool_calls: [{ id: "call_lyon", name: "population", arguments: '{"city": "Lyon"}' }, { id: "call_mrs", name: "population", arguments: '{"city": "Marseille"}' }] },
      { role: "tool", content: "522250", tool_call_id: "call_lyon" },
      { role: "tool", content: "873076", tool_call_id: "call_mrs" },
    ]);
  });
});

describe("smolagents: its own roles as the model was sent them", () => {
  it("sends tool-call as assistant text and tool-response as user text (tool_role_conversions), tool calls without invented text", () => {
    const smol = PYTHON_RUNS.find((r) => r.truth.fixture.startsWith("smolagents"))!;
    const calls = adaptOtlpSpans(smol.spans).calls!;
    const last = calls.at(-1)!;
    expect(last.input.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(last.input[2]!.content).toMatch(/^Calling tools:\n/);
    expect(last.input[3]!.content).toMatch(/^Call id: call_m1\nObservation:/);
    expect(last.output).toMatchObject({ role: "assistant", content: null, tool_calls: [{ id: "call_m2", name: "final_answer" }] });
    for (const c of calls) expect(c.input.every((m) => !["tool-call", "tool-response"].includes(m.role))).toBe(true);
  });
});

describe("any-agent: a prompt recorded in part", () => {
  it("says on the trace that later calls miss part of what the model was sent", () => {
    const run = LIVE_RUNS.find((r) => r.name === "google-adk via any-agent")!;
    const trace = adaptOtlpSpans(run.spans);
    expect(notes(trace).join("\n")).toMatch(/any-agent records only the system instruction and the first message/);
    expect(trace.calls!.at(-1)!.output).toEqual({ role: "assistant", content: ANSWER });
  });
});

describe("logfire: OpenAI Agents in the Responses mode", () => {
  // logfire's test_responses snapshot pops `response` and `model_settings` (they change with OpenAI's API); real exports hold them as JSON
  const random = { type: "function", name: "random_number", description: "Generate a random number.", parameters: { type: "object", properties: {}, required: [], additionalProperties: false }, strict: true };
  const handoff = { type: "function", name: "transfer_to_agent2", description: "Handoff to the agent2 agent to handle the request. ", parameters: { type: "object", properties: {}, required: [], additionalProperties: false }, strict: true };
  const spans = PUBLISHED_RUNS.logfireOpenAiAgents.map((s, i) =>
    s.name.startsWith("Responses API")
      ? { ...s, attributes: { ...s.attributes, response: JSON.stringify({ id: `resp_${i}`, object: "response", model: "gpt-4o-2024-08-06", tools: i < 6 ? [random, handoff] : [], temperature: 1, top_p: 1, tool_choice: "auto" }), model_settings: JSON.stringify({ temperature: null, top_p: null, tool_choice: null, parallel_tool_calls: null, max_tokens: 200 }) } }
      : s,
  );
  const calls = adaptOtlpSpans(spans).calls!;

  it("reads each call's input items as chat messages, its reply, the tools of the Response and the settings sent", () => {
    expect(calls.map((c) => c.agent)).toEqual(["agent1", "agent2"]);
    expect(calls[0]).toMatchObject({ input: [{ role: "user", content: LF_REQUEST }], output: { role: "assistant", content: null, tool_calls: [{ id: LF_CALL_RANDOM, name: "random_number", arguments: "{}" }, { id: LF_CALL_HANDOFF, name: "transfer_to_agent2", arguments: "{}" }] }, tools: [random, handoff], params: { max_tokens: 200 } });
    expect(calls[1]!.input).toEqual([
      { role: "system", content: "Return double the number" },
      { role: "user", content: LF_REQUEST },
      { role: "assistant", content: null, tool_calls: [{ id: LF_CALL_RANDOM, name: "random_number", arguments: "{}" }] },
      { role: "assistant", content: null, tool_calls: [{ id: LF_CALL_HANDOFF, name: "transfer_to_agent2", arguments: "{}" }] },
      { role: "tool", content: "4", tool_call_id: LF_CALL_RANDOM },
      { role: "tool", content: '{"assistant": "agent2"}', tool_call_id: LF_CALL_HANDOFF },
    ]);
    expect(calls[1]!.output).toEqual({ role: "assistant", content: LF_ANSWER });
  });
});

describe("Google ADK's own call_llm spans", () => {
  it("read the Gemini request as chat messages: the system instruction, the function calls with their ids, each function response a tool message; the tools as declared", () => {
    const calls = adaptOtlpSpans(PUBLISHED_RUNS.adkPartial).calls!;
    expect(calls).toHaveLength(2);
    expect(calls[0]!.tools).toEqual([{ function_declarations: [{ name: "get_weather" }, { name: "get_current_time" }] }]);
    expect(calls[0]!.output).toEqual({ role: "assistant", content: null, tool_calls: ADK_CALLS.map((c) => ({ id: c.id, name: c.tool, arguments: JSON.stringify(c.args) })) });
    expect(calls[1]!.input).toEqual([
      { role: "system", content: "You answer questions about the weather and the time in a city." },
      { role: "user", content: ADK_REQUEST },
      { role: "assistant", content: null, tool_calls: ADK_CALLS.map((c) => ({ id: c.id, name: c.tool, arguments: JSON.stringify(c.args) })) },
      ...ADK_CALLS.map((c) => ({ role: "tool", content: JSON.stringify(c.result), tool_call_id: c.id })),
    ]);
    expect(calls[1]!.output).toEqual({ role: "assistant", content: ADK_ANSWER });
  });
});
