import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { span, spanId, toOtlpJson } from "../otlp-fixtures";
import { readOtlpJson } from "../otlp-json";
import { decodeTraceRequest, encodeTraceRequest } from "../otlp-protobuf";
import { textAttr, type OtlpSpan } from "../otlp-span";
import type { AdaptedEvent, AdaptedTrace } from "../types";
import { data, expectValid } from "../fixtures";
import { classifySpan } from "./classify";
import { messageRepr, reactAnswer, textOf } from "./content";
import { agentOpsExportSpans } from "./fixtures/agentops-export";
import { PYTHON_RUNS } from "./fixtures/python";
import {
  ADK_ANSWER,
  ADK_CALLS,
  ADK_REQUEST,
  LF_ANSWER,
  LF_CALL_HANDOFF,
  LF_CALL_RANDOM,
  LF_REQUEST,
  LG_REPR_RESULT,
  LI_ANSWER,
  LI_FOUND,
  PUBLISHED_RUNS,
  SQ_ANSWER,
  SQ_TASK,
} from "./fixtures/python-published";
import { otlpSpansToTrace } from "./index";
import { otlpNotesOf } from "./provenance";

/**
 * The Python shapes of issue-sized gaps, one block per shape, on fixtures
 * reproduced from each instrumentation's published format
 * (fixtures/python-published.ts) and on the real AgentOps export in
 * shared/data. Each block first checks that the fixture has the shape, so
 * the test cannot pass on a fixture that lost it.
 */

const notes = (t: AdaptedTrace): string[] => (t.metadata as { otlp: { notes?: string[] } }).otlp.notes ?? [];
const lanes = (t: AdaptedTrace) => [...new Set(t.events.map((e) => e.agent))].sort();
const ofType = (t: AdaptedTrace, type: string) => t.events.filter((e) => e.type === type);
const into = (t: AdaptedTrace, e: AdaptedEvent) => t.edges.filter((x) => x.dst === e.id && x.type !== "temporal").map((x) => [t.events.find((y) => y.id === x.src)!.type, x.type]);
const attr = (s: OtlpSpan, key: string): string => textAttr(s.attributes, key) ?? "";
const parentMissing = (spans: readonly OtlpSpan[]) => spans.filter((s) => s.parentSpanId !== undefined && !spans.some((p) => p.spanId === s.parentSpanId));

