"use client";

import Link from "next/link";
import { formatValue } from "@/lib/format";
import { graphCapNote, graphHref, graphLinkCapped } from "@/lib/heatmap/query";
import type { HeatmapModel } from "@/lib/heatmap/types";
import type { WeightOverrides } from "@/lib/rewards/presets";
import { useSelectedCell } from "./store";

/**
 * Every event of the selected cell, each a link that opens the graph with
 * that event selected, and (single trace) one link that opens the graph with
 * all of them highlighted (at most 200, said in its title when capped).
 */
export function CellEvents({ panels, overrides }: { panels: readonly HeatmapModel[]; overrides?: WeightOverrides }) {
  const selected = useSelectedCell();
  const model = selected ? panels[selected.panel] : undefined;
  const cell = model && selected ? model.cells[selected.row]?.[selected.column] : undefined;
  if (!model || !selected || !cell) {
    return <p className="text-sm text-slate-600" data-testid="cell-events-empty">Select a cell to list its events here.</p>;
  }
  return (
    <section data-testid="cell-events" aria-label="Events of the selected cell" className="space-y-2 text-sm">
      <h2 className="text-base font-semibold">
        {model.rows[selected.row]!.label} × {model.columns[selected.column]!.label}
      </h2>
      <p>
        <span className="font-mono text-lg" data-testid="cell-events-value">{formatValue(cell.value, 4)}</span>{" "}
        <span className="text-slate-600">
          ({cell.n} {cell.n === 1 ? model.count_label.replace(/s$/, "") : model.count_label})
        </span>
      </p>
      {cell.refs.map((ref) => (
        <div key={ref.trace_id}>
          {model.kind === "role-family" && (
            <Link href={`/traces/${encodeURIComponent(ref.trace_id)}/heatmap?kind=event-family`} className="break-all font-mono text-blue-700 hover:underline">
              {ref.trace_id}
            </Link>
          )}
          {model.trace_id !== null && ref.event_ids.length > 1 && (
            <Link
              href={graphHref(ref.trace_id, ref.event_ids, model.credit, overrides)}
              title={graphLinkCapped(ref.event_ids) ? graphCapNote(ref.event_ids.length) : undefined}
              data-testid="cell-events-graph-link"
              data-capped={graphLinkCapped(ref.event_ids) ? "true" : undefined}
              className="text-blue-700 hover:underline"
            >
              All {ref.event_ids.length.toLocaleString("en")} events in the graph
            </Link>
          )}
          <ul className="mt-1 flex flex-wrap gap-1">
            {ref.event_ids.map((id) => (
              <li key={id}>
                <Link href={graphHref(ref.trace_id, id, model.credit, overrides)} data-testid="cell-event-link" className="inline-block rounded border border-slate-300 px-1.5 py-0.5 font-mono text-blue-700 hover:bg-slate-100">
                  {id}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ))}
      {cell.refs.length === 0 && <p className="text-slate-600">No events: this cell is a gap.</p>}
    </section>
  );
}
