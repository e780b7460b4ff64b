/**
 * The heatmap views' URL state, shared by the API routes and the pages (a
 * shared link reproduces the view): kind, bucket count, event rows page,
 * and, on the page only, the side-by-side comparison and the selected cell.
 * Credit parameters (`method`, `preset`, `normalize`, `w.<family>`) are the
 * credit API's own and are read by its parser.
 */
import { z } from "zod";
import { decimalInt, filterText, PG_INT_MAX } from "../api/params";
import { MAX_HIGHLIGHTED, weightParams } from "../graph-view/view-state";
import type { WeightOverrides } from "../rewards/presets";
import { DEFAULT_BUCKETS, MAX_BUCKETS, MIN_BUCKETS } from "./buckets";
import { DEFAULT_EVENT_ROWS, MAX_EVENT_ROWS } from "./event-family";
import { TRACE_HEATMAP_KINDS } from "./types";

export const traceHeatmapQuery = z.object({
  kind: z.enum(TRACE_HEATMAP_KINDS).default("agent-time"),
  buckets: decimalInt(MIN_BUCKETS, MAX_BUCKETS).default(DEFAULT_BUCKETS),
  offset: decimalInt(0, PG_INT_MAX).default(0),
  limit: decimalInt(1, MAX_EVENT_ROWS).default(DEFAULT_EVENT_ROWS),
});
export type TraceHeatmapQuery = z.infer<typeof traceHeatmapQuery>;

const text = filterText.optional();

export const DEFAULT_MAX_TRACES = 200;
export const MAX_TRACES = 1000;

/** `GET /api/heatmap` and `/heatmaps`: which traces, and how many at most (the model says when more matched). */
export const roleHeatmapQuery = z.object({
  kind: z.literal("role-family").default("role-family"),
  project: text,
  system: text,
  task_id: text,
  group_id: text,
  max_traces: decimalInt(1, MAX_TRACES).default(DEFAULT_MAX_TRACES),
});
export type RoleHeatmapQuery = z.infer<typeof roleHeatmapQuery>;

/** A selected cell in the URL: `cell=<panel>.<row>.<column>` (indexes into the panels and rows on screen). */
export interface CellSelection {
  panel: number;
  row: number;
  column: number;
}

export function parseCell(raw: string | string[] | undefined): CellSelection | null {
  const match = /^(\d{1,2})\.(\d{1,6})\.(\d{1,6})$/.exec(typeof raw === "string" ? raw : "");
  return match ? { panel: Number(match[1]), row: Number(match[2]), column: Number(match[3]) } : null;
}

export function cellParam(cell: CellSelection): string {
  return `${cell.panel}.${cell.row}.${cell.column}`;
}

/** Most event ids a graph link carries (the graph highlights at most this many). */
export const MAX_GRAPH_EVENTS = MAX_HIGHLIGHTED;

/** Whether a link to these events leaves some out (see MAX_GRAPH_EVENTS). */
export function graphLinkCapped(eventIds: readonly string[]): boolean {
  return eventIds.length > MAX_GRAPH_EVENTS;
}

/** Said in a title attribute when a cell's graph link leaves events out. */
export function graphCapNote(n: number): string {
  return `The graph highlights the first ${MAX_GRAPH_EVENTS.toLocaleString("en")} of these ${n.toLocaleString("en")} events (a link carries at most ${MAX_GRAPH_EVENTS}).`;
}

/**
 * The graph view of a trace with events selected and the credit overlay
 * under the same method, preset, normalize and weight overrides (the graph's
 * URL state, see lib/graph-view/view-state.ts). `sel` repeats, one per
 * event, first to last, at most MAX_GRAPH_EVENTS: the graph inspects the
 * first and highlights all of them.
 */
export function graphHref(
  traceId: string,
  eventIds: string | readonly string[] | undefined,
  credit: { method: string; preset: string; normalize: boolean },
  overrides: WeightOverrides = {},
): string {
  const q = new URLSearchParams();
  const ids = eventIds === undefined ? [] : typeof eventIds === "string" ? [eventIds] : eventIds;
  for (const id of ids.slice(0, MAX_GRAPH_EVENTS)) q.append("sel", id);
  q.set("ov", "credit");
  if (credit.method !== "ccp") q.set("method", credit.method);
  if (credit.preset !== "uniform") q.set("preset", credit.preset);
  if (credit.normalize) q.set("norm", "1");
  for (const [key, value] of weightParams(overrides)) q.set(key, value);
  return `/traces/${encodeURIComponent(traceId)}/graph?${q.toString()}`;
}
