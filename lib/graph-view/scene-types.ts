/**
 * What the renderer draws for one viewport: either every event in a window
 * around it ("events" level) or, when that would be too many, clusters of
 * events by lane band and time bucket ("clusters" level). Plain objects,
 * cheap to post from the worker; at most a few thousand of them.
 */
import type { Layout } from "./layout";
import type { EdgeIndex } from "./edges";

export interface SceneEvent {
  seq: number;
  id: string;
  label: string;
  /** Index into EVENT_TYPES. */
  type: number;
  lane: number;
  roles: number;
  /** Credit total under the loaded method, or null when none is loaded. */
  credit: number | null;
  x: number;
  y: number;
  w: number;
  /** Drawn as a bar (the event has a `t_end` and time spacing is on). */
  bar: boolean;
}

export interface SceneCluster {
  key: string;
  x: number;
  y: number;
  w: number;
  h: number;
  count: number;
  /** The most frequent event type (index into EVENT_TYPES). */
  type: number;
  /** Role flags of the members OR-ed together (any member tainted, any error, ...). */
  roles: number;
  /** Mean credit of the members, or null. */
  credit: number | null;
  laneFrom: number;
  laneTo: number;
  seqMin: number;
  seqMax: number;
}

export interface SceneEdge {
  key: string;
  /** Node ids (see eventNodeId / clusterNodeId). */
  source: string;
  target: string;
  /** Index into EDGE_TYPES (the most frequent kind for a bundle). */
  kind: number;
  /** Edges bundled into this one (1 at the events level). */
  count: number;
  /** Seq numbers of the endpoints at the events level, -1 for bundles. */
  src: number;
  dst: number;
}

export interface WorldRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface Scene {
  level: "events" | "clusters";
  /** The world rectangle the scene covers (the viewport plus margins). */
  window: WorldRect;
  zoom: number;
  events: SceneEvent[];
  clusters: SceneCluster[];
  edges: SceneEdge[];
  /** Events inside the window (at the clusters level: how many were clustered). */
  eventsInWindow: number;
  /** Edges of the visible kinds that touch the window but are not drawn (other end outside it, or over budget). */
  edgesNotDrawn: number;
  /** Lanes per band at the clusters level (1 at the events level). */
  lanesPerBand: number;
}

export interface SceneQuery {
  /** The visible world rectangle. */
  view: WorldRect;
  zoom: number;
  /** Bit i set: edges of kind EDGE_TYPES[i] are drawn. */
  edgeMask: number;
}

export interface SceneOptions {
  /** A trace with at most this many events is drawn whole, wherever the view is (no re-query on pan, a complete minimap). */
  wholeTraceMax: number;
  /** Most events drawn one by one; above it the scene clusters. */
  detailBudget: number;
  /** Below this zoom the scene always clusters (glyphs would be a few pixels). */
  minDetailZoom: number;
  /** Screen width of one time bucket at the clusters level. */
  clusterPx: number;
  /** Lanes are grouped into bands at least this many screen pixels tall. */
  minBandPx: number;
  /** Window margin on each side, as a fraction of the visible width / height. */
  marginX: number;
  marginY: number;
  /** Most bundled edges drawn at the clusters level. */
  clusterEdgeBudget: number;
}

export const DEFAULT_SCENE_OPTIONS: SceneOptions = {
  wholeTraceMax: 600,
  detailBudget: 1500,
  minDetailZoom: 0.2,
  clusterPx: 36,
  minBandPx: 18,
  marginX: 0.5,
  marginY: 0.35,
  clusterEdgeBudget: 1500,
};

/** Everything a scene is computed from. Columns are indexed by seq. */
export interface SceneSource {
  readonly layout: Layout;
  readonly edges: EdgeIndex;
  readonly ids: readonly string[];
  readonly labels: readonly string[];
  readonly type: Uint8Array;
  readonly roles: Uint16Array;
  /** NaN where there is no `t_end`. */
  readonly tEnd: Float64Array;
  /** Credit per event (NaN: none), or null when no credit is loaded. */
  readonly credit: Float64Array | null;
}

export const eventNodeId = (seq: number) => `ev-${seq}`;
export const clusterNodeId = (key: string) => `cl-${key}`;
