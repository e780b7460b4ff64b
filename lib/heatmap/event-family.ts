/**
 * Event x family: one row per event (event order), one column per reward
 * family plus C(v). A family cell is the event's weighted credit from that
 * family, w_f x credit_f(v), so a row's family cells sum to its C(v) cell.
 * Gaps (null): every family cell under a baseline method (they have no
 * per-family credit), and the column of a family that is absent from the
 * trace (no R_f) and credits no event. Long traces are paged, never cut.
 */
import { SPEC_VERSION } from "../metrics/types";
import { FAMILIES, type Family } from "../trace/types";
import type { CreditedEvent, CreditedTrace } from "./credited";
import { creditSubtitle, FAMILY_LABELS, methodName } from "./labels";
import { legendTicks, symmetricDomain } from "./scale";
import { TOTAL_COLUMN, type HeatmapAxisItem, type HeatmapCell, type HeatmapModel } from "./types";

export const DEFAULT_EVENT_ROWS = 200;
export const MAX_EVENT_ROWS = 2000;

export interface EventRowsPage {
  offset: number;
  limit: number;
}

export function buildEventFamilyHeatmap(trace: CreditedTrace, page: EventRowsPage = { offset: 0, limit: DEFAULT_EVENT_ROWS }): HeatmapModel {
  const { events } = trace;
  const silent = new Set<Family>(FAMILIES.filter((f) => trace.families[f] === null && events.every((e) => (e.weighted?.[f] ?? 0) === 0)));
  const baseline = events.length > 0 && events[0]!.weighted === null;
  const valueOf = (e: CreditedEvent, column: string): number | null => {
    if (column === TOTAL_COLUMN) return e.total;
    if (e.weighted === null || silent.has(column as Family)) return null;
    return e.weighted[column as Family];
  };

  const columns: HeatmapAxisItem[] = [
    ...FAMILIES.map((f) => ({ key: f, label: FAMILY_LABELS[f], detail: `w_f x credit_f(v), family ${f} (weight ${trace.credit.weights[f]})` })),
    { key: TOTAL_COLUMN, label: "C(v)", detail: baseline ? `the ${methodName(trace.credit.method)} value of the event` : "C(v) = sum of the family cells" },
  ];
  // The domain spans the whole trace, so colours mean the same on every page.
  const domain = symmetricDomain(events.flatMap((e) => columns.map((c) => valueOf(e, c.key))));
  const shown = events.slice(page.offset, page.offset + page.limit);
  const rows: HeatmapAxisItem[] = shown.map((e) => ({ key: e.id, label: e.id, detail: `${e.type} · ${e.agent} · t=${e.t}` }));
  const cells: HeatmapCell[][] = shown.map((e) =>
    columns.map((c) => ({ value: valueOf(e, c.key), n: 1, refs: [{ trace_id: trace.trace_id, event_ids: [e.id] }] })),
  );

  const notes: string[] = [];
  if (baseline) notes.push(`${methodName(trace.credit.method)} gives no per-family credit: the family columns are gaps; C(v) is the method's value.`);
  else if (silent.size > 0) notes.push(`Absent from this trace (no R_f, no credit): ${[...silent].map((f) => FAMILY_LABELS[f]).join(", ")}.`);
  if (shown.length < events.length) notes.push(`Events ${page.offset + 1}-${page.offset + shown.length} of ${events.length}.`);
  return {
    version: SPEC_VERSION,
    kind: "event-family",
    title: `Credit by event and family: ${trace.trace_id}`,
    subtitle: creditSubtitle(trace.credit),
    row_label: "event (event order)",
    column_label: "reward family",
    value_label: "w_f x credit_f(v); last column C(v)",
    count_label: "events",
    rows,
    columns,
    cells,
    domain,
    ticks: legendTicks(domain),
    credit: trace.credit,
    trace_id: trace.trace_id,
    page: { offset: page.offset, limit: page.limit, total: events.length },
    notes,
  };
}
