import { describe, expect, it } from "vitest";
import { queueInput, splitTraceIds } from "./queues";

describe("queue input", () => {
  it("splits pasted trace ids on newlines, commas and spaces, keeping each once in order", () => {
    expect(splitTraceIds("a\nb, c  d,,\r\n\te\nb")).toEqual(["a", "b", "c", "d", "e"]);
    expect(splitTraceIds("  \n , ")).toEqual([]);
    expect(splitTraceIds("who-and-when/1.json")).toEqual(["who-and-when/1.json"]);
  });

  it("asks the decisive error of whole traces only", () => {
    const base = { name: "q", assignees: ["a@b.c"], families: ["decisive_error"] };
    expect(queueInput.safeParse({ ...base, filter: { unit: "trace" } }).success).toBe(true);
    const events = queueInput.safeParse({ ...base, filter: {} });
    expect(events.success).toBe(false);
    expect(events.error!.issues.map((i) => i.path)).toEqual([["families"]]);
    expect(queueInput.safeParse({ ...base, families: ["decisive_error", "decisive_error"], filter: { unit: "trace" } }).success).toBe(false);
    expect(queueInput.safeParse({ ...base, families: ["blame"], filter: { unit: "trace" } }).success).toBe(false);
  });
});
