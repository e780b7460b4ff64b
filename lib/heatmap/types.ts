/**
 * The ready-to-draw credit heatmap: the JSON of `GET /api/traces/{id}/heatmap`
 * and `GET /api/heatmap`. The server decides every number (cells, domain,
 * legend ticks, labels); the d3 component only draws them. A cell without a
 * value is `null`, drawn as a gap, never as 0.
 */
import type { CreditMethod } from "../credit";
import type { SpecVersion } from "../metrics/types";
import type { Family } from "../trace/types";

export const HEATMAP_KINDS = ["agent-time", "event-family", "role-family"] as const;
export type HeatmapKind = (typeof HEATMAP_KINDS)[number];
/** The kinds drawn for one trace (role-family spans traces). */
export const TRACE_HEATMAP_KINDS = ["agent-time", "event-family"] as const satisfies readonly HeatmapKind[];

/** Key of the column that holds the whole credit C(v) beside the eight families. */
export const TOTAL_COLUMN = "total";

export interface HeatmapAxisItem {
  /** Stable key (agent name, event id, family, `b<k>` for a time bucket). */
  key: string;
  /** What the axis prints. */
  label: string;
  /** Longer text for the hover card (an event's type and agent, a bucket's bounds). */
  detail: string;
}

/** Events behind a cell, per trace (one entry for the single-trace kinds). */
export interface CellRef {
  trace_id: string;
  /** In event order. */
  event_ids: string[];
}

export interface HeatmapCell {
  /** The aggregate of the kind (see `value_label`); null: no value, a gap. */
  value: number | null;
  /** Events (single trace) or traces (role-family) that gave the value. */
  n: number;
  refs: CellRef[];
}

export interface HeatmapCredit {
  method: CreditMethod;
  preset: string;
  weights: Record<Family, number>;
  normalize: boolean;
  /** R_total of the trace; null for role-family (one per trace). */
  r_total: number | null;
}

export interface HeatmapModel {
  version: SpecVersion;
  kind: HeatmapKind;
  title: string;
  /** Method, preset and scope in words, printed under the title (and exported with it). */
  subtitle: string;
  row_label: string;
  column_label: string;
  /** How a cell's value is made, in words (legend caption). */
  value_label: string;
  /** What `n` counts: "events" or "traces". */
  count_label: string;
  rows: HeatmapAxisItem[];
  columns: HeatmapAxisItem[];
  /** cells[row][column]. */
  cells: HeatmapCell[][];
  /** Colour domain, symmetric around 0: [-m, m] with m the largest |value| (1 when there is none). */
  domain: [number, number];
  /** Legend ticks, from -m to m. */
  ticks: number[];
  credit: HeatmapCredit;
  /** Single-trace kinds: the trace; role-family: null. */
  trace_id: string | null;
  /** Rows shown out of how many (event-family pages its rows; never cut without saying so). */
  page: { offset: number; limit: number; total: number };
  /** Caveats to print beside the heatmap (a baseline without per-family credit, traces skipped, ...). */
  notes: string[];
}
