import { describe, expect, it } from "vitest";
import { nestingProblem } from "./depth";
import { parseJsonBody, parseJsonLines } from "./parse";

describe("nestingProblem", () => {
  it("counts containers, not brackets inside strings", () => {
    expect(nestingProblem('{"a": "[[[[[["}', 1)).toBeNull();
    expect(nestingProblem('{"a": [1]}', 1)).toEqual({ path: "$.a", message: "JSON nesting deeper than 1 levels" });
    expect(nestingProblem('{"a": [1]}', 2)).toBeNull();
  });

  it("names the path of the first container too deep, keys and indices included", () => {
    expect(nestingProblem('{"x": 1, "events": [{}, {"m": {"k\\"q": [[]]}}]}', 5)).toEqual({ path: '$.events[1].m["k\\"q"][0]', message: "JSON nesting deeper than 5 levels" });
  });

  it("turns a 4,500-level body into a problem with a path, without recursion", () => {
    const body = `{"trace_id": "t", "metadata": ${"[".repeat(4500)}${"]".repeat(4500)}}`;
    const parsed = parseJsonBody(body);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems[0]!.path).toBe(`$.metadata${"[0]".repeat(64)}`);
    const lines = parseJsonLines(`{"a": 1}\n${body}\n`);
    expect(lines.ok).toBe(false);
    if (!lines.ok) expect(lines.problems[0]!.path).toBe(`$[1].metadata${"[0]".repeat(63)}`);
  });

  it("a batch's array is not a level: the message names the documented limit of 64, not 65", async () => {
    const { parseJsonBody } = await import("./parse");
    const deep = `[${"[".repeat(65)}1${"]".repeat(65)}]`;
    const parsed = parseJsonBody(deep);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problems[0]!.message).toBe("JSON nesting deeper than 64 levels");
  });
});
