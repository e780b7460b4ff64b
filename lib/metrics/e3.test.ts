import { describe, expect, it } from "vitest";
import { makeTrace } from "../graph/fixtures";
import { analyzeTrace } from "./analysis";
import { computeE3, messageKey } from "./e3";
import { RICH, SINGLE, STOPPED } from "./fixtures";

describe("computeE3", () => {
  it("computes redundancy, dead messages and diversity of RICH", () => {
    const { metrics, deadMessage } = computeE3(analyzeTrace(makeTrace(RICH)));
    // b2 "Hello  World" and b3 " hello\tworld " share the key "hello world": 1 - 1/2
    expect(metrics.message_redundancy).toBeCloseTo(0.5, 9);
    // b3 does not reach g: 1 of 2
    expect(metrics.dead_message_rate).toBeCloseTo(0.5, 9);
    // g <- a1 (A), a2 (A), b2 (B): 2 agents / 3 predecessors
    expect(metrics.aggregate_diversity).toBeCloseTo(2 / 3, 9);
    expect(deadMessage[8]).toBe(1);
    expect(deadMessage[7]).toBe(0);
  });

  it("keys a message without content by its id, so it is never a repeat", () => {
    const { metrics } = computeE3(analyzeTrace(makeTrace(STOPPED)));
    expect(metrics.message_redundancy).toBe(0); // ex alone: 1 - 1/1
    expect(metrics.dead_message_rate).toBe(1); // ex comes after the stop, reaches nothing
    expect(metrics.aggregate_diversity).toBe(1); // ag <- r1 (W), c1 (orch): 2 / 2
  });

  it("is null without messages and without fed aggregates", () => {
    expect(computeE3(analyzeTrace(makeTrace(SINGLE))).metrics).toEqual({
      message_redundancy: null,
      dead_message_rate: null,
      aggregate_diversity: null,
    });
    const lonelyAggregate = makeTrace({ events: [{ id: "g", t: 0, type: "aggregate", agent: "o" }] });
    expect(computeE3(analyzeTrace(lonelyAggregate)).metrics.aggregate_diversity).toBeNull();
  });

  it("prefers content_ref, then normalised content, then the id", () => {
    expect(messageKey({ id: "m", content_ref: "ref", content: "text" })).toBe("ref");
    expect(messageKey({ id: "m", content: "  A \n\n B  " })).toBe("a b");
    expect(messageKey({ id: "m" })).toBe("m");
  });

  it("counts a terminal message as dead (it is not its own ancestor)", () => {
    const trace = makeTrace({
      events: [
        { id: "m1", t: 0, type: "message", agent: "A", content: "x" },
        { id: "m2", t: 1, type: "message", agent: "B", content: "x" },
      ],
      edges: [["m1", "m2"]],
    });
    const { metrics } = computeE3(analyzeTrace(trace));
    expect(metrics.message_redundancy).toBeCloseTo(0.5, 9); // one key, two messages
    expect(metrics.dead_message_rate).toBeCloseTo(0.5, 9); // m2 is the terminal, m1 its ancestor
  });

  it("collapses Unicode White_Space (U+0085 is, U+FEFF is not) and lower-cases by the default case mapping", () => {
    // U+0085 NEXT LINE and U+3000 IDEOGRAPHIC SPACE are White_Space; JavaScript's \s misses U+0085
    expect(messageKey({ id: "m", content: "A\u0085\u3000B" })).toBe("a b");
    // U+FEFF is not White_Space (JavaScript's \s and trim() would drop it): kept, at the ends too
    expect(messageKey({ id: "m", content: "\ufeffA B\ufeff" })).toBe("\ufeffa b\ufeff");
    expect(messageKey({ id: "m", content: "\u2028 x \u00a0" })).toBe("x");
    // U+200B ZERO WIDTH SPACE is not White_Space
    expect(messageKey({ id: "m", content: "a\u200bb" })).toBe("a\u200bb");
    // full default case mapping, no locale: İ -> i + U+0307, Σ -> σ, ẞ -> ß
    expect(messageKey({ id: "m", content: "İΣẞ" })).toBe("i\u0307σß");
  });

  it("counts two messages that differ by U+0085 vs a space as one key, and by U+FEFF as two", () => {
    const trace = (second: string) =>
      makeTrace({
        events: [
          { id: "m1", t: 0, type: "message", agent: "A", content: "hello world" },
          { id: "m2", t: 1, type: "message", agent: "B", content: second },
        ],
        edges: [["m1", "m2", "message"]],
      });
    expect(computeE3(analyzeTrace(trace("Hello\u0085World"))).metrics.message_redundancy).toBe(0.5);
    expect(computeE3(analyzeTrace(trace("hello\ufeffworld"))).metrics.message_redundancy).toBe(0);
  });
});
