/**
 * `GET /api/traces/{id}/annotations/rows`: the label view's rows, a page
 * at a time, read straight from the stored events (no graph build), so
 * that a 100,000-event trace's first page costs what a small trace's does.
 * Rows are in event order; row k of a page has seq `from + k`.
 */
import { z } from "zod";
import { decimalInt, PG_INT_MAX } from "../api/params";

export const LABEL_ROWS_PAGE_MAX = 20_000;

export const labelRowsQuery = z.object({
  from: decimalInt(0, PG_INT_MAX).default(0),
  limit: decimalInt(1, LABEL_ROWS_PAGE_MAX).default(LABEL_ROWS_PAGE_MAX),
});

export interface LabelRowWire {
  id: string;
  type: string;
  agent: string;
  /** eventSummary of the event's fields: no content */
  summary: string;
  /** the dataset's own step (lib/trace/steps.ts), null when the trace has none */
  step: number | null;
}

export interface LabelRowsPage {
  /** events in the trace */
  total: number;
  /** seq of the terminal event (the last aggregate in event order, else the last event): task_success's anchor */
  terminal: number;
  /** seq of the last stop decision, null when there is none (stop_decision then anchors on the terminal) */
  stop: number | null;
  from: number;
  /** where the next page starts, null after the last */
  next: number | null;
  rows: LabelRowWire[];
}
