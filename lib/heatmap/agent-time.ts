/**
 * Agent x time: one row per agent (in the order agents first act), one
 * column per equal-width time bucket of event start times. A cell is the sum
 * of C(v) over the agent's events that start in the bucket; a cell without
 * events is null (a gap), never 0.
 */
import { SPEC_VERSION } from "../metrics/types";
import { timeBuckets, formatBound } from "./buckets";
import type { CreditedTrace } from "./credited";
import { creditSubtitle } from "./labels";
import { cellValues, legendTicks, symmetricDomain } from "./scale";
import type { HeatmapAxisItem, HeatmapCell, HeatmapModel } from "./types";

export function buildAgentTimeHeatmap(trace: CreditedTrace, buckets: number): HeatmapModel {
  const { events } = trace;
  const agentRow = new Map<string, number>();
  for (const e of events) if (!agentRow.has(e.agent)) agentRow.set(e.agent, agentRow.size);
  const b = timeBuckets(events.length > 0 ? events.map((e) => e.t) : [0], buckets);

  const cells: HeatmapCell[][] = Array.from({ length: agentRow.size }, () =>
    Array.from({ length: b.count }, () => ({ value: null, n: 0, refs: [] })),
  );
  for (const e of events) {
    const cell = cells[agentRow.get(e.agent)!]![b.indexOf(e.t)]!;
    cell.value = (cell.value ?? 0) + e.total;
    cell.n++;
    if (cell.refs.length === 0) cell.refs.push({ trace_id: trace.trace_id, event_ids: [] });
    cell.refs[0]!.event_ids.push(e.id);
  }

  const rows: HeatmapAxisItem[] = [...agentRow.keys()].map((agent) => ({ key: agent, label: agent, detail: `agent ${agent}` }));
  const columns: HeatmapAxisItem[] = Array.from({ length: b.count }, (_, k) => {
    const last = k === b.count - 1;
    return {
      key: `b${k}`,
      label: formatBound(b.edges[k]!),
      detail: `t in [${formatBound(b.edges[k]!)}, ${formatBound(b.edges[k + 1]!)}${last ? "]" : ")"}${trace.clock === "steps" ? " (steps)" : " s"}`,
    };
  });
  const domain = symmetricDomain(cellValues(cells));
  const notes = b.count < buckets && events.length > 0 ? ["Every event starts at the same time: one time bucket."] : [];
  return {
    version: SPEC_VERSION,
    kind: "agent-time",
    title: `Credit by agent and time: ${trace.trace_id}`,
    subtitle: creditSubtitle(trace.credit),
    row_label: "agent",
    column_label: `event start ${trace.clock === "steps" ? "step" : "time (s)"}, ${b.count} bucket${b.count === 1 ? "" : "s"}`,
    value_label: "sum of C(v) over the cell's events",
    count_label: "events",
    rows,
    columns,
    cells,
    domain,
    ticks: legendTicks(domain),
    credit: trace.credit,
    trace_id: trace.trace_id,
    page: { offset: 0, limit: rows.length, total: rows.length },
    notes,
  };
}
