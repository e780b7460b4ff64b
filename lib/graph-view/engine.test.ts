import { describe, expect, it } from "vitest";
import { EDGE_TYPES } from "../trace/types";
import { LINEAGE_ANCESTOR, LINEAGE_DESCENDANT, LINEAGE_SELF } from "./edges";
import { engineOf, exampleTrace, modelOf } from "./fixtures";
import { ALL_EDGES_MASK } from "./scene";
import { GraphEngine } from "./engine";
import type { GraphCreditPage } from "./wire";

describe("GraphEngine on the paper's example, pages arriving out of order", () => {
  const model = modelOf(exampleTrace(), 3);
  const engine = engineOf(model);

  it("assembles every page and lays the trace out", () => {
    expect(engine.complete).toBe(true);
    const { layout, overview } = engine.layout("time");
    expect(layout.laneTop).toHaveLength(5);
    expect(layout.width).toBeGreaterThan(0);
    expect(Array.from(overview.counts).reduce((a, b) => a + b, 0)).toBe(8);
  });

  it("draws all 8 events and 8 edges when the whole trace is in view", () => {
    const { layout } = engine.layout("time");
    const scene = engine.scene("time", { view: { x0: 0, y0: 0, x1: layout.width, y1: layout.height }, zoom: 1, edgeMask: ALL_EDGES_MASK });
    expect(scene.level).toBe("events");
    expect(scene.events.map((e) => e.id)).toEqual(["e1", "e2", "e3", "e8", "e4", "e5", "e7", "e6"]); // by lane, then x
    expect(scene.edges).toHaveLength(8);
  });

  it("describes an event with its edges both ways", () => {
    const e4 = engine.describe(3, "time");
    expect(e4.id).toBe("e4");
    expect(e4.incoming.map((r) => [r.id, EDGE_TYPES[r.kind]])).toEqual([["e2", "causal"], ["e3", "message"]]);
    expect(e4.outgoing.map((r) => [r.id, EDGE_TYPES[r.kind]])).toEqual([["e5", "tool_dependency"]]);
  });

  it("finds events by exact id, or by part of the id or label", () => {
    expect(engine.find("e6").exact).toBe(5);
    expect(engine.find("browser").matches.map((m) => m.id)).toEqual(["e5", "e6"]);
    expect(engine.find("nothing").exact).toBeNull();
    expect(engine.find("nothing").matches).toEqual([]);
  });

  it("finds events by agent (their lane) and by tool", () => {
    // executor_1 acts in e5 (tool_call) and e7 (return); planner_1 speaks e4 and is spawned by e3 (label "spawn planner_1")
    // e5's label is "call browser.search": it is found by its agent, executor_1, case-insensitively
    expect(engine.find("EXECUTOR_1").matches.map((m) => m.id)).toEqual(["e3", "e4", "e5", "e7"]);
    expect(engine.find("planner_1").matches.map((m) => m.id)).toEqual(["e2", "e4"]);
    expect(engine.find("browser.search").matches.map((m) => m.id)).toEqual(["e5", "e6"]);
  });

  it("computes the lineage of an event", () => {
    expect(Array.from(engine.lineage(3))).toEqual([1, 1, 1, LINEAGE_SELF, 2, 2, 2, 2].map((v) => (v === 1 ? LINEAGE_ANCESTOR : v === 2 ? LINEAGE_DESCENDANT : v)));
  });

  it("loads and clears a credit column", () => {
    const families = { task_success: 1, step_quality: null, orchestration: null, parallelism_speedup: null, communication_efficiency: null, tool_use_correctness: null, stop_decision: null, cost: 0.5 };
    const weights = { task_success: 1, step_quality: 1, orchestration: 1, parallelism_speedup: 1, communication_efficiency: 1, tool_use_correctness: 1, stop_decision: 1, cost: -1 };
    const page = { from: 0, count: 8, total: [-0.5, 0, 0, 0, 0, 0, 0, 0.25], method: "ccp", preset: "uniform", normalize: false, r_total: 0.5, families, weights } as GraphCreditPage;
    expect(engine.setCredit([page])).toEqual({
      extent: 0.5, method: "ccp", preset: "uniform", normalize: false, r_total: 0.5,
      r_total_parts: [{ family: "task_success", weight: 1, value: 1, contribution: 1 }, { family: "cost", weight: -1, value: 0.5, contribution: -0.5 }],
    });
    expect(engine.describe(0, "time").credit).toBe(-0.5);
    expect(engine.setCredit(null)).toBeNull();
    expect(engine.describe(0, "time").credit).toBeNull();
  });

  it("refuses to lay out before every page has arrived", () => {
    const partial = new GraphEngine(model.meta);
    expect(() => partial.layout("time")).toThrow(/not loaded/);
  });
});
