"use client";

import { useRouter } from "next/navigation";
import { useCallback } from "react";
import { graphHref } from "@/lib/heatmap/query";
import type { HeatmapModel } from "@/lib/heatmap/types";
import type { WeightOverrides } from "@/lib/rewards/presets";
import { ExportButtons } from "../export/export-buttons";
import { CellEvents } from "./cell-events";
import { HeatmapChart } from "./heatmap-chart";
import { HeatmapViewProvider, useSelectCell } from "./store";

interface Props {
  /** One heatmap, or a side-by-side comparison (and its difference). */
  panels: HeatmapModel[];
  /** The page's `w.<family>` weight overrides, passed on to the graph links. */
  overrides?: WeightOverrides;
}

/**
 * A heatmap view: panels side by side, each with its export buttons, and
 * the selected cell's events beside them. Clicking a cell of a single trace
 * opens the graph with the cell's first event selected and all of them (at
 * most 200) highlighted (Shift-click only selects it here); a role x family
 * cell spans traces and is listed here.
 */
export function HeatmapView(props: Props) {
  return (
    <HeatmapViewProvider>
      <Panels {...props} />
    </HeatmapViewProvider>
  );
}

function Panels({ panels, overrides }: Props) {
  const router = useRouter();
  const selectCell = useSelectCell();
  const onCellClick = useCallback(
    (panel: number, row: number, column: number, event: MouseEvent) => {
      selectCell({ panel, row, column });
      const model = panels[panel]!;
      const ref = model.cells[row]?.[column]?.refs[0];
      const modified = event.shiftKey || event.metaKey || event.ctrlKey || event.altKey;
      if (model.trace_id !== null && ref && !modified) router.push(graphHref(ref.trace_id, ref.event_ids, model.credit, overrides));
    },
    [panels, overrides, router, selectCell],
  );
  const opensGraph = panels.some((p) => p.trace_id !== null);
  return (
    <div className="flex flex-col gap-6 xl:flex-row xl:items-start">
      <div className="flex min-w-0 flex-1 flex-wrap gap-6">
        {panels.map((model, i) => (
          <figure key={i} className="min-w-0 max-w-full space-y-1">
            <div className="flex flex-wrap items-center gap-2">
              <ExportButtons selector={`[data-testid=heatmap-panel][data-panel="${i}"] svg`} title={model.title} />
              {model.notes.map((note) => (
                <span key={note} className="text-xs text-amber-800" data-testid="heatmap-note">{note}</span>
              ))}
            </div>
            <HeatmapChart model={model} panel={i} onCellClick={onCellClick} />
          </figure>
        ))}
      </div>
      {/* a working aid, not part of a slide: presentation mode leaves it out */}
      <aside className="hide-when-presenting w-full shrink-0 rounded border border-slate-200 bg-white p-3 xl:w-72" data-testid="heatmap-aside">
        <p className="mb-2 text-xs text-slate-600">
          {opensGraph ? "Click a cell to open its events in the graph; Shift-click to list them here." : "Click a cell to list its traces and events."}
        </p>
        <CellEvents panels={panels} overrides={overrides} />
      </aside>
    </div>
  );
}
