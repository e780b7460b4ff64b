"use client";
import { MiniMap } from "@xyflow/react";
import { DEFAULT_SCENE_OPTIONS } from "@/lib/graph-view/scene-types";
import { EVENT_VISUALS } from "@/lib/graph-view/visual";
import { EVENT_TYPES } from "@/lib/trace/types";
import type { GraphNode } from "./nodes/types";
import { useGraphStore } from "./store/context";
import type { GraphState } from "./store/state";
import { useDarkTheme } from "./use-dark-theme";

const selectEventCount = (s: GraphState) => s.meta.events;
const selectReady = (s: GraphState) => s.scene !== null;

function minimapColour(node: GraphNode): string {
  return node.type === "event" ? EVENT_VISUALS[EVENT_TYPES[node.data.ev.type]!].colour : "#94a3b8";
}

/**
 * React Flow's minimap of a trace drawn whole (at most 600 events; above
 * that the overview strip is the map). It lives outside the drawing, in
 * the side panel, inside a closable <details>, so it never covers an
 * event: React Flow's minimap works anywhere under its provider.
 */
export function GraphMinimap() {
  const events = useGraphStore(selectEventCount);
  const ready = useGraphStore(selectReady);
  const dark = useDarkTheme();
  if (events > DEFAULT_SCENE_OPTIONS.wholeTraceMax || !ready) return null;
  return (
    <details open className="graph-minimap mb-3" data-testid="graph-minimap">
      <summary className="cursor-pointer text-xs font-semibold uppercase tracking-wide text-slate-500">Map</summary>
      <MiniMap<GraphNode>
        pannable
        zoomable
        nodeColor={minimapColour}
        ariaLabel="Minimap"
        bgColor={dark ? "#1e293b" : "#f8fafc"}
        maskColor={dark ? "rgba(15, 23, 42, 0.55)" : "rgba(226, 232, 240, 0.6)"}
        maskStrokeColor={dark ? "#cbd5e1" : "#475569"}
        maskStrokeWidth={1}
        style={{ position: "relative", margin: "4px 0 0", width: 340, height: 110 }}
      />
    </details>
  );
}
