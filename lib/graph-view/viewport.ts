/**
 * Viewport arithmetic for the graph view: the world rectangle a viewport
 * shows, whether the drawn scene still covers it (so panning inside the
 * scene's margins never asks the worker for anything), the first viewport
 * of a trace, and the zoom range that lets the whole trace fit.
 */
import type { Scene, WorldRect } from "./scene-types";

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

export interface Size {
  width: number;
  height: number;
}

/** The world rectangle visible in a pane of `pane` pixels under `v` (React Flow: screen = world * zoom + (x, y)). */
export function viewRect(v: Viewport, pane: Size): WorldRect {
  const x0 = -v.x / v.zoom;
  const y0 = -v.y / v.zoom;
  return { x0, y0, x1: x0 + pane.width / v.zoom, y1: y0 + pane.height / v.zoom };
}

/** Zoom changes a clusters-level scene tolerates before its buckets are re-cut. */
const CLUSTER_ZOOM_SLACK = 1.25;

/**
 * True when `scene` still shows everything `view` needs: the view (clipped
 * to the world) lies inside the scene's window and, for clusters, the zoom
 * is close to the one the clusters were cut for.
 */
export function sceneCovers(scene: Scene | null, view: WorldRect, zoom: number, world: Size): boolean {
  if (!scene) return false;
  const x0 = Math.max(0, view.x0);
  const y0 = Math.max(0, view.y0);
  const x1 = Math.min(world.width, view.x1);
  const y1 = Math.min(world.height, view.y1);
  const w = scene.window;
  const eps = 0.5;
  const inside = x0 >= w.x0 - eps && y0 >= w.y0 - eps && x1 <= w.x1 + eps && y1 <= w.y1 + eps;
  if (!inside) return false;
  if (scene.level === "clusters") return zoom / scene.zoom <= CLUSTER_ZOOM_SLACK && scene.zoom / zoom <= CLUSTER_ZOOM_SLACK;
  return true;
}

/** The zoom at which the whole world fits the pane, with `padding` (a fraction) around it. */
export function fitZoom(world: Size, pane: Size, padding = 0.05): number {
  const w = Math.max(1, world.width);
  const h = Math.max(1, world.height);
  return Math.min(pane.width / (w * (1 + 2 * padding)), pane.height / (h * (1 + 2 * padding)));
}

/** Below this zoom a whole-trace fit is unreadable; the first view then starts at the trace's beginning instead. */
export const READABLE_FIT_ZOOM = 0.35;
export const MAX_ZOOM = 2.5;

/** Screen pixels above the first lane in the first view (room for a stop badge). */
const TOP_MARGIN = 16;

/**
 * World units that marks stick out of the world's box: the STOP badge above
 * its event (and wider than it), the id captions to the right of the last
 * events. A fitted view includes them, so nothing is cut at the pane's edge.
 */
export const MARK_OVERHANG = { top: 24, right: 112 } as const;

/** The world's box with the marks that stick out of it, for fitting. */
export function drawnBounds(world: Size): { x: number; y: number; width: number; height: number } {
  return { x: 0, y: -MARK_OVERHANG.top, width: world.width + MARK_OVERHANG.right, height: world.height + MARK_OVERHANG.top };
}

/** The zoom a long trace opens at: single events, glyphs a little smaller than 1:1. */
export const START_ZOOM = 0.6;

/**
 * The first viewport of a trace: the whole trace when it fits readably (at
 * most 1:1, centred across, lanes from the top); else its beginning (the orchestrator's first steps) with single
 * events drawn, at START_ZOOM or closer when all lanes fit at up to 1:1.
 */
export function initialViewport(world: Size, pane: Size): Viewport {
  const drawn = drawnBounds(world);
  const fit = fitZoom(drawn, pane);
  if (fit >= READABLE_FIT_ZOOM) {
    const zoom = Math.min(1, fit);
    return { x: (pane.width - drawn.width * zoom) / 2, y: TOP_MARGIN, zoom };
  }
  const zoom = Math.min(1, Math.max(START_ZOOM, pane.height / Math.max(1, world.height)));
  return { x: 16, y: TOP_MARGIN, zoom };
}

/** The lowest zoom the view allows: a little below the whole-trace fit. */
export function minZoomFor(world: Size, pane: Size): number {
  return Math.min(0.5, fitZoom(world, pane) * 0.8);
}
