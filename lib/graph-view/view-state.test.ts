import { describe, expect, it } from "vitest";
import { CREDIT_METHODS } from "../credit";
import { EDGE_TYPES } from "../trace/types";
import { CREDIT_METHOD_OPTIONS, DEFAULT_VIEW_STATE, MAX_HIGHLIGHTED, parseViewState, viewStateQuery, type ViewState } from "./view-state";
import { DEFAULT_EDGE_MASK, edgeBit } from "./visual";

describe("view state in the URL", () => {
  it("writes nothing for the default view", () => {
    expect(viewStateQuery(DEFAULT_VIEW_STATE)).toBe("");
    expect(parseViewState(new URLSearchParams(""))).toEqual(DEFAULT_VIEW_STATE);
  });

  it("round-trips every field", () => {
    const state: ViewState = {
      selected: "e6",
      highlighted: ["e6", "e2", "e9"],
      edgeMask: edgeBit("spawn") | edgeBit("temporal"),
      overlays: ["credit", "taint"],
      method: "terminal",
      preset: "code_generation",
      normalize: true,
      weights: { task_success: 2, cost: -0.5 },
      judges: "all",
      spacing: "order",
      viewport: { x: -120.25, y: 33, zoom: 0.012345678 },
    };
    const query = viewStateQuery(state);
    expect(query).toBe("sel=e6&sel=e2&sel=e9&edges=temporal%2Cspawn&ov=credit%2Ctaint&method=terminal&preset=code_generation&norm=1&w.task_success=2&w.cost=-0.5&judges=all&x=order&v=-120.3%2C33%2C0.012346");
    expect(parseViewState(new URLSearchParams(query))).toEqual({ ...state, viewport: { x: -120.3, y: 33, zoom: 0.012346 } });
  });

  it("writes overlays in a fixed order and 'none' for no edges", () => {
    const query = viewStateQuery({ ...DEFAULT_VIEW_STATE, overlays: ["stop", "credit"], edgeMask: 0 });
    expect(query).toBe("edges=none&ov=credit%2Cstop");
    expect(parseViewState(new URLSearchParams(query)).edgeMask).toBe(0);
  });

  it("falls back to defaults for invalid values instead of failing", () => {
    const state = parseViewState({ edges: "causal,teleport", method: "magic", norm: "yes", v: "1,2", x: "sideways", ov: "taint,bogus", sel: "" });
    expect(state).toEqual({ ...DEFAULT_VIEW_STATE, overlays: ["taint"] });
    expect(parseViewState({ v: "1,2,0" }).viewport).toBeNull();
  });

  it("reads a single sel as before: selected and highlighted", () => {
    const state = parseViewState(new URLSearchParams("sel=e4&ov=credit"));
    expect(state.selected).toBe("e4");
    expect(state.highlighted).toEqual(["e4"]);
    expect(viewStateQuery(state)).toBe("sel=e4&ov=credit");
  });

  it("reads repeated sel: the first is selected, all are highlighted, duplicates and blanks dropped", () => {
    const state = parseViewState(new URLSearchParams("sel=b&sel=&sel=a&sel=b&sel=c"));
    expect(state.selected).toBe("b");
    expect(state.highlighted).toEqual(["b", "a", "c"]);
    expect(parseViewState({ sel: ["x", "y"] }).highlighted).toEqual(["x", "y"]);
    expect(parseViewState({ sel: ["x", "y"] }).selected).toBe("x");
  });

  it("writes the selected event first, and no highlights without a selection", () => {
    expect(viewStateQuery({ ...DEFAULT_VIEW_STATE, selected: "c", highlighted: ["a", "c", "b"] })).toBe("sel=c&sel=a&sel=b");
    expect(viewStateQuery({ ...DEFAULT_VIEW_STATE, selected: null, highlighted: ["a", "b"] })).toBe("");
  });

  it("reads and writes at most 200 highlighted ids", () => {
    expect(MAX_HIGHLIGHTED).toBe(200);
    const q = Array.from({ length: 250 }, (_, i) => `sel=e${i}`).join("&");
    const state = parseViewState(new URLSearchParams(q));
    expect(state.highlighted).toHaveLength(200);
    expect(state.highlighted[199]).toBe("e199");
    expect(viewStateQuery({ ...state, selected: "z" }).split("&")).toHaveLength(200);
  });

  it("reads w.<family> overrides like the credit API, and drops an invalid set whole", () => {
    expect(parseViewState(new URLSearchParams("w.cost=-0.3&w.task_success=2")).weights).toEqual({ cost: -0.3, task_success: 2 });
    expect(parseViewState({ "w.cost": "1" }).weights).toEqual({ cost: 1 });
    expect(parseViewState(new URLSearchParams("w.cost=0.5&w.speed=1")).weights).toEqual({});
    expect(parseViewState(new URLSearchParams("w.cost=")).weights).toEqual({});
    expect(parseViewState(new URLSearchParams("w.cost=abc")).weights).toEqual({});
    expect(viewStateQuery({ ...DEFAULT_VIEW_STATE, weights: { cost: 0 } })).toBe("w.cost=0");
  });

  it("hides only temporal edges by default", () => {
    expect(EDGE_TYPES.filter((k) => (DEFAULT_EDGE_MASK & edgeBit(k)) === 0)).toEqual(["temporal"]);
  });

  it("offers exactly the credit methods of lib/credit", () => {
    expect([...CREDIT_METHOD_OPTIONS]).toEqual([...CREDIT_METHODS]);
  });
});
