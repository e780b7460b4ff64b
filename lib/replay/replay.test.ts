import { describe, expect, it } from "vitest";
import { chatReplyPart, chatRequestPart, ChatStreamReply } from "@/lib/gateway/chat";
import { responsesReplyPart, responsesRequestPart, ResponsesStreamReply } from "@/lib/gateway/responses";
import { SseReader } from "@/lib/gateway/sse";
import type { ModelCall } from "@/lib/trace/calls";
import { rewriteToolResult, resolveToolEdit, withForkParams } from "./edit";
import { apiOfCall, requestKey, requestMatches } from "./match";
import { decide, initialState, type Expected, type ReplayPlan } from "./plan";
import { servedBody, servedOfCall, type ServedReply } from "./serve";

const TOOLS = [{ type: "function", function: { name: "lookup", parameters: { type: "object" } } }];

function call(id: string, agent: string, input: ModelCall["input"], output: ModelCall["output"], extra: Partial<ModelCall> = {}): ModelCall {
  return { id, agent, t: 0, input, output, events: [], response_id: "chatcmpl-1", ...extra };
}

describe("matching a request against a recorded call", () => {
  const recorded = call("call-2", "a", [
    { role: "system", content: "plan" },
    { role: "assistant", content: null, tool_calls: [{ id: "call_X", name: "lookup", arguments: '{"q":"a","n":1}' }] },
    { role: "tool", tool_call_id: "call_X", content: "42" },
  ], "ok", { tools: TOOLS });

  it("ignores tool call ids (kept as their order of appearance), other message keys, model and params; JSON arguments compare canonically", () => {
    const body = {
      model: "other", temperature: 0.9, tools: TOOLS,
      messages: [
        { role: "system", content: "plan", name: "planner" },
        { role: "assistant", content: null, refusal: null, tool_calls: [{ id: "call_Y", type: "function", function: { name: "lookup", arguments: '{ "n": 1, "q": "a" }' } }] },
        { role: "tool", tool_call_id: "call_Y", content: "42" },
      ],
    };
    expect(requestMatches("chat", chatRequestPart(body), recorded)).toBe(true);
  });

  it("a different content, tool result, tool, role, or pairing of result to call does not match", () => {
    const base = chatRequestPart({ tools: TOOLS, messages: [{ role: "system", content: "plan" }, { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "lookup", arguments: '{"q":"a","n":1}' } }] }, { role: "tool", tool_call_id: "c1", content: "42" }] });
    expect(requestMatches("chat", base, recorded)).toBe(true);
    const changed = (f: (m: ModelCall["input"]) => void, tools: unknown[] = TOOLS) => {
      const input = structuredClone(base.input);
      f(input);
      return requestMatches("chat", { input, tools: tools as Record<string, unknown>[] }, recorded);
    };
    expect(changed((m) => { m[2]!.content = "41"; })).toBe(false);
    expect(changed((m) => { m[0]!.role = "developer"; })).toBe(false);
    expect(changed((m) => { m[2]!.tool_call_id = "other"; })).toBe(false);
    expect(changed(() => undefined, [])).toBe(false);
    expect(changed((m) => { m.pop(); })).toBe(false);
  });

  it("the API counts when the recorded reply's id tells it", () => {
    expect(apiOfCall({ response_id: "resp_1" })).toBe("responses");
    expect(apiOfCall({ response_id: "chatcmpl-9" })).toBe("chat");
    expect(apiOfCall({})).toBeNull();
    const req = { input: [{ role: "user", content: "hi" }] };
    expect(requestMatches("responses", req, call("c", "a", req.input, "x", { response_id: "chatcmpl-1" }))).toBe(false);
    expect(requestMatches("responses", req, call("c", "a", req.input, "x", { response_id: "resp_1" }))).toBe(true);
    expect(requestMatches("responses", req, call("c", "a", req.input, "x", { response_id: undefined }))).toBe(true);
  });

  it("absent tools and [] are the same", () => {
    expect(requestKey("chat", [], undefined)).toBe(requestKey("chat", [], []));
  });
});

