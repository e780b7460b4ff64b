/**
 * The input of the single-trace heatmap builders: a trace's events in event
 * order joined with their credit (the JSON of `GET /api/traces/{id}/credit`).
 * Working from the API's own numbers is what makes a cell equal to them.
 */
import { clockOf, type Clock } from "../format";
import type { CreditResponse } from "../credit";
import type { Family, Trace } from "../trace/types";
import type { HeatmapCredit } from "./types";

export interface CreditedEvent {
  id: string;
  agent: string;
  /** The event's role, null when it has none. */
  role: string | null;
  type: string;
  t: number;
  /** C(v), or the method's advantage for the baselines. */
  total: number;
  /** w_f x credit_f(v) per family; null for baselines (no per-family credit). */
  weighted: Record<Family, number> | null;
}

export interface CreditedTrace {
  trace_id: string;
  /** In event order. */
  events: CreditedEvent[];
  /** R_f per family: null when the family is absent from this trace (it contributes nothing). */
  families: Record<Family, number | null>;
  credit: HeatmapCredit;
  /** the trace's clock: seconds, or steps for sources without timestamps (metadata.clock = step_index) */
  clock: Clock;
}

/** Joins a trace with its credit response (events matched by id; the response gives event order). */
export function creditedTrace(trace: Pick<Trace, "trace_id" | "events"> & { metadata?: unknown }, credit: CreditResponse): CreditedTrace {
  const byId = new Map(trace.events.map((e) => [e.id, e]));
  const events = credit.events.map((c): CreditedEvent => {
    const e = byId.get(c.id);
    if (!e) throw new Error(`credit names an event "${c.id}" the trace does not have`);
    const families = Object.keys(c.by_family) as Family[];
    const weighted = families.length === 0 ? null : (Object.fromEntries(families.map((f) => [f, credit.weights[f] * c.by_family[f]!])) as Record<Family, number>);
    return { id: e.id, agent: e.agent, role: e.role ?? null, type: e.type, t: e.t, total: c.total, weighted };
  });
  return {
    trace_id: trace.trace_id,
    events,
    families: { ...credit.families },
    credit: { method: credit.method, preset: credit.preset, weights: { ...credit.weights }, normalize: credit.normalize, r_total: credit.r_total },
    clock: clockOf(trace.metadata),
  };
}
