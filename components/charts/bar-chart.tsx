"use client";

import { max, scaleBand, scaleLinear, select } from "d3";
import { useEffect, useRef } from "react";
import type { Bar } from "@/lib/dashboard/types";
import { ExportButtons } from "../export/export-buttons";

interface Props {
  id: string;
  title: string;
  subtitle?: string;
  bars: Bar[];
  xLabel: string;
  selected: string | null;
  onBarClick: (key: string) => void;
  width?: number;
}

const HEIGHT = 290;
const M = { top: 60, right: 12, bottom: 66, left: 46 };

/**
 * Counts as bars (a histogram, verdicts, E1 outcomes), drawn by d3 into an
 * exportable SVG with its title. Null bars stand apart, grey and dashed,
 * labelled "null": nulls are counted, never mixed with values.
 */
export function BarChart({ id, title, subtitle, bars, xLabel, selected, onBarClick, width = 420 }: Props) {
  const ref = useRef<SVGSVGElement>(null);
  const clickRef = useRef(onBarClick);
  useEffect(() => {
    clickRef.current = onBarClick;
  }, [onBarClick]);

  useEffect(() => {
    const svg = select(ref.current!);
    svg.selectAll("*").remove();
    svg.append("rect").attr("class", "fill-white").attr("width", width).attr("height", HEIGHT);
    svg.append("text").attr("x", 8).attr("y", 22).attr("font-size", 18).attr("font-weight", 600).attr("class", "fill-slate-900").text(title);
    if (subtitle) svg.append("text").attr("x", 8).attr("y", 42).attr("font-size", 13).attr("class", "fill-slate-600").text(subtitle);
    // the null bar keeps a gap of one bar from the values
    const slots = bars.flatMap((b, i) => (b.null && i > 0 && !bars[i - 1]!.null ? [`gap-${i}`, b.key] : [b.key]));
    const x = scaleBand<string>().domain(slots).range([M.left, width - M.right]).padding(0.15);
    const y = scaleLinear().domain([0, Math.max(1, max(bars, (b) => b.count) ?? 1)]).nice().range([HEIGHT - M.bottom, M.top]);
    const axis = svg.append("g").attr("font-size", 12).attr("class", "fill-slate-600");
    for (const t of y.ticks(4).filter(Number.isInteger)) {
      axis.append("line").attr("x1", M.left).attr("x2", width - M.right).attr("y1", y(t)).attr("y2", y(t)).attr("class", "stroke-slate-200");
      axis.append("text").attr("x", M.left - 6).attr("y", y(t)).attr("text-anchor", "end").attr("dominant-baseline", "central").text(t);
    }
    const g = svg.append("g").selectAll("g").data(bars).join("g").attr("data-testid", "bar").attr("data-key", (b) => b.key).attr("data-count", (b) => b.count).style("cursor", "pointer").on("click", (_, b) => clickRef.current(b.key));
    g.append("rect")
      .attr("x", (b) => x(b.key)!)
      .attr("width", x.bandwidth())
      .attr("y", (b) => y(b.count))
      .attr("height", (b) => Math.max(b.count > 0 ? 1 : 0, y(0) - y(b.count)))
      .attr("class", (b) => (b.null ? "fill-slate-300 stroke-slate-500" : "fill-blue-600"))
      .attr("stroke-dasharray", (b) => (b.null ? "3 2" : null))
      .attr("stroke-width", (b) => (b.key === selected ? 3 : b.null ? 1 : 0))
      .attr("stroke", (b) => (b.key === selected ? "currentColor" : null));
    // an invisible full-height target, so a 0 or short bar is still easy to click
    g.append("rect").attr("data-testid", "bar-target").attr("x", (b) => x(b.key)!).attr("width", x.bandwidth()).attr("y", M.top).attr("height", y(0) - M.top).attr("fill", "transparent")
      .append("title").text((b) => `${b.label}: ${b.count} trace${b.count === 1 ? "" : "s"}${b.null ? " (null)" : ""}. Click to list them.`);
    g.append("text").attr("x", (b) => x(b.key)! + x.bandwidth() / 2).attr("y", (b) => y(b.count) - 4).attr("text-anchor", "middle").attr("font-size", 13).attr("class", "fill-slate-700").text((b) => b.count);
    const rotate = bars.some((b) => b.label.length * 7 > x.step());
    g.append("text")
      .attr("font-size", 12)
      .attr("class", (b) => (b.null ? "fill-slate-500" : "fill-slate-700"))
      .attr("font-style", (b) => (b.null ? "italic" : null))
      .attr("transform", (b) => `translate(${x(b.key)! + x.bandwidth() / 2},${HEIGHT - M.bottom + 14})${rotate ? " rotate(-35)" : ""}`)
      .attr("text-anchor", rotate ? "end" : "middle")
      .text((b) => b.label);
    svg.append("text").attr("x", width / 2).attr("y", HEIGHT - 6).attr("text-anchor", "middle").attr("font-size", 12).attr("class", "fill-slate-600").text(xLabel);
  }, [bars, title, subtitle, xLabel, selected, width]);

  return (
    <figure className="space-y-1" data-testid={`chart-${id}`}>
      <ExportButtons selector={`[data-testid="chart-${id}"] svg`} title={title} />
      <svg ref={ref} width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} className="h-auto max-w-full font-sans" role="img" aria-label={title} data-export-root="" />
    </figure>
  );
}
