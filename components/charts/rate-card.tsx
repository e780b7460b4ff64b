"use client";

import { scaleLinear, select } from "d3";
import { useEffect, useRef } from "react";
import { formatPercent } from "@/lib/format";
import type { Rate } from "@/lib/dashboard/types";
import { ExportButtons } from "../export/export-buttons";

const W = 440;
const H = 190;

/** E1 success rate with its Wilson 95% interval: the number, and the interval drawn on a 0-100% axis. */
export function RateCard({ rate, scope }: { rate: Rate; scope: string }) {
  const ref = useRef<SVGSVGElement>(null);
  useEffect(() => {
    const svg = select(ref.current!);
    svg.selectAll("*").remove();
    svg.append("rect").attr("class", "fill-white").attr("width", W).attr("height", H);
    svg.append("text").attr("x", 8).attr("y", 20).attr("font-size", 18).attr("font-weight", 600).attr("class", "fill-slate-900").text("E1 task success rate");
    svg.append("text").attr("x", 8).attr("y", 42).attr("font-size", 13).attr("class", "fill-slate-600").text(scope);
    svg.append("text").attr("x", 8).attr("y", 96).attr("font-size", 44).attr("font-weight", 700).attr("class", "fill-slate-900").text(formatPercent(rate.rate, 1));
    svg.append("text").attr("x", 190).attr("y", 74).attr("font-size", 15).attr("class", "fill-slate-700")
      .text(rate.low === null ? "no trace has E1" : `95% interval ${formatPercent(rate.low, 1)}-${formatPercent(rate.high, 1)}`);
    svg.append("text").attr("x", 190).attr("y", 94).attr("font-size", 15).attr("class", "fill-slate-700").text(`Wilson, n = ${rate.n} with E1`);
    const x = scaleLinear().domain([0, 1]).range([16, W - 16]);
    const axis = svg.append("g").attr("font-size", 12).attr("class", "fill-slate-600");
    axis.append("line").attr("x1", x(0)).attr("x2", x(1)).attr("y1", 140).attr("y2", 140).attr("class", "stroke-slate-300").attr("stroke-width", 2);
    for (const t of [0, 0.25, 0.5, 0.75, 1]) {
      axis.append("line").attr("x1", x(t)).attr("x2", x(t)).attr("y1", 136).attr("y2", 144).attr("class", "stroke-slate-400");
      axis.append("text").attr("x", x(t)).attr("y", 164).attr("text-anchor", "middle").text(formatPercent(t));
    }
    if (rate.rate !== null && rate.low !== null && rate.high !== null) {
      svg.append("line").attr("x1", x(rate.low)).attr("x2", x(rate.high)).attr("y1", 140).attr("y2", 140).attr("class", "stroke-blue-600").attr("stroke-width", 8).attr("stroke-linecap", "round");
      svg.append("circle").attr("cx", x(rate.rate)).attr("cy", 140).attr("r", 7).attr("class", "fill-slate-900 stroke-white").attr("stroke-width", 2);
    }
  }, [rate, scope]);
  return (
    <figure className="space-y-1" data-testid="e1-card" data-rate={String(rate.rate)} data-low={String(rate.low)} data-high={String(rate.high)} data-n={rate.n}>
      <ExportButtons selector='[data-testid="e1-card"] svg' title="E1 task success rate" />
      <svg ref={ref} width={W} height={H} viewBox={`0 0 ${W} ${H}`} className="h-auto max-w-full font-sans" role="img" aria-label={`E1 success rate ${formatPercent(rate.rate, 1)}`} data-export-root="" />
    </figure>
  );
}
