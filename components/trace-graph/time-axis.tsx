"use client";
import { scaleLinear } from "d3";
import { useMemo } from "react";
import { axisLabel } from "@/lib/format";
import { ORDER_STEP } from "@/lib/graph-view/layout";
import { useGraphMeta, useLayoutSummary } from "./store/context";
import { useTransform } from "./use-visible-lanes";

/** The x axis above the graph: the trace's own clock (seconds, or steps) in time spacing, event positions in order spacing. */
export function TimeAxis() {
  const layout = useLayoutSummary();
  const meta = useGraphMeta();
  const { x, zoom, width } = useTransform();
  const ticks = useMemo(() => {
    if (!layout || width === 0) return [];
    const toValue = (worldX: number) => (layout.spacing === "time" ? layout.origin + worldX / layout.scale : worldX / ORDER_STEP);
    const toWorld = (value: number) => (layout.spacing === "time" ? (value - layout.origin) * layout.scale : value * ORDER_STEP);
    const domain = [toValue(-x / zoom), toValue((width - x) / zoom)] as const;
    const scale = scaleLinear().domain(domain);
    const format = scale.tickFormat(8);
    return scale
      .ticks(8)
      .filter((v) => layout.spacing === "time" || Number.isInteger(v))
      .map((v) => ({ key: v, left: toWorld(v) * zoom + x, label: format(v) }));
  }, [layout, x, zoom, width]);
  const unit = layout?.spacing === "order" ? "event #" : axisLabel(meta.clock);
  return (
    <div className="relative h-6 shrink-0 overflow-hidden border-b border-slate-200 bg-white text-[11px] text-slate-600" aria-label="Time axis">
      <span className="absolute left-0 top-0 z-10 bg-white px-1 font-medium leading-6 text-slate-500">{unit}</span>
      {ticks.map((t) => (
        <span key={t.key} className="absolute top-0 h-full border-l border-slate-300 pl-1 leading-6 tabular-nums" style={{ left: t.left }}>
          {t.label}
        </span>
      ))}
    </div>
  );
}
