import { describe, expect, it } from "vitest";
import { ResponsesStreamReply, responsesReplyPart, responsesRequestPart } from "./responses";

const REQUEST = {
  model: "scripted",
  instructions: "You are the planner.",
  input: [
    { role: "user", content: "Weather in Paris and Oslo?" },
    { type: "reasoning", id: "rs_1", summary: [] },
    { type: "function_call", call_id: "call_a", name: "get_weather", arguments: '{"city":"Paris"}', id: "fc_1", status: "completed" },
    { type: "function_call", call_id: "call_b", name: "get_weather", arguments: '{"city":"Oslo"}', id: "fc_2", status: "completed" },
    { type: "function_call_output", call_id: "call_a", output: "18 C" },
    { type: "function_call_output", call_id: "call_b", output: "4 C" },
    { type: "message", role: "assistant", id: "msg_1", status: "completed", content: [{ type: "output_text", text: "Checking.", annotations: [] }] },
  ],
  tools: [{ type: "function", name: "get_weather", parameters: { type: "object" }, strict: false }],
  temperature: 0,
  parallel_tool_calls: true,
  stream: false,
};

const RESPONSE = {
  id: "resp_1",
  object: "response",
  status: "completed",
  model: "scripted",
  output: [
    { type: "message", id: "msg_2", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Paris 18 C", annotations: [] }, { type: "output_text", text: ", Oslo 4 C.", annotations: [] }] },
  ],
  usage: { input_tokens: 40, output_tokens: 8, total_tokens: 48 },
};

describe("the Responses API mapped onto chat messages", () => {
  it("instructions as system, function calls as one assistant's tool_calls, outputs as tool messages, reasoning left out", () => {
    expect(responsesRequestPart(REQUEST)).toEqual({
      model: "scripted",
      input: [
        { role: "system", content: "You are the planner." },
        { role: "user", content: "Weather in Paris and Oslo?" },
        { role: "assistant", content: null, tool_calls: [{ id: "call_a", name: "get_weather", arguments: '{"city":"Paris"}' }, { id: "call_b", name: "get_weather", arguments: '{"city":"Oslo"}' }] },
        { role: "tool", tool_call_id: "call_a", content: "18 C" },
        { role: "tool", tool_call_id: "call_b", content: "4 C" },
        { role: "assistant", content: "Checking." },
      ],
      tools: REQUEST.tools,
      params: { temperature: 0, parallel_tool_calls: true },
    });
  });

  it("a reply's text parts joined, function calls as tool_calls with content null, status as finish reason", () => {
    expect(responsesReplyPart(RESPONSE)).toEqual({ model: "scripted", output: { role: "assistant", content: "Paris 18 C, Oslo 4 C." }, finish_reason: "completed", input_tokens: 40, output_tokens: 8, response_id: "resp_1" });
    const tools = responsesReplyPart({ ...RESPONSE, output: [{ type: "function_call", call_id: "call_c", name: "f", arguments: "{}" }] });
    expect(tools.output).toEqual({ role: "assistant", content: null, tool_calls: [{ id: "call_c", name: "f", arguments: "{}" }] });
    expect(responsesReplyPart({ ...RESPONSE, status: "incomplete", incomplete_details: { reason: "max_output_tokens" } }).finish_reason).toBe("max_output_tokens");
  });

  it("a stream: the final response when it came, else the items and text seen so far", () => {
    const whole = new ResponsesStreamReply();
    whole.add({ type: "response.created", response: { ...RESPONSE, status: "in_progress", output: [] } });
    whole.add({ type: "response.output_text.delta", delta: "Paris" });
    whole.add({ type: "response.completed", response: RESPONSE });
    expect(whole.reply()).toEqual(responsesReplyPart(RESPONSE));
    const cut = new ResponsesStreamReply();
    cut.add({ type: "response.created", response: { ...RESPONSE, status: "in_progress", output: [], usage: null } });
    cut.add({ type: "response.output_item.done", item: { type: "function_call", call_id: "call_c", name: "f", arguments: "{}" } });
    cut.add({ type: "response.output_text.delta", delta: "Par" });
    expect(cut.reply()).toEqual({ model: "scripted", output: { role: "assistant", content: "Par", tool_calls: [{ id: "call_c", name: "f", arguments: "{}" }] }, response_id: "resp_1" });
  });
});
