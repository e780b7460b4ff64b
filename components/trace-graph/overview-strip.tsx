"use client";
import { brush as d3brush, interpolateBlues, pointer, select, type BrushBehavior, type D3BrushEvent } from "d3";
import { useCallback, useEffect, useRef, useState } from "react";
import type { OverviewGrid } from "@/lib/graph-view/overview";
import { useGraphActions, useGraphStore, useGraphStoreApi } from "./store/context";
import type { GraphState } from "./store/state";
import { useTransform } from "./use-visible-lanes";

const HEIGHT = 72;
const selectOverview = (s: GraphState) => s.overview;

/** Event density over the whole trace, errors and taint in red. */
function draw(canvas: HTMLCanvasElement, grid: OverviewGrid, width: number) {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(HEIGHT * ratio);
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, HEIGHT); // the strip's own background shows through (light or dark theme)
  const cw = width / grid.cols;
  const ch = HEIGHT / grid.rows;
  const logMax = Math.log1p(grid.maxCount);
  for (let r = 0; r < grid.rows; r++) {
    for (let c = 0; c < grid.cols; c++) {
      const count = grid.counts[r * grid.cols + c]!;
      if (count === 0) continue;
      ctx.fillStyle = interpolateBlues(0.3 + (0.7 * Math.log1p(count)) / logMax);
      ctx.fillRect(c * cw, r * ch, Math.max(1, cw), Math.max(1, ch));
      const marks = grid.marks[r * grid.cols + c]!;
      if (marks > 0) {
        ctx.fillStyle = `rgba(220, 38, 38, ${0.35 + 0.65 * (marks / count)})`;
        ctx.fillRect(c * cw, r * ch + ch / 2, Math.max(1, cw), Math.max(1, ch / 2));
      }
    }
  }
}

/**
 * The overview strip: the whole trace at a glance, with a brush showing the
 * window drawn in full. Drag or resize the brush to choose that window;
 * click to centre the view there.
 */
export function OverviewStrip() {
  const grid = useGraphStore(selectOverview);
  const actions = useGraphActions();
  const store = useGraphStoreApi();
  const { x, y, zoom, width: paneWidth, height: paneHeight } = useTransform();
  const [width, setWidth] = useState(0);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const groupRef = useRef<SVGGElement>(null);
  const brushRef = useRef<BrushBehavior<unknown> | null>(null);

  const measure = useCallback((element: HTMLDivElement | null) => {
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => entry && setWidth(Math.floor(entry.contentRect.width)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (grid && canvasRef.current && width > 0) draw(canvasRef.current, grid, width);
  }, [grid, width]);

  // The brush: user gestures move the view; programmatic moves (below) have no sourceEvent and are ignored.
  useEffect(() => {
    const svg = svgRef.current;
    const group = groupRef.current;
    if (!svg || !group || !grid || width === 0) return;
    const toWorld = (sx: number, sy: number) => [(sx / width) * grid.width, (sy / HEIGHT) * grid.height] as const;
    const behaviour = d3brush<unknown>()
      .extent([[0, 0], [width, HEIGHT]])
      .on("end", (event: D3BrushEvent<unknown>) => {
        if (!event.sourceEvent) return;
        const selection = event.selection as [[number, number], [number, number]] | null;
        if (selection) {
          const [x0, y0] = toWorld(selection[0][0], selection[0][1]);
          const [x1, y1] = toWorld(selection[1][0], selection[1][1]);
          actions.showWindow({ x0, y0, x1, y1 });
        } else {
          const [px, py] = pointer(event.sourceEvent, svg);
          const [wx, wy] = toWorld(px, py);
          const view = store.getState().viewport;
          const pane = store.getState().pane;
          if (view && pane) actions.showWindow({ x0: wx - pane.width / view.zoom / 2, y0: wy - pane.height / view.zoom / 2, x1: wx + pane.width / view.zoom / 2, y1: wy + pane.height / view.zoom / 2 });
        }
      });
    brushRef.current = behaviour;
    select(group).call(behaviour);
    select(group).select(".selection").attr("fill", "#0f172a").attr("fill-opacity", 0.08).attr("stroke", "#0f172a").attr("stroke-width", 1.5);
    return () => {
      select(group).on(".brush", null).selectAll("*").remove();
      brushRef.current = null;
    };
  }, [grid, width, actions, store]);

  useEffect(() => {
    const group = groupRef.current;
    const behaviour = brushRef.current;
    if (!group || !behaviour || !grid || width === 0 || zoom === 0) return;
    const sx = (wx: number) => Math.max(0, Math.min(width, (wx / grid.width) * width));
    const sy = (wy: number) => Math.max(0, Math.min(HEIGHT, (wy / grid.height) * HEIGHT));
    const x0 = sx(-x / zoom);
    const x1 = sx((paneWidth - x) / zoom);
    const y0 = sy(-y / zoom);
    const y1 = sy((paneHeight - y) / zoom);
    select(group).call((g) => behaviour.move(g, [[x0, y0], [Math.max(x1, x0 + 2), Math.max(y1, y0 + 2)]]));
  }, [x, y, zoom, paneWidth, paneHeight, grid, width]);

  return (
    <div className="shrink-0 border-t border-slate-200 bg-white px-3 py-2" data-testid="overview-strip">
      <div className="mb-1 flex items-baseline justify-between text-xs text-slate-500">
        <span className="font-medium text-slate-700">Overview</span>
        <span>drag a box to choose the window drawn in full · red: errors and tainted events</span>
      </div>
      <div ref={measure} className="relative" style={{ height: HEIGHT }}>
        <canvas ref={canvasRef} className="absolute inset-0 h-full w-full rounded bg-slate-50" aria-label="Event density over the whole trace" />
        <svg ref={svgRef} width={width} height={HEIGHT} className="absolute inset-0">
          <g ref={groupRef} />
        </svg>
      </div>
    </div>
  );
}
