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
});
