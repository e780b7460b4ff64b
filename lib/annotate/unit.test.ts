import { describe, expect, it } from "vitest";
import { readableContent, taskFromMetadata } from "./unit";

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
