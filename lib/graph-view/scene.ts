/**
 * Level of detail: which events, clusters and edges to draw for a viewport.
 * Pure and O(events in the window + their edges), using the layout's
 * per-lane sorted index, so it can run on every settled pan or zoom.
 */
import { EDGE_TYPES } from "../trace/types";
import { clusterScene } from "./scene-clusters";
import {
  DEFAULT_SCENE_OPTIONS,
  eventNodeId,
  type Scene,
  type SceneEdge,
  type SceneEvent,
  type SceneOptions,
  type SceneQuery,
  type SceneSource,
  type WorldRect,
} from "./scene-types";
import { nodeY, type Layout } from "./layout";
import { forEachInWindow, nextGeneration, type SceneScratch } from "./scene-window";

export * from "./scene-types";
export { createSceneScratch, forEachInWindow, type SceneScratch } from "./scene-window";

/** The scene for one viewport. */
export function computeScene(source: SceneSource, query: SceneQuery, scratch: SceneScratch, options: SceneOptions = DEFAULT_SCENE_OPTIONS): Scene {
  // A small trace is drawn whole: panning it never needs a new scene.
  const small = source.layout.x.length <= options.wholeTraceMax;
  const window = small ? { x0: 0, y0: 0, x1: source.layout.width, y1: source.layout.height } : expandWindow(query.view, source.layout, options);
  const [laneFrom, laneTo] = lanesIn(source.layout, window.y0, window.y1);
  const enoughZoom = small || query.zoom >= options.minDetailZoom;
  const count = enoughZoom ? countEvents(source.layout, laneFrom, laneTo, window, options.detailBudget + 1) : Infinity;
  if (count <= options.detailBudget) return eventScene(source, query, scratch, window, laneFrom, laneTo);
  return clusterScene(source, query, scratch, window, laneFrom, laneTo, options);
}

/** The visible rectangle grown by the margins, clipped to the world. */
export function expandWindow(view: WorldRect, world: { width: number; height: number }, options: SceneOptions): WorldRect {
  const mx = (view.x1 - view.x0) * options.marginX;
  const my = (view.y1 - view.y0) * options.marginY;
  return {
    x0: Math.max(0, view.x0 - mx),
    y0: Math.max(0, view.y0 - my),
    x1: Math.min(world.width, view.x1 + mx),
    y1: Math.min(world.height, view.y1 + my),
  };
}

/** First and last lane (inclusive) overlapping [y0, y1]; laneTo < laneFrom when none. */
export function lanesIn(layout: Layout, y0: number, y1: number): [number, number] {
  const lanes = layout.laneTop.length - 1;
  if (lanes === 0 || y1 < 0 || y0 > layout.height) return [0, -1];
  const from = Math.max(0, upperBound(layout.laneTop, y0) - 1);
  const to = Math.min(lanes - 1, lowerBound(layout.laneTop, y1) - 1);
  return [from, Math.max(from, to)];
}

function countEvents(layout: Layout, laneFrom: number, laneTo: number, window: WorldRect, stopAt: number): number {
  let count = 0;
  forEachInWindow(layout, laneFrom, laneTo, window, () => ++count < stopAt);
  return count;
}

function eventScene(source: SceneSource, query: SceneQuery, scratch: SceneScratch, window: WorldRect, laneFrom: number, laneTo: number): Scene {
  const { layout, edges } = source;
  const gen = nextGeneration(scratch);
  const events: SceneEvent[] = [];
  forEachInWindow(layout, laneFrom, laneTo, window, (s) => {
    scratch.stamp[s] = gen;
    const credit = source.credit ? source.credit[s]! : NaN;
    events.push({
      seq: s,
      id: source.ids[s]!,
      label: source.labels[s]!,
      type: source.type[s]!,
      lane: layout.lane[s]!,
      roles: source.roles[s]!,
      credit: Number.isNaN(credit) ? null : credit,
      x: layout.x[s]!,
      y: nodeY(layout, s),
      w: layout.w[s]!,
      bar: layout.spacing === "time" && !Number.isNaN(source.tEnd[s]!),
    });
  });
  const sceneEdges: SceneEdge[] = [];
  let notDrawn = 0;
  for (const ev of events) {
    const s = ev.seq;
    for (let p = edges.outStart[s]!; p < edges.outStart[s + 1]!; p++) {
      const e = edges.out[p]!;
      if ((query.edgeMask & (1 << edges.kind[e]!)) === 0) continue;
      const d = edges.dst[e]!;
      if (scratch.stamp[d] !== gen) {
        notDrawn++;
        continue;
      }
      sceneEdges.push({ key: `x${e}`, source: eventNodeId(s), target: eventNodeId(d), kind: edges.kind[e]!, count: 1, src: s, dst: d });
    }
    for (let p = edges.intoStart[s]!; p < edges.intoStart[s + 1]!; p++) {
      const e = edges.into[p]!;
      if ((query.edgeMask & (1 << edges.kind[e]!)) !== 0 && scratch.stamp[edges.src[e]!] !== gen) notDrawn++;
    }
  }
  return { level: "events", window, zoom: query.zoom, events, clusters: [], edges: sceneEdges, eventsInWindow: events.length, edgesNotDrawn: notDrawn, lanesPerBand: 1 };
}

/** All edge kinds visible. */
export const ALL_EDGES_MASK = (1 << EDGE_TYPES.length) - 1;

/** First index in sorted `a` with a[i] >= value. */
function lowerBound(a: Float64Array, value: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in sorted `a` with a[i] > value. */
function upperBound(a: Float64Array, value: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
