"use client";
import { GraphMinimap } from "@/components/trace-graph/graph-minimap";
import { Legend } from "@/components/trace-graph/legend";
import { useGraphStore } from "@/components/trace-graph/store/context";
import type { GraphState } from "@/components/trace-graph/store/state";
import { Inspector } from "./inspector";

const selectSelected = (s: GraphState) => s.selected;

/** The inspector when an event is selected, else the legend (which also toggles edge kinds). */
export function Sidebar() {
  const selected = useGraphStore(selectSelected);
  return (
    <aside className="graph-sidebar w-[23rem] shrink-0 overflow-y-auto border-l border-slate-200 bg-white p-3" aria-label="Details" data-inspecting={selected !== null ? "" : undefined}>
      <GraphMinimap />
      {selected !== null ? (
        <>
          <Inspector seq={selected} key={selected} />
          <details className="mt-4 border-t border-slate-200 pt-2">
            <summary className="cursor-pointer text-xs font-semibold uppercase tracking-wide text-slate-500">Legend and edge toggles</summary>
            <div className="mt-2">
              <Legend />
            </div>
          </details>
        </>
      ) : (
        <>
          <p className="mb-3 text-sm text-slate-600">Click an event to inspect it; hover to see what led to it and what it influenced. ← → walk events in order.</p>
          <Legend />
        </>
      )}
    </aside>
  );
}
