/**
 * Draws a heatmap model into an <svg> with d3: title, axes labels, cells,
 * printed values when they fit, and the legend (gradient over the symmetric
 * domain, its ticks, and the gap swatch), all inside the SVG so that an
 * export carries them. Nulls get no fill: a dashed outline marks the gap.
 */
import { select } from "d3";
import { cleanFloat, formatValue } from "@/lib/format";
import { graphCapNote, graphLinkCapped } from "@/lib/heatmap/query";
import type { HeatmapModel } from "@/lib/heatmap/types";
import { cellColour, textOn } from "./colour";
import type { HeatmapLayout } from "./layout";

export interface DrawHandlers {
  onHover: (cell: { row: number; column: number; x: number; y: number } | null) => void;
  onClick: (row: number, column: number, event: MouseEvent) => void;
}

interface Datum {
  row: number;
  column: number;
  value: number | null;
  n: number;
}

export function drawHeatmap(svgNode: SVGSVGElement, model: HeatmapModel, L: HeatmapLayout, gradientId: string, handlers: DrawHandlers): void {
  const svg = select(svgNode);
  svg.selectAll("*").remove();
  svg.append("rect").attr("class", "fill-white").attr("width", L.width).attr("height", L.height);
  svg.append("text").attr("x", 12).attr("y", 30).attr("class", "fill-slate-900").attr("font-size", 22).attr("font-weight", 600).text(model.title);
  svg.append("text").attr("x", 12).attr("y", 56).attr("class", "fill-slate-600").attr("font-size", 15).text(model.subtitle);

  const x = (c: number) => L.left + c * L.cellWidth;
  const y = (r: number) => L.top + r * L.cellHeight;
  // each label is a <g> holding its <text> and a <title> (the hover detail), so the text itself stays just the label
  const columns = svg.append("g").attr("class", "fill-slate-700").attr("font-size", 15)
    .selectAll("g")
    .data(model.columns)
    .join("g")
    .attr("transform", (_, c) => (L.rotateColumns ? `translate(${x(c) + L.cellWidth / 2 + 4},${L.top - 8}) rotate(-40)` : `translate(${x(c) + L.cellWidth / 2},${L.top - 10})`));
  columns.append("title").text((d) => d.detail);
  columns.append("text").attr("data-testid", "heatmap-column").attr("text-anchor", L.rotateColumns ? "start" : "middle").text((d) => d.label);
  const rows = svg.append("g").attr("class", "fill-slate-700").attr("font-size", 15)
    .selectAll("g")
    .data(model.rows)
    .join("g")
    .attr("transform", (_, r) => `translate(${L.left - 8},${y(r) + L.cellHeight / 2})`);
  rows.append("title").text((d) => d.detail);
  rows.append("text").attr("data-testid", "heatmap-row").attr("dominant-baseline", "central").attr("text-anchor", "end").text((d) => d.label);

  const data: Datum[] = model.cells.flatMap((row, r) => row.map((cell, c) => ({ row: r, column: c, value: cell.value, n: cell.n })));
  svg.append("g")
    .selectAll("rect")
    .data(data)
    .join("rect")
    .attr("data-testid", "heatmap-cell")
    .attr("data-row", (d) => d.row)
    .attr("data-col", (d) => d.column)
    .attr("data-value", (d) => (d.value === null ? "null" : String(d.value)))
    .attr("x", (d) => x(d.column) + 1)
    .attr("y", (d) => y(d.row) + 1)
    .attr("width", L.cellWidth - 2)
    .attr("height", L.cellHeight - 2)
    .attr("rx", 2)
    .attr("class", (d) => (d.value === null ? "stroke-slate-300" : ""))
    .attr("fill", (d) => (d.value === null ? "none" : cellColour(d.value, model.domain)))
    .attr("stroke-dasharray", (d) => (d.value === null ? "3 3" : null))
    .style("cursor", (d) => (d.n > 0 ? "pointer" : "default"))
    .on("mouseenter", (event: MouseEvent, d) => handlers.onHover({ row: d.row, column: d.column, x: x(d.column) + L.cellWidth, y: y(d.row) }))
    .on("mouseleave", () => handlers.onHover(null))
    .on("click", (event: MouseEvent, d) => d.n > 0 && handlers.onClick(d.row, d.column, event))
    .append("title")
    .text((d) => {
      const text = `${model.rows[d.row]!.label} × ${model.columns[d.column]!.label}: ${formatValue(d.value, 4)} (${d.n} ${model.count_label})`;
      const ids = model.trace_id !== null ? (model.cells[d.row]?.[d.column]?.refs[0]?.event_ids ?? []) : [];
      return graphLinkCapped(ids) ? `${text}. ${graphCapNote(ids.length)}` : text;
    });

  if (L.printValues) {
    svg.append("g").attr("font-size", 14).attr("pointer-events", "none")
      .selectAll("text")
      .data(data.filter((d) => d.value !== null))
      .join("text")
      .attr("x", (d) => x(d.column) + L.cellWidth / 2)
      .attr("y", (d) => y(d.row) + L.cellHeight / 2)
      .attr("text-anchor", "middle")
      .attr("dominant-baseline", "central")
      .attr("fill", (d) => textOn(cellColour(d.value!, model.domain)))
      .text((d) => cellLabel(d.value!));
  }
  drawLegend(svg, model, L, gradientId);
}

