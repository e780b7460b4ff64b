"use client";

import { select } from "d3";
import { useEffect, useId, useMemo, useRef } from "react";
import { formatValue } from "@/lib/format";
import type { HeatmapModel } from "@/lib/heatmap/types";
import { useSuspectIds } from "../attribution/suspect-ids";
import { drawHeatmap } from "./draw";
import { heatmapLayout } from "./layout";
import { useHoverCell, useHoveredCell, useSelectedCell } from "./store";

interface Props {
  model: HeatmapModel;
  /** Index of this heatmap among the view's panels. */
  panel: number;
  onCellClick: (panel: number, row: number, column: number, event: MouseEvent) => void;
}

/** One heatmap: d3 draws the model into an SVG (exportable as is); React only adds the hover card. */
export function HeatmapChart({ model, panel, onCellClick }: Props) {
  const svgRef = useRef<SVGSVGElement>(null);
  const layout = useMemo(() => heatmapLayout(model), [model]);
  const gradientId = `heatmap-gradient-${useId().replace(/[^a-zA-Z0-9_-]/g, "")}`;
  const hover = useHoverCell();
  const selected = useSelectedCell();
  const clickRef = useRef(onCellClick);
  useEffect(() => {
    clickRef.current = onCellClick;
  }, [onCellClick]);

  useEffect(() => {
    const svg = svgRef.current!;
    drawHeatmap(svg, model, layout, gradientId, {
      // the card sits in fractions of the drawing, so it stays put however the SVG is scaled (or the page zoomed)
      onHover: (cell) => hover(cell && { panel, row: cell.row, column: cell.column, left: cell.x / layout.width, top: cell.y / layout.height }),
      onClick: (row, column, event) => clickRef.current(panel, row, column, event),
    });
  }, [model, layout, gradientId, hover, panel]);

  // cells holding a suspect of the blame panel beside the heatmap: a dashed rose outline
  const suspects = useSuspectIds();
  useEffect(() => {
    const L = layout;
    const wanted = new Set(suspects);
    const marked = model.trace_id === null || wanted.size === 0 ? [] : model.cells.flatMap((row, r) => row.flatMap((cell, c) => (cell.refs.some((ref) => ref.event_ids.some((id) => wanted.has(id))) ? [{ row: r, column: c }] : [])));
    select(svgRef.current!)
      .selectAll("rect.heatmap-suspect")
      .data(marked)
      .join("rect")
      .attr("class", "heatmap-suspect stroke-rose-700")
      .attr("data-testid", "heatmap-suspect")
      .attr("data-row", (d) => d.row)
      .attr("data-col", (d) => d.column)
      .attr("fill", "none")
      .attr("stroke-width", 2.5)
      .attr("stroke-dasharray", "5 3")
      .attr("pointer-events", "none")
      .attr("x", (d) => L.left + d.column * L.cellWidth + 2)
      .attr("y", (d) => L.top + d.row * L.cellHeight + 2)
      .attr("width", L.cellWidth - 4)
      .attr("height", L.cellHeight - 4);
  }, [suspects, layout, model]);

  const mine = selected?.panel === panel ? selected : null;
  useEffect(() => {
    const L = layout;
    select(svgRef.current!)
      .selectAll("rect.heatmap-selection")
      .data(mine && mine.row < model.rows.length && mine.column < model.columns.length ? [mine] : [])
      .join("rect")
      .attr("class", "heatmap-selection stroke-slate-900")
      .attr("data-testid", "heatmap-selection")
      .attr("fill", "none")
      .attr("stroke-width", 3)
      .attr("pointer-events", "none")
      .attr("x", (d) => L.left + d.column * L.cellWidth)
      .attr("y", (d) => L.top + d.row * L.cellHeight)
      .attr("width", L.cellWidth)
      .attr("height", L.cellHeight);
  }, [mine, layout, model]);

  return (
    <div className="relative" data-testid="heatmap-panel" data-panel={panel}>
      <svg
        ref={svgRef}
        role="img"
        aria-label={`${model.title}. ${model.subtitle}`}
        data-testid="heatmap"
        data-export-root=""
        data-kind={model.kind}
        data-rows={model.rows.length}
        data-cols={model.columns.length}
        width={layout.width}
        height={layout.height}
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        className="h-auto max-w-full font-sans"
      />
      <HoverCard model={model} panel={panel} />
    </div>
  );
}

function HoverCard({ model, panel }: { model: HeatmapModel; panel: number }) {
  const hovered = useHoveredCell();
  if (!hovered || hovered.panel !== panel) return null;
  const cell = model.cells[hovered.row]?.[hovered.column];
  if (!cell) return null;
  const ids = cell.refs.flatMap((r) => r.event_ids);
  return (
    <div
      role="tooltip"
      data-testid="heatmap-hover"
      className="pointer-events-none absolute z-10 max-w-xs rounded border border-slate-300 bg-white px-3 py-2 text-sm shadow-lg"
      style={{ left: `${hovered.left * 100}%`, top: `${hovered.top * 100}%` }}
    >
      <div className="font-medium">{model.rows[hovered.row]!.detail}</div>
      <div className="text-slate-600">{model.columns[hovered.column]!.detail}</div>
      <div className="mt-1 font-mono text-base" data-testid="heatmap-hover-value">{formatValue(cell.value, 4)}</div>
      <div className="text-xs text-slate-600">
        {cell.n} {cell.n === 1 ? model.count_label.replace(/s$/, "") : model.count_label}
        {ids.length > 0 && model.kind !== "role-family" && `: ${ids.slice(0, 6).join(", ")}${ids.length > 6 ? ` and ${ids.length - 6} more` : ""}`}
      </div>
    </div>
  );
}