describe("1. partial exports: spans whose parent is not in the export", () => {
  const spans = PUBLISHED_RUNS.adkPartial;
  const trace = otlpSpansToTrace(spans);

  it("the ADK fixture lost invocation and agent_run: both call_llm spans have a missing parent", () => {
    expect(parentMissing(spans).map((s) => s.name)).toEqual(["call_llm", "call_llm"]);
    expect(spans.some((s) => s.name === "invocation" || s.name.startsWith("agent_run"))).toBe(false);
  });

  it("keeps every span: both model calls, the three tool calls with their results; the merged-response span is not a fourth tool", () => {
    expect(ofType(trace, "tool_call").map((e) => [e.tool, e.tool_call_id, e.content])).toEqual([
      ["get_weather", ADK_CALLS[0]!.id, 'get_weather({"city":"Paris"})'],
      ["get_weather", ADK_CALLS[1]!.id, 'get_weather({"city":"Lyon"})'],
      ["get_current_time", ADK_CALLS[2]!.id, 'get_current_time({"city":"Paris"})'],
    ]);
    expect(ofType(trace, "tool_result").map((e) => e.tool_call_id)).toEqual(ADK_CALLS.map((c) => c.id));
    expect(trace.events.filter((e) => e.operation === "model_call" && e.tokens !== undefined).map((e) => e.tokens)).toEqual([221, 285]);
    expect(trace.metadata).toMatchObject({ unmapped_spans: 0 });
    expect(trace.events[0]).toMatchObject({ type: "message", from: "user", content: ADK_REQUEST });
    expect(ofType(trace, "aggregate").map((e) => e.content)).toEqual([ADK_ANSWER]);
  });

  it("says on the trace that the spans were attached without their parent", () => {
    expect(otlpNotesOf(trace.metadata)).toEqual(notes(trace));
    expect(otlpNotesOf({ otlp: { notes: [1] } })).toEqual([]);
    expect(notes(trace)).toEqual([`2 span(s) whose parent is not in the export (${spans[0]!.parentSpanId}) were kept where their time places them: call_llm at the top of the run`]);
  });

  it("places an orphan inside the innermost span whose time holds it: a tool whose parent chain was dropped runs in its agent's lane", () => {
    const genai = (op: string, extra = {}) => ({ "gen_ai.operation.name": op, ...extra });
    const t = otlpSpansToTrace([
      span({ id: "run", name: "invoke_agent planner", start: 0, end: 10, attrs: genai("invoke_agent", { "gen_ai.agent.name": "planner" }) }),
      span({ id: "c1", parent: "run", name: "chat gpt-4o", start: 1, end: 2, attrs: genai("chat", { "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: "k1", name: "lookup", arguments: { q: "x" } }] }]) }) }),
      span({ id: "res", parent: "run", name: "invoke_agent researcher", start: 2.5, end: 8, attrs: genai("invoke_agent", { "gen_ai.agent.name": "researcher" }) }),
      span({ id: "t1", parent: "dropped", name: "execute_tool lookup", start: 3, end: 4, attrs: genai("execute_tool", { "gen_ai.tool.name": "lookup", "gen_ai.tool.call.id": "k2", "gen_ai.tool.call.result": "found" }) }),
      span({ id: "c2", parent: "run", name: "chat gpt-4o", start: 9, end: 9.5, attrs: genai("chat", { "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "done" }] }]) }) }),
    ]);
    expect(ofType(t, "tool_result").map((e) => [e.agent, e.tool_call_id, e.content])).toEqual([["researcher", "k2", "found"]]);
    expect(notes(t)).toEqual([
      `1 span(s) whose parent is not in the export (${spanId("dropped")}) were kept where their time places them: execute_tool lookup inside "invoke_agent researcher"`,
      "no span holds the run's request (a user message or an agent's input): the trace starts with the first agent's step",
    ]);
  });
});

describe("2. nested wrappers of one model call (smolagents before the duplicate-span fix)", () => {
  const spans = PUBLISHED_RUNS.smolagentsNested;
  const trace = otlpSpansToTrace(spans);
  const llms = spans.filter((s) => s.attributes["openinference.span.kind"] === "LLM");

  it("the fixture records each model call as three nested same-name LLM spans", () => {
    expect(llms).toHaveLength(6);
    const inner = llms.filter((s) => llms.some((p) => p.spanId === s.parentSpanId));
    expect(inner).toHaveLength(4);
    expect(new Set(llms.map((s) => s.name))).toEqual(new Set(["OpenAIServerModel.generate"]));
  });

  it("makes one step of each call: two model calls, tokens counted once (2 x 1234 = the agent's 2468), no tool call without a result", () => {
    const calls = trace.events.filter((e) => e.operation === "model_call" && e.tokens !== undefined);
    expect(calls.map((e) => e.tokens)).toEqual([1234, 1234]);
    expect(calls.reduce((n, e) => n + Number(e.tokens), 0)).toBe(spans.find((s) => s.name === "ToolCallingAgent.run")!.attributes["llm.token_count.total"]);
    const toolCalls = ofType(trace, "tool_call");
    expect(toolCalls.map((e) => e.tool_call_id)).toEqual(["call_s1"]);
    expect(ofType(trace, "tool_result").map((e) => e.tool_call_id)).toEqual(["call_s1"]);
  });

  it("keeps the two inner wrappers out of the unmapped list (they are the same call)", () => {
    expect((trace.metadata as { otlp: { unmapped: { names: { name: string }[] } } }).otlp.unmapped.names.map((n) => n.name)).toEqual(["Step 1", "Step 2"]);
  });
});

describe("3. arguments and answers only in output.value", () => {
  const spans = PUBLISHED_RUNS.smolagentsNested;
  const trace = otlpSpansToTrace(spans);

  it("the fixture's flattened tool calls carry no arguments; output.value holds them as a dict", () => {
    expect(spans.some((s) => Object.keys(s.attributes).some((k) => k.endsWith("tool_call.function.arguments")))).toBe(false);
    const first = JSON.parse(attr(spans.find((s) => s.name === "OpenAIServerModel.generate")!, "output.value")) as { tool_calls: { function: { arguments: unknown } }[] };
    expect(first.tool_calls[0]!.function.arguments).toEqual({ query: "Pont des Arts length" });
  });

  it("shows the call with its arguments and the final_answer argument as the run's answer", () => {
    expect(ofType(trace, "tool_call")[0]!.content).toBe('web_search({"query":"Pont des Arts length"})');
    expect(trace.events[0]).toMatchObject({ type: "message", from: "user", content: SQ_TASK });
    expect(ofType(trace, "aggregate").map((e) => e.content)).toEqual([SQ_ANSWER]);
    expect(trace.events.some((e) => e.tool === "final_answer")).toBe(false);
  });
});

describe("4. agent names beyond gen_ai.agent.name", () => {
  it("logfire: lanes are the `Agent run` spans' names, never the trace's template or the service", () => {
    const spans = PUBLISHED_RUNS.logfireOpenAiAgents;
    expect(spans[0]!.resource["service.name"]).toBe("unknown_service");
    expect(spans.some((s) => s.attributes["gen_ai.agent.name"] !== undefined || s.attributes["openinference.span.kind"] !== undefined)).toBe(false);
    expect(lanes(otlpSpansToTrace(spans))).toEqual(["agent1", "agent2"]);
  });

  it("LlamaIndex: no span is an agent; the lanes are the workflow steps' current_agent_name", () => {
    const spans = PUBLISHED_RUNS.llamaIndexWorkflow;
    expect(spans.some((s) => s.attributes["openinference.span.kind"] === "AGENT")).toBe(false);
    const trace = otlpSpansToTrace(spans);
    expect(lanes(trace)).toEqual(["research_agent", "write_agent"]);
    expect(ofType(trace, "tool_call").map((e) => [e.agent, e.tool, e.tool_call_id, e.content])).toEqual([["research_agent", "search_web", "li-c1-id", '{"query":"tallest building in Lyon"}']]);
    expect(ofType(trace, "tool_result").map((e) => e.content)).toEqual([LI_FOUND]);
    const handoff = ofType(trace, "spawn");
    expect(handoff.map((e) => `${e.agent}->${e.to}`)).toEqual(["research_agent->write_agent"]);
    expect(notes(trace)).toEqual([]);
  });

  it("Google ADK: the lane is the adk_agent_name label of its model calls", () => {
    expect(lanes(otlpSpansToTrace(PUBLISHED_RUNS.adkPartial))).toEqual(["weather_agent"]);
    expect(classifySpan(PUBLISHED_RUNS.adkPartial[0]!)).toMatchObject({ family: "adk", role: "llm", agent: "weather_agent" });
  });

  it("Google ADK: transfer_to_agent names its target in agent_name; the sub-agent's agent_run runs inside the call that transferred", () => {
    const sys = { "gen_ai.system": "gcp.vertex.agent" };
    const request = (agent: string) => JSON.stringify({ model: "gemini-2.0-flash", config: { labels: { adk_agent_name: agent } }, contents: [{ role: "user", parts: [{ text: "Refund order 7" }] }] });
    const response = (parts: unknown[]) => JSON.stringify({ content: { role: "model", parts } });
    const trace = otlpSpansToTrace([
      span({ id: "inv", name: "invocation", start: 0, end: 10, attrs: sys }),
      span({ id: "co", parent: "inv", name: "agent_run [coordinator]", start: 0.1, end: 9.9, attrs: sys }),
      span({ id: "l1", parent: "co", name: "call_llm", start: 0.2, end: 9.8, attrs: { ...sys, "gcp.vertex.agent.llm_request": request("coordinator"), "gcp.vertex.agent.llm_response": response([{ function_call: { id: "adk-1", name: "transfer_to_agent", args: { agent_name: "billing" } } }]) } }),
      span({ id: "tr", parent: "l1", name: "execute_tool transfer_to_agent", start: 1, end: 1.1, attrs: { ...sys, "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "transfer_to_agent", "gen_ai.tool.call.id": "adk-1", "gcp.vertex.agent.tool_call_args": JSON.stringify({ agent_name: "billing" }), "gcp.vertex.agent.tool_response": JSON.stringify({ result: null }) } }),
      span({ id: "bi", parent: "l1", name: "agent_run [billing]", start: 1.2, end: 9.7, attrs: sys }),
      span({ id: "l2", parent: "bi", name: "call_llm", start: 1.3, end: 2, attrs: { ...sys, "gcp.vertex.agent.llm_request": request("billing"), "gcp.vertex.agent.llm_response": response([{ text: "Order 7 is refunded." }]) } }),
    ]);
    expect(trace.events.map((e) => [e.type, e.agent, e.to ?? "", e.content])).toEqual([
      ["message", "coordinator", "coordinator", "Refund order 7"],
      ["spawn", "coordinator", "billing", 'transfer_to_agent({"agent_name":"billing"})'],
      ["return", "billing", "coordinator", "Order 7 is refunded."],
      ["aggregate", "coordinator", "", "Order 7 is refunded."],
    ]);
    expect(trace.topology).toBe("centralized");
  });

  it("never names a lane after a span-name template, even with no service", () => {
    const spans = [
      span({ id: "r", name: "OpenAI Agents trace: {name}", start: 0, end: 2, resource: {} }),
      span({ id: "c", parent: "r", name: "chat gpt-4o", start: 0.5, end: 1, resource: {}, attrs: { "gen_ai.operation.name": "chat", "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "hi" }] }]) } }),
    ];
    const trace = otlpSpansToTrace(spans);
    expect(lanes(trace)).toEqual(["unknown_service"]);
    expect(notes(trace)[0]).toBe(`no span names an agent: the run's steps are one lane, "unknown_service"`);
  });

  it("when no span names an agent, the lane is the service and the trace says so", () => {
    const trace = otlpSpansToTrace(PUBLISHED_RUNS.langgraphToolMessageRepr);
    expect(lanes(trace)).toEqual(["langgraph-weather"]);
    expect(notes(trace)).toEqual(["no span names an agent: the run's steps are one lane, named after the service (langgraph-weather)"]);
  });
});

describe("5. logfire's OpenAI Agents instrumentation", () => {
  const spans = PUBLISHED_RUNS.logfireOpenAiAgents;
  const trace = otlpSpansToTrace(spans);

  it("the fixture has logfire's shape: message templates as names, messages in `events`, no OpenInference or GenAI agent attributes", () => {
    expect(spans.map((s) => s.name)).toContain("Handoff: {from_agent} → {to_agent}");
    expect(spans.every((s) => s.scope.name === "logfire.openai_agents" && typeof s.attributes["logfire.msg_template"] === "string")).toBe(true);
    expect(JSON.parse(attr(spans.find((s) => s.name.startsWith("Responses API"))!, "events"))).toHaveLength(3);
  });

  it("maps both agents, the tool call with its result, the handoff as delegation, the request and the answer", () => {
    expect(trace.events.map((e) => [e.type, e.agent, e.tool ?? e.to ?? "", e.tool_call_id ?? "", e.content ?? ""])).toEqual([
      ["message", "agent1", "agent1", "", LF_REQUEST],
      ["tool_call", "agent1", "random_number", LF_CALL_RANDOM, "random_number()"],
      ["spawn", "agent1", "agent2", LF_CALL_HANDOFF, "transfer_to_agent2()"],
      ["tool_result", "agent1", "random_number", LF_CALL_RANDOM, "4"],
      ["aggregate", "agent2", "", "", LF_ANSWER],
    ]);
    expect(trace.topology).toBe("centralized");
  });

  it("feeds the number to agent2's model call, which reads it (its raw_input names the call id), and enters agent2 by the handoff", () => {
    const answer = ofType(trace, "aggregate")[0]!;
    expect(into(trace, answer).sort()).toEqual([["spawn", "spawn"], ["tool_result", "tool_dependency"]]);
    expect(answer).toMatchObject({ tokens: 107, input_tokens: 89, output_tokens: 18, model: "gpt-4o-2024-08-06" });
  });
});

describe("6. AgentOps / OpenLLMetry spans without gen_ai.operation.name", () => {
  const spans = agentOpsExportSpans(data("agentops_crewai_ibm/agent_ops_traces.json"));
  const trace = otlpSpansToTrace(spans);

  it("the real CrewAI export has no gen_ai.operation.name; its messages are indexed gen_ai.prompt.N / gen_ai.completion.N", () => {
    expect(spans).toHaveLength(7);
    expect(spans.some((s) => s.attributes["gen_ai.operation.name"] !== undefined)).toBe(false);
    expect(spans.filter((s) => s.attributes["gen_ai.prompt.1.role"] === "user")).toHaveLength(2);
    expect(spans.map((s) => s.attributes["agentops.span.kind"])).toEqual(["workflow", "workflow.step", "agent", "llm", "workflow.step", "agent", "llm"]);
  });

  it("maps the crew: both agents, their model calls with tokens and model, the first task as request, the crew's result as answer", () => {
    expect(lanes(trace)).toEqual(["Songwriter", "Website Researcher"]);
    expect(trace.events.filter((e) => e.operation === "model_call").map((e) => [e.agent, e.tokens, e.input_tokens, e.output_tokens, e.model])).toEqual([
      ["Website Researcher", 293, 210, 83, "ollama/llama3:latest"],
      ["Songwriter", 684, 271, 413, "ollama/llama3:latest"],
    ]);
    expect(trace.events[0]!.content).toBe("Research this URL for songwriting material: https://www.ibm.com/think/topics/agent-communication-protocol");
    const answer = ofType(trace, "aggregate")[0]!;
    expect(answer.content).toBe(spans[0]!.attributes["crewai.crew.result"]);
    expect(String(answer.content).startsWith("Verse 1:")).toBe(true);
  });

  it("without its agent spans (a partial export), the lanes come from the tasks' crewai.task.agent", () => {
    const partial = spans.filter((s) => s.attributes["agentops.span.kind"] !== "agent");
    const t = otlpSpansToTrace(partial);
    expect(t.events.filter((e) => e.operation === "model_call").map((e) => [e.agent, e.tokens])).toEqual([["Website Researcher", 293], ["Songwriter", 684]]);
    expect(ofType(t, "aggregate")[0]!.content).toBe(spans[0]!.attributes["crewai.crew.result"]);
    expect(notes(t)).toHaveLength(1);
  });

  it("reads an OpenLLMetry model span with indexed completions and tool calls", () => {
    const c = classifySpan(
      span({
        id: "o", name: "openai.chat", start: 0, end: 1,
        attrs: { "llm.request.type": "chat", "gen_ai.prompt.0.role": "user", "gen_ai.prompt.0.content": "Weather in Oslo?", "gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.tool_calls.0.id": "call_o", "gen_ai.completion.0.tool_calls.0.name": "weather", "gen_ai.completion.0.tool_calls.0.arguments": '{"city":"Oslo"}', "gen_ai.usage.prompt_tokens": 12, "gen_ai.usage.completion_tokens": 7 },
      }),
    );
    expect(c).toMatchObject({ role: "llm", request: "Weather in Oslo?", calls: [{ id: "call_o", name: "weather", args: '{"city":"Oslo"}' }], usage: { input: 12, output: 7, total: 19 } });
    // versions that set gen_ai.operation.name but still index the messages
    const typed = classifySpan(span({ id: "p", name: "chat gpt-4o", start: 0, end: 1, attrs: { "gen_ai.operation.name": "chat", "gen_ai.prompt.0.role": "user", "gen_ai.prompt.0.content": "Hi?", "gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.content": "Hello." } }));
    expect(typed).toMatchObject({ family: "genai", role: "llm", request: "Hi?", output: "Hello.", calls: [] });
  });
});

describe("7. readable content", () => {
  it("LangGraph: a ToolMessage written as its str() shows as its content, its tool_call_id read from it", () => {
    const spans = PUBLISHED_RUNS.langgraphToolMessageRepr;
    const raw = attr(spans.find((s) => s.name === "get_weather")!, "output.value");
    expect(JSON.parse(raw)).toMatch(/^content="It's 18 °C and sunny in Lyon\." name='get_weather' id='.*' tool_call_id='call_w1'$/);
    const result = ofType(otlpSpansToTrace(spans), "tool_result")[0]!;
    expect(result).toMatchObject({ content: LG_REPR_RESULT, tool_call_id: "call_w1" });
  });

  it("LlamaIndex: the ReAct answer keeps no Thought/Answer scaffolding; the workflow's own output is the answer", () => {
    const spans = PUBLISHED_RUNS.llamaIndexWorkflow;
    const last = spans.filter((s) => s.attributes["openinference.span.kind"] === "LLM").at(-1)!;
    expect(attr(last, "llm.output_messages.0.message.content")).toMatch(/^Thought: .*\nAnswer: /);
    expect(ofType(otlpSpansToTrace(spans), "aggregate").map((e) => e.content)).toEqual([LI_ANSWER]);
  });

  it("messageRepr reads Python string literals with either quote and escapes, and only a repr that starts with content=", () => {
    expect(messageRepr(String.raw`content='it\'s 4\nok' name='calc' tool_call_id='c1'`)).toEqual({ content: "it's 4\nok", toolCallId: "c1" });
    expect(messageRepr(`content="say \\"hi\\"" tool_call_id="c2" artifact=None`)).toEqual({ content: 'say "hi"', toolCallId: "c2" });
    expect(messageRepr("the content='x' is here")).toBeUndefined();
    expect(textOf("content='97'")).toBe("97");
  });

  it("reactAnswer takes the text after the answer marker of a Thought-led completion, nothing else", () => {
    expect(reactAnswer("Thought: I can answer.\nAnswer: Paris.")).toBe("Paris.");
    expect(reactAnswer("Thought: done.\n\nFinal Answer:\n\nVerse 1\nline")).toBe("Verse 1\nline");
    expect(reactAnswer("Thought: I need a tool.\nAction: search\nAction Input: {}")).toBeUndefined();
    expect(reactAnswer("Answer: not a ReAct trace")).toBeUndefined();
  });
});

describe("partial exports, for any subset of plumbing and agent spans dropped", () => {
  const runs = { ...PUBLISHED_RUNS, ...Object.fromEntries(PYTHON_RUNS.map((r) => [r.truth.fixture, r.spans])) };
  const steps = (spans: readonly OtlpSpan[]) => spans.filter((s) => ["llm", "tool"].includes(classifySpan(s).role) && classifySpan(s).absorbed !== true);

  it("makes a valid trace that keeps every model call and tool span that remains, and notes what lost its parent", () => {
    const names = Object.keys(runs) as (keyof typeof runs)[];
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.infiniteStream(fc.boolean()), (name, coin) => {
        const spans = runs[name];
        const keep = new Set(steps(spans).map((s) => s.spanId));
        const kept = spans.filter((s) => keep.has(s.spanId) || coin.next().value);
        const trace = otlpSpansToTrace(kept);
        expect(expectValid(trace), name).toEqual([]);
        const byId = new Map(kept.map((s) => [s.spanId, s]));
        // a model span wrapped in a same-name model span is that call; a tool span inside a same-name tool span is that execution
        const wrapped = (s: OtlpSpan) => {
          const p = byId.get(s.parentSpanId ?? "");
          return p !== undefined && classifySpan(p).role === classifySpan(s).role && (p.name === s.name || (classifySpan(s).role === "tool" && classifySpan(p).name === classifySpan(s).name));
        };
        // a tool that runs an agent (Pydantic AI's ask_billing) is that agent's spawn and return, made under the agent's and model call's span ids
        const runsAgent = (s: OtlpSpan): boolean => kept.some((k) => k.parentSpanId === s.spanId && (classifySpan(k).role === "agent" || runsAgent(k)));
        // what runs within a tool's time with no agent span kept between (a tool calling a model itself) is the tool's own work: listed as not mapped
        const during = (s: OtlpSpan) => kept.some((t) => t !== s && classifySpan(t).role === "tool" && BigInt(t.startTimeUnixNano) <= BigInt(s.startTimeUnixNano) && BigInt(t.endTimeUnixNano) >= BigInt(s.endTimeUnixNano));
        const mapped = new Set(trace.events.map((e) => e.span_id));
        const listed = new Set((trace.metadata as { otlp: { unmapped: { names: { name: string }[] } } }).otlp.unmapped.names.map((n) => n.name));
        for (const s of steps(kept)) {
          if (wrapped(s) || classifySpan(s).handoffTo !== undefined || runsAgent(s)) continue;
          expect(mapped.has(s.spanId) || (during(s) && listed.has(s.name)), `${name}: ${s.name}`).toBe(true);
        }
        const orphans = parentMissing(kept).length;
        expect(notes(trace).some((n) => n.includes("is not in the export")), name).toBe(orphans > 0);
      }),
      { numRuns: 150, seed: 28 },
    );
  });
});

describe("replayed unchanged as an exporter sends them", () => {
  const cases = [...Object.entries(PUBLISHED_RUNS), ["agentops crewai", agentOpsExportSpans(data("agentops_crewai_ibm/agent_ops_traces.json"))] as const];

  it.each(cases)("%s: OTLP/JSON and OTLP/protobuf map as the spans do", (_, spans) => {
    const direct = otlpSpansToTrace(spans);
    const request = toOtlpJson(spans);
    for (const payload of [JSON.parse(JSON.stringify(request)) as unknown, decodeTraceRequest(encodeTraceRequest(request))]) {
      const read = readOtlpJson(payload);
      if (!read.ok) throw new Error(read.problems.join("; "));
      const replayed = otlpSpansToTrace(read.spans);
      expect(replayed.events).toEqual(direct.events);
      expect(replayed.edges).toEqual(direct.edges);
      expect((replayed.metadata as { otlp: unknown }).otlp).toEqual((direct.metadata as { otlp: unknown }).otlp);
    }
  });
});