/** A value printed in its cell: two decimals, or one significant digit below 0.01 (never a bare "-0"). */
export function cellLabel(raw: number): string {
  const v = cleanFloat(raw);
  if (v === 0) return "0";
  return Math.abs(v) >= 0.01 ? formatValue(v, 2) : v.toPrecision(1);
}

type Svg = ReturnType<typeof select<SVGSVGElement, unknown>>;

function drawLegend(svg: Svg, model: HeatmapModel, L: HeatmapLayout, gradientId: string): void {
  const width = 320;
  const left = 12;
  const gradient = svg.append("defs").append("linearGradient").attr("id", gradientId);
  for (let i = 0; i <= 10; i++) {
    const value = model.domain[0] + ((model.domain[1] - model.domain[0]) * i) / 10;
    gradient.append("stop").attr("offset", `${i * 10}%`).attr("stop-color", cellColour(value, model.domain));
  }
  svg.append("text").attr("x", left).attr("y", L.legendTop).attr("class", "fill-slate-600").attr("font-size", 13)
    .text(`rows: ${model.row_label} · columns: ${model.column_label}`);
  const legend = svg.append("g").attr("data-testid", "heatmap-legend").attr("transform", `translate(${left},${L.legendTop + 26})`);
  legend.append("text").attr("class", "fill-slate-700").attr("font-size", 14).attr("y", 0).text(`colour: ${model.value_label}`);
  legend.append("rect").attr("y", 10).attr("width", width).attr("height", 20).attr("fill", `url(#${gradientId})`).attr("class", "stroke-slate-400");
  const [low, high] = model.domain;
  legend.append("g").attr("class", "fill-slate-700").attr("font-size", 13)
    .selectAll("text")
    .data(model.ticks)
    .join("text")
    .attr("data-testid", "legend-tick")
    .attr("x", (t) => (high > low ? ((t - low) / (high - low)) * width : width / 2))
    .attr("y", 48)
    .attr("text-anchor", (_, i) => (i === 0 ? "start" : i === model.ticks.length - 1 ? "end" : "middle"))
    .text((t) => formatValue(t, 3));
  legend.append("text").attr("class", "fill-slate-600").attr("font-size", 13).attr("y", 70).text("red: blame (< 0) · white: 0 · blue: credit (> 0)");
  const gap = legend.append("g").attr("transform", `translate(${width + 28},10)`);
  gap.append("rect").attr("width", 26).attr("height", 20).attr("rx", 2).attr("fill", "none").attr("stroke-dasharray", "3 3").attr("class", "stroke-slate-400");
  gap.append("text").attr("x", 34).attr("y", 15).attr("class", "fill-slate-700").attr("font-size", 13).text("gap: no value (never 0)");
}
