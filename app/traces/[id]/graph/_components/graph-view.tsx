"use client";
import { ReactFlowProvider } from "@xyflow/react";
import { useCallback, useEffect, useState } from "react";
import { PICTURE_EVENT, type PictureRequest } from "@/components/export/serialize";
import { GraphCanvas } from "@/components/trace-graph/graph-canvas";
import { LaneLabels } from "@/components/trace-graph/lane-labels";
import { OverviewStrip } from "@/components/trace-graph/overview-strip";
import { pictureOfView, type GraphSubject } from "@/components/trace-graph/picture-source";
import { GraphStoreProvider } from "@/components/trace-graph/store/context";
import { createGraphStore, type GraphStore } from "@/components/trace-graph/store/graph-store";
import { forgetGraphDrawn, markGraphDrawn } from "@/components/trace-graph/drawn-signal";
import { TimeAxis } from "@/components/trace-graph/time-axis";
import type { ViewState } from "@/lib/graph-view/view-state";
import type { GraphMeta } from "@/lib/graph-view/wire";
import { listenToKeys, syncUrl } from "./view-effects";
import { Sidebar } from "./sidebar";
import { Toolbar } from "./toolbar";

interface Props {
  traceId: string;
  meta: GraphMeta;
  view: ViewState;
  presets: string[];
  subject: GraphSubject;
}

/** The graph view of one trace: its own store, worker and React Flow instance. */
export function GraphView({ traceId, meta, view, presets, subject }: Props) {
  // In the browser the store starts downloading the event pages at once, before hydration ends and the worker starts.
  const [store] = useState(() => createGraphStore({ traceId, meta, view, presets }, { prefetch: typeof window !== "undefined" }));
  useEffect(() => store.getState().actions.start(window.location.origin), [store]);
  useEffect(() => syncUrl(store), [store]);
  useEffect(() => listenToKeys(store), [store]);
  useEffect(() => signalDrawn(store, traceId), [store, traceId]);
  // the export buttons (here or in presentation mode's frame) ask this element for the picture
  const pictureSource = useCallback(
    (element: HTMLDivElement | null) => {
      if (!element) return;
      const answer = (event: Event) => {
        const detail = (event as CustomEvent<PictureRequest>).detail;
        const theme = element.ownerDocument.documentElement.classList.contains("dark") ? "dark" : "light";
        const picture = pictureOfView(store.getState(), subject, theme);
        if (picture) detail.svg = picture.svg;
        else detail.error = "the graph is still loading";
      };
      element.addEventListener(PICTURE_EVENT, answer);
      return () => element.removeEventListener(PICTURE_EVENT, answer);
    },
    [store, subject],
  );
  return (
    <GraphStoreProvider store={store}>
      <ReactFlowProvider>
        <div
          ref={pictureSource}
          data-picture-source=""
          className="graph-frame flex h-[calc(100vh-10.5rem)] min-h-[520px] flex-col overflow-hidden rounded border border-slate-300 bg-white"
          data-testid="graph-view"
        >
          <Toolbar />
          <div className="flex min-h-0 flex-1">
            <div className="flex w-48 shrink-0 flex-col">
              <div className="h-6 shrink-0 border-b border-r border-slate-200 bg-white px-2 text-[11px] font-medium leading-6 text-slate-500">agent (role)</div>
              <div className="min-h-0 flex-1">
                <LaneLabels />
              </div>
            </div>
            <div className="flex min-w-0 flex-1 flex-col">
              <TimeAxis />
              <GraphCanvas />
            </div>
            <Sidebar />
          </div>
          <OverviewStrip />
        </div>
      </ReactFlowProvider>
    </GraphStoreProvider>
  );
}

/**
 * Tells the panels beside the graph (drawn-signal.ts) once the first scene is painted, or the load failed:
 * their requests (the suspects' ranking above all) wait for it, so that the event pages come first.
 */
function signalDrawn(store: GraphStore, traceId: string): () => void {
  let frame = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = (s: ReturnType<GraphStore["getState"]>) => {
    if (frame || (!s.scene && s.status !== "error")) return;
    // after the frame that paints the scene's nodes
    frame = requestAnimationFrame(() => {
      timer = setTimeout(() => markGraphDrawn(traceId), 0);
    });
  };
  check(store.getState());
  const unsubscribe = store.subscribe(check);
  return () => {
    unsubscribe();
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    forgetGraphDrawn(traceId);
  };
}
