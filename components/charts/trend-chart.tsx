"use client";

import { extent, scaleBand, scaleLinear, select } from "d3";
import { useEffect, useRef } from "react";
import { formatPercent, formatValue } from "@/lib/format";
import type { Trend, TrendPoint } from "@/lib/dashboard/types";
import { ExportButtons } from "../export/export-buttons";

interface Props {
  id: string;
  trend: Trend;
  metric: { key: string; label: string };
  selected: string | null;
  onPointClick: (key: string) => void;
}

const PANEL = 160;
const M = { top: 84, left: 56, right: 16, gap: 56, bottom: 80 };

/**
 * A trend over days or checkpoints: E1 rate with its Wilson interval on top,
 * the mean of one metric below. A point without a value is a gap in the
 * line, never a drop to 0. Clicking a point lists its traces.
 */
export function TrendChart({ id, trend, metric, selected, onPointClick }: Props) {
  const ref = useRef<SVGSVGElement>(null);
  const clickRef = useRef(onPointClick);
  useEffect(() => {
    clickRef.current = onPointClick;
  }, [onPointClick]);
  const width = Math.min(960, Math.max(520, M.left + M.right + trend.points.length * 60));
  const height = M.top + PANEL * 2 + M.gap + M.bottom;

  useEffect(() => {
    const svg = select(ref.current!);
    svg.selectAll("*").remove();
    svg.append("rect").attr("class", "fill-white").attr("width", width).attr("height", height);
    svg.append("text").attr("x", 8).attr("y", 22).attr("font-size", 18).attr("font-weight", 600).attr("class", "fill-slate-900").text(trend.title);
    svg.append("text").attr("x", 8).attr("y", 42).attr("font-size", 13).attr("class", "fill-slate-600").text("E1 rate, bar: 95% Wilson interval");
    svg.append("text").attr("x", 8).attr("y", 60).attr("font-size", 13).attr("class", "fill-slate-600").text(`below: mean ${metric.label} · a gap: no value`);
    const points = trend.points;
    if (points.length === 0) {
      svg.append("text").attr("x", width / 2).attr("y", height / 2).attr("text-anchor", "middle").attr("class", "fill-slate-500").text("No traces");
      return;
    }
    const x = scaleBand<string>().domain(points.map((p) => p.key)).range([M.left, width - M.right]).padding(0.3);
    const cx = (p: TrendPoint) => x(p.key)! + x.bandwidth() / 2;
    const top = M.top;
    const bottom = M.top + PANEL + M.gap;
    const yRate = scaleLinear().domain([0, 1]).range([top + PANEL, top]);
    const means = points.map((p) => p.means[metric.key] ?? null);
    const [lo = 0, hi = 1] = extent(means.filter((v): v is number => v !== null));
    const yMean = scaleLinear().domain([Math.min(0, lo), hi > Math.min(0, lo) ? hi : Math.min(0, lo) + 1]).nice().range([bottom + PANEL, bottom]);

    const axis = (y: typeof yRate, ticks: number[], format: (v: number) => string, label: string, y0: number) => {
      const g = svg.append("g").attr("font-size", 12).attr("class", "fill-slate-600");
      for (const t of ticks) {
        g.append("line").attr("x1", M.left).attr("x2", width - M.right).attr("y1", y(t)).attr("y2", y(t)).attr("class", "stroke-slate-200");
        g.append("text").attr("x", M.left - 6).attr("y", y(t)).attr("text-anchor", "end").attr("dominant-baseline", "central").text(format(t));
      }
      g.append("text").attr("x", M.left).attr("y", y0 - 10).attr("font-size", 13).attr("font-weight", 600).attr("class", "fill-slate-700").text(label);
    };
    axis(yRate, [0, 0.5, 1], (v) => formatPercent(v), "E1 success rate", top);
    axis(yMean, yMean.ticks(3), (v) => formatValue(v, 2), `mean ${metric.label}`, bottom);

    // a line runs only between consecutive points that both have a value and are joined (the model says which)
    const segments = (values: (number | null)[], y: (v: number) => number) =>
      points.flatMap((p, i) => (i > 0 && p.joined && values[i] !== null && values[i - 1] !== null ? [`M${cx(points[i - 1]!)},${y(values[i - 1]!)}L${cx(p)},${y(values[i]!)}`] : [])).join("");
    svg.append("path").attr("fill", "none").attr("class", "stroke-blue-600").attr("stroke-width", 2).attr("d", segments(points.map((p) => p.e1.rate), yRate));
    svg.append("path").attr("fill", "none").attr("class", "stroke-slate-700").attr("stroke-width", 2).attr("d", segments(means, yMean));

    const g = svg.append("g").selectAll("g").data(points).join("g").attr("data-testid", "trend-point").attr("data-key", (p) => p.key).style("cursor", "pointer").on("click", (_, p) => clickRef.current(p.key));
    g.append("rect").attr("x", (p) => x(p.key)!).attr("width", x.bandwidth()).attr("y", top).attr("height", bottom + PANEL - top).attr("fill", "transparent")
      .attr("class", (p) => (p.key === selected ? "stroke-slate-900" : "")).attr("stroke-width", (p) => (p.key === selected ? 2 : 0))
      .append("title").text((p) => `${p.label}: ${p.traces} traces, E1 ${formatPercent(p.e1.rate, 1)} (n=${p.e1.n}), mean ${metric.label} ${formatValue(p.means[metric.key] ?? null)}`);
    const withRate = g.filter((p) => p.e1.rate !== null);
    withRate.append("line").attr("x1", cx).attr("x2", cx).attr("y1", (p) => yRate(p.e1.low!)).attr("y2", (p) => yRate(p.e1.high!)).attr("class", "stroke-blue-300").attr("stroke-width", 6).attr("stroke-linecap", "round");
    withRate.append("circle").attr("cx", cx).attr("cy", (p) => yRate(p.e1.rate!)).attr("r", 5).attr("class", "fill-blue-700");
    g.filter((p) => p.means[metric.key] !== null && p.means[metric.key] !== undefined)
      .append("circle").attr("cx", cx).attr("cy", (p) => yMean(p.means[metric.key]!)).attr("r", 4).attr("class", "fill-slate-700");
    const rotate = points.some((p) => p.label.length * 7 > x.step());
    g.append("text").attr("font-size", 12).attr("class", "fill-slate-700")
      .attr("transform", (p) => `translate(${cx(p)},${bottom + PANEL + 16})${rotate ? " rotate(-35)" : ""}`)
      .attr("text-anchor", rotate ? "end" : "middle").text((p) => p.label);
    if (!rotate) g.append("text").attr("font-size", 12).attr("class", "fill-slate-600").attr("x", cx).attr("y", bottom + PANEL + 32).attr("text-anchor", "middle").text((p) => `n=${p.traces}`);
    svg.append("text").attr("x", width / 2).attr("y", height - 6).attr("text-anchor", "middle").attr("font-size", 12).attr("class", "fill-slate-600").text(trend.x_label);
  }, [trend, metric, selected, width, height]);

  return (
    <figure className="space-y-1" data-testid={`chart-${id}`}>
      <ExportButtons selector={`[data-testid="chart-${id}"] svg`} title={trend.title} />
      <svg ref={ref} width={width} height={height} viewBox={`0 0 ${width} ${height}`} className="h-auto max-w-full font-sans" role="img" aria-label={trend.title} data-export-root="" />
    </figure>
  );
}