describe("deciding how a replay answers", () => {
  const a1 = call("call-1", "a", [{ role: "user", content: "go" }], "A1");
  const b1 = call("call-2", "b", [{ role: "user", content: "help" }], "B1");
  const a2 = call("call-3", "a", [{ role: "user", content: "go" }, { role: "assistant", content: "A1" }, { role: "user", content: "more" }], "A2");
  const calls = [a1, b1, a2];
  const expectedFor = (cursors: Record<string, number>, agent: string): Expected | null => {
    const own = calls.map((c, index) => ({ index, call: c })).filter((x) => x.call.agent === agent);
    return own[cursors[agent] ?? 0] ?? null;
  };
  const run = (plan: ReplayPlan, requests: { agent: string; input: ModelCall["input"] }[]) => {
    let state = initialState();
    const answers = [];
    for (const r of requests) {
      const out = decide(state, plan, r.agent, "chat", { input: r.input }, expectedFor(state.cursors, r.agent));
      state = out.state;
      answers.push(out.answer.kind === "record" ? `record:${out.answer.call.id}` : out.answer.kind);
    }
    return { answers, state };
  };
  const unchanged: ReplayPlan = { editIndex: null, edit: null };

  it("an unchanged replay serves every call from the record, whatever the interleaving of agents", () => {
    const { answers, state } = run(unchanged, [{ agent: "b", input: b1.input }, { agent: "a", input: a1.input }, { agent: "a", input: a2.input }]);
    expect(answers).toEqual(["record:call-2", "record:call-1", "record:call-3"]);
    expect(state.divergence).toBeNull();
    expect(state.cursors).toEqual({ a: 2, b: 1 });
  });

  it("a request that differs diverges: recorded with its index, everything after is live", () => {
    const { answers, state } = run(unchanged, [{ agent: "a", input: a1.input }, { agent: "b", input: [{ role: "user", content: "HELP" }] }, { agent: "a", input: a2.input }]);
    expect(answers).toEqual(["record:call-1", "live", "live"]);
    expect(state.divergence).toEqual({ call_index: 1, expected_call_id: "call-2", agent: "b" });
    expect(state.origins).toEqual(["record", "live", "live"]);
  });

  it("an agent the record does not know diverges", () => {
    expect(run(unchanged, [{ agent: "z", input: a1.input }]).state.divergence).toEqual({ call_index: 0, expected_call_id: null, agent: "z" });
  });

  it("a reply edit: record before it, the edit at it, live after it, and no divergence for what the edit changed", () => {
    const plan: ReplayPlan = { editIndex: 1, edit: { kind: "reply", output: { role: "assistant", content: "B1*" } } };
    const { answers, state } = run(plan, [{ agent: "a", input: a1.input }, { agent: "b", input: b1.input }, { agent: "a", input: [...a2.input, { role: "user", content: "changed" }] }]);
    expect(answers).toEqual(["record:call-1", "edit", "live"]);
    expect(state.divergence).toBeNull();
    expect(state.edit_served).toBe(true);
  });

  it("a call recorded after the edit that comes early is live, not served", () => {
    const plan: ReplayPlan = { editIndex: 1, edit: { kind: "reply", output: { role: "assistant", content: "B1*" } } };
    expect(run(plan, [{ agent: "a", input: a1.input }, { agent: "a", input: a2.input }, { agent: "b", input: b1.input }]).answers).toEqual(["record:call-1", "live", "edit"]);
  });

  it("a tool result edit sends the edited call live with the rewrite, and every later live call too", () => {
    const tool = { tool_call_id: "t1", content: "fixed" };
    const plan: ReplayPlan = { editIndex: 2, edit: { kind: "tool_result", tool } };
    let state = initialState();
    const answers = [];
    for (const r of [{ agent: "a", input: a1.input }, { agent: "b", input: b1.input }, { agent: "a", input: a2.input }, { agent: "a", input: [{ role: "user", content: "x" }] }]) {
      const out = decide(state, plan, r.agent, "chat", { input: r.input }, expectedFor(state.cursors, r.agent));
      state = out.state;
      answers.push(out.answer);
    }
    expect(answers.map((a) => a.kind)).toEqual(["record", "record", "live", "live"]);
    expect(answers.slice(2)).toEqual([{ kind: "live", rewrite: tool }, { kind: "live", rewrite: tool }]);
    expect(state.origins).toEqual(["record", "record", "edit", "live"]);
  });

  it("a tool result edit follows the program's own tool call id (matching ignores ids)", () => {
    const withTool = call("call-1", "a", [{ role: "assistant", content: null, tool_calls: [{ id: "rec_1", name: "f", arguments: "{}" }] }, { role: "tool", tool_call_id: "rec_1", content: "old" }], "x");
    const plan: ReplayPlan = { editIndex: 0, edit: { kind: "tool_result", tool: { tool_call_id: "rec_1", content: "new" } } };
    const live = [{ role: "assistant", content: null, tool_calls: [{ id: "own_9", name: "f", arguments: "{}" }] }, { role: "tool", tool_call_id: "own_9", content: "old" }];
    const out = decide(initialState(), plan, "a", "chat", { input: live }, { index: 0, call: withTool });
    expect(out.answer).toEqual({ kind: "live", rewrite: { tool_call_id: "own_9", content: "new" } });
    expect(decide(out.state, plan, "a", "chat", { input: live }, null).answer).toEqual({ kind: "live", rewrite: { tool_call_id: "own_9", content: "new" } });
  });
});

