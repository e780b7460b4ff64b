import { describe, expect, it } from "vitest";
import { EDGE_TYPES, EVENT_TYPES } from "../trace/types";
import { EDGE_VISUALS, EVENT_VISUALS, ICON_OFFSET, SHAPE_PATHS } from "./visual";

describe("visual encoding", () => {
  it("gives each of the 10 event types its own shape, colour and icon", () => {
    const visuals = EVENT_TYPES.map((t) => EVENT_VISUALS[t]);
    expect(new Set(visuals.map((v) => v.shape)).size).toBe(10);
    expect(new Set(visuals.map((v) => v.colour)).size).toBe(10);
    expect(new Set(visuals.map((v) => v.icon)).size).toBe(10);
    for (const v of visuals) {
      expect(SHAPE_PATHS[v.shape]).toMatch(/^M/);
      expect(ICON_OFFSET[v.shape]).toHaveLength(2);
    }
  });

  it("gives each of the 8 edge kinds its own colour, and its own colour-and-dash pair", () => {
    const visuals = EDGE_TYPES.map((k) => EDGE_VISUALS[k]);
    expect(new Set(visuals.map((v) => v.colour)).size).toBe(8);
    expect(new Set(visuals.map((v) => `${v.colour}|${v.dash}`)).size).toBe(8);
  });
});
