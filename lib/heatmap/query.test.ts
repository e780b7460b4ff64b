import { describe, expect, it } from "vitest";
import { parseViewState } from "../graph-view/view-state";
import { graphCapNote, graphHref, graphLinkCapped, MAX_GRAPH_EVENTS } from "./query";

const ccp = { method: "ccp", preset: "uniform", normalize: false };

describe("graphHref", () => {
  it("links one event as before", () => {
    expect(graphHref("t 1", "e4", ccp)).toBe("/traces/t%201/graph?sel=e4&ov=credit");
    expect(graphHref("t", undefined, { method: "terminal", preset: "code_generation", normalize: true })).toBe("/traces/t/graph?ov=credit&method=terminal&preset=code_generation&norm=1");
  });

  it("repeats sel for every event of a cell, in order, and the graph reads them back", () => {
    const href = graphHref("t", ["e1", "e2", "e3"], ccp);
    expect(href).toBe("/traces/t/graph?sel=e1&sel=e2&sel=e3&ov=credit");
    const state = parseViewState(new URLSearchParams(href.split("?")[1]));
    expect(state.selected).toBe("e1");
    expect(state.highlighted).toEqual(["e1", "e2", "e3"]);
  });

  it("carries at most 200 events and says when it leaves some out", () => {
    const ids = Array.from({ length: 205 }, (_, i) => `e${i}`);
    const href = graphHref("t", ids, ccp);
    expect(MAX_GRAPH_EVENTS).toBe(200);
    expect(href.match(/sel=/g)).toHaveLength(200);
    expect(href).toContain("sel=e199&ov=credit");
    expect(graphLinkCapped(ids)).toBe(true);
    expect(graphLinkCapped(ids.slice(0, 200))).toBe(false);
    expect(graphCapNote(205)).toBe("The graph highlights the first 200 of these 205 events (a link carries at most 200).");
  });

  it("passes weight overrides through as w.<family>", () => {
    const href = graphHref("t", "e1", ccp, { cost: -0.3, task_success: 2 });
    expect(href).toBe("/traces/t/graph?sel=e1&ov=credit&w.task_success=2&w.cost=-0.3");
    expect(parseViewState(new URLSearchParams(href.split("?")[1])).weights).toEqual({ task_success: 2, cost: -0.3 });
  });
});
