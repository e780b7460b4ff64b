import { describe, expect, it } from "vitest";
import { messageText, readableContent, taskFromMetadata } from "./unit";

describe("readableContent", () => {
  it("pretty-prints JSON objects and arrays and leaves other text alone", () => {
    expect(readableContent('{"q":"grep","n":2}')).toEqual({ text: '{\n  "q": "grep",\n  "n": 2\n}', json: true });
    expect(readableContent("[1,2]")).toEqual({ text: "[\n  1,\n  2\n]", json: true });
    expect(readableContent("{not json}")).toEqual({ text: "{not json}", json: false });
    expect(readableContent("<b>bold</b>")).toEqual({ text: "<b>bold</b>", json: false });
    expect(readableContent("42")).toEqual({ text: "42", json: false });
  });
});

describe("taskFromMetadata", () => {
  it("takes the first non-empty task-like string", () => {
    expect(taskFromMetadata({ question: "How many?", task: "" })).toEqual({ text: "How many?", source: "metadata.question" });
    expect(taskFromMetadata({ task: 3 })).toBeNull();
    expect(taskFromMetadata(["task"])).toBeNull();
    expect(taskFromMetadata(null)).toBeNull();
  });
});

describe("messageText", () => {
  it("keeps a message's text, its tool calls and the call it answers; null content is no text, not 'null'", () => {
    expect(messageText({ role: "assistant", content: null, tool_calls: [{ id: "c1", name: "search", arguments: { q: "x" } }, { name: "note", arguments: "{}" }] })).toEqual({
      role: "assistant",
      content: "",
      tool_calls: [{ id: "c1", name: "search", arguments: "{\"q\":\"x\"}" }, { id: null, name: "note", arguments: "{}" }],
    });
    expect(messageText({ role: "tool", tool_call_id: "c1", content: "found" })).toEqual({ role: "tool", content: "found", tool_call_id: "c1" });
    expect(messageText({ role: "user", content: [{ type: "text", text: "a" }, { type: "image_url", image_url: "u" }] })).toEqual({ role: "user", content: "a\n{\"type\":\"image_url\",\"image_url\":\"u\"}" });
    expect(messageText("plain")).toEqual({ role: "assistant", content: "plain" });
    expect(messageText({ role: "assistant", content: 7 })).toEqual({ role: "assistant", content: "7" });
  });
});
