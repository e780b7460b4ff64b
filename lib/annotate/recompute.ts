/**
 * Which labels change the stored per-trace values. Credit is computed on
 * read, so an event-level label changes nothing that is stored (event-level
 * values never change R_total, SPEC.md section 2). A trace-level label does:
 * task_success decides E1 (SPEC.md section 4) and, through E1, the stop
 * verdict; a trace-level label of any family sets its R_f and so the R_total
 * stored for the decision analytics (trace_decisions). Writes recompute the
 * stored columns for those labels only.
 */
export function labelChangesStoredMetrics(unit: { event_id?: string | null; family: string }): boolean {
  return !unit.event_id;
}
