import { describe, expect, it } from "vitest";
import { buildCausalGraph } from "../graph/causal";
import { makeTrace } from "../graph/fixtures";
import { FAMILIES } from "../trace/types";
import { anchorsOf } from "./families";

const graph = buildCausalGraph(
  makeTrace({
    events: [
      { id: "d", t: 0, type: "orchestrator_decision", agent: "o", decision: "spawn" },
      { id: "s", t: 1, type: "spawn", agent: "o", to: "w" },
      { id: "m", t: 2, type: "message", agent: "w" },
      { id: "c", t: 3, type: "tool_call", agent: "w" },
      { id: "r", t: 4, type: "return", agent: "w" },
      { id: "g", t: 5, type: "aggregate", agent: "o" },
      { id: "x", t: 6, type: "orchestrator_decision", agent: "o", decision: "stop" },
      { id: "h", t: 7, type: "human_intervention", agent: "human" },
    ],
  }),
);

describe("anchorsOf", () => {
  it("attaches each family to its events (positions)", () => {
    const anchors = Object.fromEntries(FAMILIES.map((f) => [f, [...anchorsOf(graph, f)]]));
    expect(anchors).toEqual({
      task_success: [5], // the terminal g
      step_quality: [0, 2, 4, 5, 6], // orchestrator_decision (baton-spec-3), message, return, aggregate
      orchestration: [1, 5], // spawn, aggregate
      parallelism_speedup: [1],
      communication_efficiency: [2],
      tool_use_correctness: [3],
      stop_decision: [6],
      cost: [0, 1, 2, 3, 4, 5, 6, 7],
    });
  });
});
