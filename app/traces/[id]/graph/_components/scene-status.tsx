"use client";
import { formatCount } from "@/components/trace-graph/format";
import { useGraphStore } from "@/components/trace-graph/store/context";
import type { GraphState } from "@/components/trace-graph/store/state";

const selectStatus = (s: GraphState) => s.status;
const selectLoaded = (s: GraphState) => s.loaded;
const selectError = (s: GraphState) => s.error;
const selectTotal = (s: GraphState) => s.meta.events;
const selectScene = (s: GraphState) => s.scene;

/** What is drawn right now, stated plainly (never a silent truncation). */
export function SceneStatus() {
  const status = useGraphStore(selectStatus);
  const loaded = useGraphStore(selectLoaded);
  const error = useGraphStore(selectError);
  const total = useGraphStore(selectTotal);
  const scene = useGraphStore(selectScene);
  if (status === "error") return <span className="text-red-700" role="alert">Could not show the graph: {error}</span>;
  if (status === "loading") return <span data-testid="load-progress">Loading events… {formatCount(loaded)} of {formatCount(total)}</span>;
  if (!scene) return <span>Laying out…</span>;
  const cut = scene.edgesNotDrawn > 0 ? ` · ${formatCount(scene.edgesNotDrawn)} edges to events outside the drawn window not shown` : "";
  if (scene.level === "events") {
    const whole = scene.events.length === total;
    return (
      <span data-testid="scene-status">
        {whole ? `All ${formatCount(total)} events drawn` : `Drawing ${formatCount(scene.events.length)} of ${formatCount(total)} events (the window around the view)`} · {formatCount(scene.edges.length)} edges{cut}
      </span>
    );
  }
  return (
    <span data-testid="scene-status">
      Zoomed out: {formatCount(scene.eventsInWindow)} events summarised in {formatCount(scene.clusters.length)} bars
      {scene.lanesPerBand > 1.05 ? ` (about ${Math.round(scene.lanesPerBand)} lanes per band)` : ""} · zoom in or click a bar for single events{cut}
    </span>
  );
}
