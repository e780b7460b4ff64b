import { describe, expect, it } from "vitest";
import { signalWords, suspectReasons } from "./reasons";
import type { RankedEvent } from "./types";

const event = (id: string, score: number, signals: Record<string, number>): RankedEvent => ({ id, agent: "a", rank: 1, score, signals });

describe("a suspect's own reasons", () => {
  // every worker output shares kind_worker_output; what sets each suspect apart differs
  const events = [
    event("e6", 0.5, { kind_worker_output: 0.36, text_lines: 0.9, text_length: 0.29 }),
    event("e24", 0.4, { kind_worker_output: 0.36, text_lines: 0.32, text_length: 0.29, caused_error: 0.8 }),
    event("e11", 0.3, { kind_worker_output: 0.36, text_lines: 0.32, text_length: 0.7 }),
    event("e2", 0.1, { kind_worker_output: 0.36, text_lines: 0.32, text_length: 0.29 }),
    event("e3", 0.05, { kind_worker_output: 0.36, text_lines: 0.32, text_length: 0.29 }),
  ];

  it("names what sets each apart from the run's typical event, in words, never what all share", () => {
    expect(suspectReasons(events, "e6")).toEqual(["many lines"]);
    expect(suspectReasons(events, "e24")).toEqual(["it caused an error"]);
    expect(suspectReasons(events, "e11")).toEqual(["a long text"]);
    expect(suspectReasons(events, "nope")).toEqual([]);
  });

  it("reads a signal that goes with lower scores (credit) the other way", () => {
    const credit = [event("a", 2, { credit_ccp: -2 }), event("b", 0.5, { credit_ccp: -0.5 }), event("c", 0.1, { credit_ccp: -0.1 })];
    expect(suspectReasons(credit, "a")).toEqual(["low credit"]);
    expect(suspectReasons(credit, "c")).toEqual([]);
  });

  it("spells out a signal it has no words for", () => {
    expect(signalWords("role_web_surfer")).toBe("web surfer");
  });
});