describe("edits", () => {
  it("resolves the tool result a call reads", () => {
    const c = { input: [{ role: "tool", tool_call_id: "t1", content: "x" }] };
    expect(resolveToolEdit(c, { content: "y" })).toEqual({ tool_call_id: "t1", content: "y" });
    expect(resolveToolEdit(c, { tool_call_id: "t2", content: "y" })).toMatch(/no tool result/);
    expect(resolveToolEdit({ input: [] }, { content: "y" })).toMatch(/reads no tool result/);
  });

  it("rewrites the tool result in chat and Responses bodies, and applies fork params", () => {
    const edit = { tool_call_id: "t1", content: "NEW" };
    const chat = rewriteToolResult("chat", { messages: [{ role: "tool", tool_call_id: "t1", content: "old" }, { role: "tool", tool_call_id: "t2", content: "keep" }] }, edit);
    expect(chat.messages).toEqual([{ role: "tool", tool_call_id: "t1", content: "NEW" }, { role: "tool", tool_call_id: "t2", content: "keep" }]);
    const resp = rewriteToolResult("responses", { input: [{ type: "function_call_output", call_id: "t1", output: "old" }] }, edit);
    expect(resp.input).toEqual([{ type: "function_call_output", call_id: "t1", output: "NEW" }]);
    expect(withForkParams("responses", { temperature: 0 }, { temperature: 1, max_tokens: 9 })).toEqual({ temperature: 1, max_output_tokens: 9 });
  });
});

describe("serving a recorded reply in the shape asked for", () => {
  const reply: ServedReply = { model: "m", output: { role: "assistant", content: "Hi", tool_calls: [{ id: "call_1", name: "lookup", arguments: '{"q":1}' }] }, finish_reason: "tool_calls", input_tokens: 7, output_tokens: 3, response_id: "chatcmpl-77" };
  const events = (text: string) => {
    const sse = new SseReader();
    return [...sse.push(new TextEncoder().encode(text)), ...sse.end()].filter((d) => d !== "[DONE]").map((d) => JSON.parse(d) as Record<string, unknown>);
  };

  it("chat, whole and streamed, reads back as the same reply through the gateway's own parsers", () => {
    const whole = chatReplyPart(JSON.parse(servedBody("chat", reply, false, false, "x").text) as Record<string, unknown>);
    expect(whole).toEqual({ model: "m", output: reply.output, finish_reason: "tool_calls", input_tokens: 7, output_tokens: 3, response_id: "chatcmpl-77" });
    const stream = new ChatStreamReply();
    const body = servedBody("chat", reply, true, true, "x");
    expect(body.text.endsWith("data: [DONE]\n\n")).toBe(true);
    for (const e of events(body.text)) stream.add(e);
    expect(stream.reply()).toEqual(whole);
  });

  it("a tool-call-only reply streams with content null", () => {
    const only: ServedReply = { ...reply, output: { role: "assistant", content: null, tool_calls: reply.output.tool_calls } };
    const stream = new ChatStreamReply();
    for (const e of events(servedBody("chat", only, true, false, "x").text)) stream.add(e);
    expect(stream.reply().output).toEqual(only.output);
  });

  it("Responses, whole and streamed", () => {
    const r: ServedReply = { ...reply, finish_reason: "completed", response_id: "resp_5" };
    const whole = responsesReplyPart(JSON.parse(servedBody("responses", r, false, false, "x").text) as Record<string, unknown>);
    expect(whole).toEqual({ model: "m", output: reply.output, finish_reason: "completed", input_tokens: 7, output_tokens: 3, response_id: "resp_5" });
    const stream = new ResponsesStreamReply();
    for (const e of events(servedBody("responses", r, true, false, "x").text)) stream.add(e);
    expect(stream.reply()).toEqual(whole);
    // and a request built from the served output matches the original's next turn
    expect(responsesRequestPart({ input: "hi" }).input).toEqual([{ role: "user", content: "hi" }]);
  });

  it("a text output becomes an assistant message", () => {
    expect(servedOfCall(call("c", "a", [], "plain", { model: undefined }), "fallback").output).toEqual({ role: "assistant", content: "plain" });
  });
});
