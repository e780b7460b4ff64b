"use client";
import { ExportButtons } from "@/components/export/export-buttons";
import { AddToAgenda } from "@/components/meeting/add-to-agenda";
import { useGraphActions, useGraphStore } from "@/components/trace-graph/store/context";
import type { GraphState } from "@/components/trace-graph/store/state";
import { OVERLAYS, type Overlay } from "@/lib/graph-view/view-state";
import { CreditControls } from "./credit-controls";
import { OverlaySummary } from "./overlay-summary";
import { SearchBox } from "./search-box";
import { SceneStatus } from "./scene-status";

const OVERLAY_LABELS: Record<Overlay, string> = {
  credit: "Credit",
  taint: "Taint path",
  critical: "Critical path",
  errors: "Errors",
  stop: "Stop",
};

const selectOverlays = (s: GraphState) => s.overlays;
const selectSpacing = (s: GraphState) => s.spacing;
const selectTimed = (s: GraphState) => s.meta.timed;
const selectTraceId = (s: GraphState) => s.traceId;

function SpacingToggle() {
  const spacing = useGraphStore(selectSpacing);
  const timed = useGraphStore(selectTimed);
  const actions = useGraphActions();
  const button = (value: "time" | "order", label: string, title: string) => (
    <button
      type="button"
      aria-pressed={spacing === value}
      disabled={value === "time" && !timed}
      title={title}
      onClick={() => actions.setSpacing(value)}
      className="px-2 py-1 text-sm aria-pressed:bg-slate-900 aria-pressed:text-white disabled:cursor-not-allowed disabled:opacity-40"
    >
      {label}
    </button>
  );
  return (
    <div className="flex overflow-hidden rounded border border-slate-300" role="group" aria-label="Horizontal spacing" data-testid="spacing-toggle">
      {button("time", "Time", timed ? "x is time (events with t_end are bars)" : "every event has the same t: only event order is available")}
      {button("order", "Order", "even spacing by event order")}
    </div>
  );
}

/** Spacing, overlays (with the credit query), search, export, the meeting agenda and what is drawn. */
export function Toolbar() {
  const overlays = useGraphStore(selectOverlays);
  const traceId = useGraphStore(selectTraceId);
  const actions = useGraphActions();
  return (
    <div className="shrink-0 space-y-1.5 border-b border-slate-200 bg-slate-50 px-3 py-2" data-testid="graph-toolbar">
      <div className="flex flex-wrap items-center gap-2">
        <SpacingToggle />
        <div className="flex flex-wrap gap-1" role="group" aria-label="Overlays">
          {OVERLAYS.map((o) => (
            <button
              key={o}
              type="button"
              aria-pressed={overlays.includes(o)}
              onClick={() => actions.toggleOverlay(o)}
              data-testid={`overlay-${o}`}
              className="rounded border border-slate-300 bg-white px-2 py-1 text-sm hover:bg-slate-100 aria-pressed:border-slate-900 aria-pressed:bg-slate-900 aria-pressed:text-white"
            >
              {OVERLAY_LABELS[o]}
            </button>
          ))}
        </div>
        {overlays.includes("credit") ? <CreditControls /> : null}
        <div className="ml-auto flex items-center gap-2">
          <SearchBox />
          <button type="button" onClick={actions.fitAll} className="rounded border border-slate-300 bg-white px-2 py-1 text-sm hover:bg-slate-100" data-testid="fit-view">
            Fit
          </button>
          <ExportButtons selector="[data-picture-source]" title={traceId} />
          <AddToAgenda title={`Graph ${traceId}`} />
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-600">
        <SceneStatus />
        <OverlaySummary />
      </div>
    </div>
  );
}
