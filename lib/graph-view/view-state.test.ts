import { describe, expect, it } from "vitest";
import { CREDIT_METHODS } from "../credit";
import { EDGE_TYPES } from "../trace/types";
import { CREDIT_METHOD_OPTIONS, DEFAULT_VIEW_STATE, parseViewState, viewStateQuery, type ViewState } from "./view-state";
import { DEFAULT_EDGE_MASK, edgeBit } from "./visual";

describe("view state in the URL", () => {
  it("writes nothing for the default view", () => {
    expect(viewStateQuery(DEFAULT_VIEW_STATE)).toBe("");
    expect(parseViewState(new URLSearchParams(""))).toEqual(DEFAULT_VIEW_STATE);
  });

  it("round-trips every field", () => {
    const state: ViewState = {
      selected: "e6",
      edgeMask: edgeBit("spawn") | edgeBit("temporal"),
      overlays: ["credit", "taint"],
      method: "terminal",
      preset: "code_generation",
      normalize: true,
      spacing: "order",
      viewport: { x: -120.25, y: 33, zoom: 0.012345678 },
    };
    const query = viewStateQuery(state);
    expect(query).toBe("sel=e6&edges=temporal%2Cspawn&ov=credit%2Ctaint&method=terminal&preset=code_generation&norm=1&x=order&v=-120.3%2C33%2C0.012346");
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

  it("hides only temporal edges by default", () => {
    expect(EDGE_TYPES.filter((k) => (DEFAULT_EDGE_MASK & edgeBit(k)) === 0)).toEqual(["temporal"]);
  });

  it("offers exactly the credit methods of lib/credit", () => {
    expect([...CREDIT_METHOD_OPTIONS]).toEqual([...CREDIT_METHODS]);
  });
});
