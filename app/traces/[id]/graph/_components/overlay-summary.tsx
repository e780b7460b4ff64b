"use client";
import { formatCount, formatRatio } from "@/components/trace-graph/format";
import { useGraphActions, useGraphStore } from "@/components/trace-graph/store/context";
import type { GraphState } from "@/components/trace-graph/store/state";

const selectOverlays = (s: GraphState) => s.overlays;
const selectMetrics = (s: GraphState) => s.metrics;
const selectStop = (s: GraphState) => s.meta.stop;
const selectTerminal = (s: GraphState) => s.meta.terminal;

/** The numbers behind the active overlays, from `GET /api/traces/{id}/metrics`. */
export function OverlaySummary() {
  const overlays = useGraphStore(selectOverlays);
  const metrics = useGraphStore(selectMetrics);
  const stop = useGraphStore(selectStop);
  const terminal = useGraphStore(selectTerminal);
  const actions = useGraphActions();
  if (!metrics) return null;
  const jump = (seq: number, label: string) => (
    <button type="button" className="text-blue-700 underline" onClick={() => actions.select(seq, { focus: true })}>
      {label}
    </button>
  );
  return (
    <>
      {overlays.includes("taint") ? (
        <span data-testid="summary-taint">
          Taint: {formatCount(metrics.e4.tainted_events)} tainted events; terminal {metrics.e4.terminal_tainted ? "tainted" : "clean"}
        </span>
      ) : null}
      {overlays.includes("critical") ? <span>Critical path: {formatCount(metrics.e2.critical_steps)} steps · parallelism {formatRatio(metrics.e2.step_parallelism)}</span> : null}
      {overlays.includes("errors") ? <span>Error amplification {formatRatio(metrics.e4.error_amplification)}</span> : null}
      {overlays.includes("stop") ? (
        <span data-testid="summary-stop">
          Stop: {stop === null ? <>none (reference: {jump(terminal, "terminal event")})</> : jump(stop, "stop event")} · verdict <b>{metrics.stop.verdict}</b>
          {metrics.stop.stop_reason ? ` · reason ${metrics.stop.stop_reason}` : ""} · {formatCount(metrics.stop.tail_events)} tail events · wasted work {formatRatio(metrics.stop.wasted_work_ratio)}
        </span>
      ) : null}
    </>
  );
}
