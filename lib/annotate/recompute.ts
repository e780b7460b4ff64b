/**
 * Which labels change the stored per-trace metrics. Credit is computed on
 * read, so an event-level label (or a trace-level label of any family but
 * task_success) changes nothing that is stored: only trace-level
 * task_success labels decide E1 (SPEC.md section 4) and, through E1, the
 * stop verdict. Writes recompute the stored columns for those labels only.
 */
export function labelChangesStoredMetrics(unit: { event_id?: string | null; family: string }): boolean {
  return !unit.event_id && unit.family === "task_success";
}
