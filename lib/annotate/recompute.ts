/**
 * Which stored per-trace values a label can change, so that a write
 * recomputes only those. Credit is computed on read, so an
 * event-level label changes nothing that is stored (event-level values never
 * enter R_total, SPEC.md section 2). A trace-level label sets its family's
 * R_f and so the R_total stored for the decision analytics (trace_decisions).
 * Only a trace-level task_success label also decides E1 (SPEC.md section 4)
 * and, through E1, the stop verdict and the hacking diagnostics (which read
 * the same labels as the metric columns).
 */
export type StoredChange = "nothing" | "r_total" | "metrics";

export function storedValuesChangedBy(unit: { event_id?: string | null; family: string }): StoredChange {
  if (unit.event_id) return "nothing";
  return unit.family === "task_success" ? "metrics" : "r_total";
}

/** The widest of several changes (a queue submission writes several families at once). */
export function widestChange(changes: Iterable<StoredChange>): StoredChange {
  let widest: StoredChange = "nothing";
  for (const c of changes) if (c === "metrics" || (c === "r_total" && widest === "nothing")) widest = c;
  return widest;
}
