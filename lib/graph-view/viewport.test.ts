import { describe, expect, it } from "vitest";
import type { Scene } from "./scene-types";
import { fitZoom, initialViewport, minZoomFor, sceneCovers, viewRect } from "./viewport";

const scene = (level: Scene["level"], zoom: number): Scene => ({
  level,
  zoom,
  window: { x0: 100, y0: 0, x1: 500, y1: 300 },
  events: [],
  clusters: [],
  edges: [],
  eventsInWindow: 0,
  edgesNotDrawn: 0,
  lanesPerBand: 1,
});
const world = { width: 1000, height: 300 };

describe("viewRect", () => {
  it("inverts React Flow's transform", () => {
    expect(viewRect({ x: -200, y: 50, zoom: 2 }, { width: 400, height: 100 })).toEqual({ x0: 100, y0: -25, x1: 300, y1: 25 });
  });
});

describe("sceneCovers", () => {
  it("is true while the view stays inside the scene's window", () => {
    expect(sceneCovers(scene("events", 1), { x0: 150, y0: 10, x1: 450, y1: 200 }, 3, world)).toBe(true);
    expect(sceneCovers(scene("events", 1), { x0: 50, y0: 10, x1: 450, y1: 200 }, 1, world)).toBe(false);
  });

  it("ignores the part of the view outside the world", () => {
    expect(sceneCovers(scene("events", 1), { x0: 150, y0: -80, x1: 450, y1: 900 }, 1, world)).toBe(true);
  });

  it("re-cuts clusters when the zoom moves by more than a quarter", () => {
    const view = { x0: 150, y0: 10, x1: 450, y1: 200 };
    expect(sceneCovers(scene("clusters", 1), view, 1.2, world)).toBe(true);
    expect(sceneCovers(scene("clusters", 1), view, 1.3, world)).toBe(false);
    expect(sceneCovers(scene("clusters", 1), view, 0.7, world)).toBe(false);
    expect(sceneCovers(null, view, 1, world)).toBe(false);
  });
});

describe("first viewport", () => {
  it("fits a small trace with the marks that stick out of it (112 px of captions right), centred across, from the top, never above 1:1", () => {
    const v = initialViewport({ width: 400, height: 200 }, { width: 1000, height: 500 });
    expect(v).toEqual({ x: 244, y: 16, zoom: 1 });
    // a pane 300 px wide: (400 + 112) * 1.1 fits at zoom 300 / 563.2; the drawing is centred, its right end inside the pane
    const narrow = initialViewport({ width: 400, height: 200 }, { width: 300, height: 500 });
    expect(narrow.zoom).toBeCloseTo(300 / 563.2);
    expect(narrow.x + (400 + 112) * narrow.zoom).toBeLessThanOrEqual(300);
    expect(narrow.x).toBeGreaterThanOrEqual(0);
  });

  it("starts a long trace at its beginning, single events drawn, all lanes in view if they fit at up to 1:1", () => {
    const small = { width: 1000, height: 500 };
    expect(fitZoom({ width: 100_000, height: 2000 }, small)).toBeCloseTo(1000 / 110_000);
    expect(initialViewport({ width: 100_000, height: 2000 }, small)).toEqual({ x: 16, y: 16, zoom: 0.6 });
    expect(initialViewport({ width: 100_000, height: 400 }, small)).toEqual({ x: 16, y: 16, zoom: 1 });
    expect(initialViewport({ width: 100_000, height: 625 }, small)).toEqual({ x: 16, y: 16, zoom: 0.8 });
    expect(minZoomFor({ width: 100_000, height: 2000 }, small)).toBeCloseTo((0.8 * 1000) / 110_000);
  });
});
