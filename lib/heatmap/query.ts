/**
 * The heatmap views' URL state, shared by the API routes and the pages (a
 * shared link reproduces the view): kind, bucket count, event rows page,
 * and, on the page only, the side-by-side comparison and the selected cell.
 * Credit parameters (`method`, `preset`, `normalize`, `w.<family>`) are the
 * credit API's own and are read by its parser.
 */
import { z } from "zod";
import { DEFAULT_BUCKETS, MAX_BUCKETS, MIN_BUCKETS } from "./buckets";
import { DEFAULT_EVENT_ROWS, MAX_EVENT_ROWS } from "./event-family";
import { TRACE_HEATMAP_KINDS } from "./types";

export const traceHeatmapQuery = z.object({
  kind: z.enum(TRACE_HEATMAP_KINDS).default("agent-time"),
  buckets: z.coerce.number().int().min(MIN_BUCKETS).max(MAX_BUCKETS).default(DEFAULT_BUCKETS),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_EVENT_ROWS).default(DEFAULT_EVENT_ROWS),
});
export type TraceHeatmapQuery = z.infer<typeof traceHeatmapQuery>;

const text = z.string().trim().min(1).max(500).optional();

export const DEFAULT_MAX_TRACES = 200;
export const MAX_TRACES = 1000;

/** `GET /api/heatmap` and `/heatmaps`: which traces, and how many at most (the model says when more matched). */
export const roleHeatmapQuery = z.object({
  kind: z.literal("role-family").default("role-family"),
  project: text,
  system: text,
  task_id: text,
  group_id: text,
  max_traces: z.coerce.number().int().min(1).max(MAX_TRACES).default(DEFAULT_MAX_TRACES),
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

/**
 * The graph view of a trace with one event selected and the credit overlay
 * under the same method, preset and normalize (the graph's URL state, see
 * lib/graph-view/view-state.ts). The graph selects one event; a cell's other
 * events are listed beside the heatmap.
 */
export function graphHref(traceId: string, eventId: string | undefined, credit: { method: string; preset: string; normalize: boolean }): string {
  const q = new URLSearchParams();
  if (eventId !== undefined) q.set("sel", eventId);
  q.set("ov", "credit");
  if (credit.method !== "ccp") q.set("method", credit.method);
  if (credit.preset !== "uniform") q.set("preset", credit.preset);
  if (credit.normalize) q.set("norm", "1");
  return `/traces/${encodeURIComponent(traceId)}/graph?${q.toString()}`;
}
