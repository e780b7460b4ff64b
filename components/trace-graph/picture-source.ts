/**
 * The graph view's picture for export: what the store holds now (layout,
 * scene, marks, credit) handed to the pure SVG builder. No DOM is
 * serialised, so the picture has no controls, minimap or HTML in it.
 */
import { eventLook } from "@/lib/graph-view/emphasis";
import { graphPicture, type Picture } from "@/lib/graph-view/picture";
import type { Theme } from "@/lib/graph-view/picture-parts";
import type { GraphState } from "./store/state";

/** What the page knows about the trace beyond the graph's metadata. */
export interface GraphSubject {
  task: string | null;
  /** the run's instruction from its task definition, when it has one */
  question: string | null;
  system: string | null;
}

/** The picture of the view in `state`, or null while the graph is still loading. */
export function pictureOfView(state: GraphState, subject: GraphSubject, theme: Theme): Picture | null {
  if (!state.layout || !state.scene) return null;
  const marks = { overlays: state.overlayBits, selected: state.selected, hovered: null, lineage: null };
  return graphPicture({
    traceId: state.traceId,
    task: subject.task,
    question: subject.question,
    system: subject.system,
    lanes: state.meta.lanes,
    clock: state.meta.clock,
    layout: state.layout,
    scene: state.scene,
    totalEvents: state.meta.events,
    edgeMask: state.edgeMask,
    lookOf: (seq, roles, id) => eventLook(seq, roles, marks, state.highlighted.has(id)),
    creditExtent: state.overlays.includes("credit") && state.credit.status === "ready" ? (state.credit.summary?.extent ?? 0) : null,
    verdict: state.metrics?.stop.verdict ?? null,
    theme,
  });
}
