import { describe, expect, it } from "vitest";
import { chatMessageList, replyOf } from "./chat-messages";

/** The chat API's messages from each instrumentation's own shapes (baton-spec-4). */
describe("chatMessageList", () => {
  it("reads Responses API input items as chat messages", () => {
    expect(
      chatMessageList([
        { role: "user", content: "Roll a die." },
        { type: "function_call", call_id: "c1", name: "roll", arguments: "{}", id: "fc_1", status: "completed" },
        { type: "function_call_output", call_id: "c1", output: "4" },
      ]),
    ).toEqual([
      { role: "user", content: "Roll a die." },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", name: "roll", arguments: "{}" }] },
      { role: "tool", content: "4", tool_call_id: "c1" },
    ]);
  });

  it("splits a pydantic-ai request holding two tool returns into two tool messages, and keeps its text parts apart", () => {
    expect(chatMessageList([{ role: "user", parts: [{ type: "tool_call_response", id: "a", name: "f", result: { ok: true } }, { type: "tool_call_response", id: "b", name: "g", result: "done" }] }])).toEqual([
      { role: "tool", content: '{"ok":true}', tool_call_id: "a" },
      { role: "tool", content: "done", tool_call_id: "b" },
    ]);
  });

  it("maps LangChain's Python and JS messages to chat roles with their ids", () => {
    expect(chatMessageList([{ type: "ai", data: { content: "", tool_calls: [{ id: "t1", name: "f", args: { x: 1 } }] } }, { type: "tool", data: { content: "2", tool_call_id: "t1" } }])).toEqual([
      { role: "assistant", content: null, tool_calls: [{ id: "t1", name: "f", arguments: '{"x":1}' }] },
      { role: "tool", content: "2", tool_call_id: "t1" },
    ]);
  });

  it("keeps an assistant's text beside its tool calls, and never writes a call as text", () => {
    expect(replyOf([{ role: "assistant", parts: [{ type: "text", content: "Let me check." }, { type: "tool_call", id: "k", name: "look", arguments: { q: "x" } }] }])).toEqual({
      role: "assistant",
      content: "Let me check.",
      tool_calls: [{ id: "k", name: "look", arguments: '{"q":"x"}' }],
    });
  });
});
