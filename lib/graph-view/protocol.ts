/**
 * Messages between the graph view and its layout worker. Every request
 * carries an id; the worker answers each id once: with a result, an error,
 * or "cancelled" when a newer request of the same kind superseded it.
 */
import type { Spacing } from "./layout";
import type { OverviewGrid } from "./overview";
import type { Scene, SceneQuery } from "./scene-types";
import type { GraphMeta } from "./wire";
import type { RTotalPart } from "../rewards/breakdown";

export interface LayoutSummary {
  spacing: Spacing;
  width: number;
  height: number;
  /** World units per second (time) or per event (order). */
  scale: number;
  origin: number;
  /** Top of each lane, then the world height. */
  laneTop: number[];
}

export interface EdgeRef {
  seq: number;
  id: string;
  label: string;
  /** Index into EDGE_TYPES. */
  kind: number;
}

/** One event as the worker knows it: its columns, position and edges (content and full fields come from the API). */
export interface EventBrief {
  seq: number;
  id: string;
  label: string;
  type: number;
  lane: number;
  roles: number;
  credit: number | null;
  x: number;
  y: number;
  w: number;
  incoming: EdgeRef[];
  outgoing: EdgeRef[];
}

export interface FindResult {
  /** Seq of the event whose id equals the text, or null. */
  exact: number | null;
  matches: { seq: number; id: string; label: string }[];
}

export interface CreditSummary {
  /** Largest |credit| over all events (the colour scale's half-width). */
  extent: number;
  method: string;
  preset: string;
  normalize: boolean;
  r_total: number;
  /** what each family adds to R_total (w_f x R_f) */
  r_total_parts: RTotalPart[];
}

export type WorkerRequest =
  | {
      kind: "load";
      id: number;
      traceId: string;
      meta: GraphMeta;
      origin: string;
      spacing: Spacing;
      /** Event pages the page already fetched, as raw JSON bytes (transferred); null slots are fetched by the worker. */
      prefetched: (ArrayBuffer | null)[];
    }
  | { kind: "layout"; id: number; spacing: Spacing }
  | { kind: "scene"; id: number; spacing: Spacing; query: SceneQuery }
  | { kind: "credit"; id: number; query: string | null }
  | { kind: "describe"; id: number; seq: number; spacing: Spacing }
  | { kind: "find"; id: number; text: string }
  | { kind: "lineage"; id: number; seq: number };

export interface LayoutResult {
  layout: LayoutSummary;
  overview: OverviewGrid;
}

export interface WorkerResults {
  load: LayoutResult;
  layout: LayoutResult;
  scene: Scene;
  credit: CreditSummary | null;
  describe: EventBrief;
  find: FindResult;
  lineage: Uint8Array;
}

export type WorkerKind = WorkerRequest["kind"];

export type WorkerResponse =
  | { id: number; status: "ok"; kind: WorkerKind; result: WorkerResults[WorkerKind] }
  | { id: number; status: "error"; message: string }
  | { id: number; status: "cancelled" }
  | { id: number; status: "progress"; loaded: number; total: number };
