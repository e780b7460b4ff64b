/**
 * Creates one graph view's store: the state, and actions that change it.
 * Everything that needs the worker or the viewport goes through the view's
 * GraphViewDriver; derived data arrives from the worker, never from effects.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import { overlayMask } from "@/lib/graph-view/emphasis";
import type { Spacing } from "@/lib/graph-view/layout";
import { drawnBounds } from "@/lib/graph-view/viewport";
import { EDGE_TYPES } from "@/lib/trace/types";
import { GraphWorkerClient } from "../worker/graph-worker-client";
import { prefetchEventPages } from "./fetchers";
import type { GraphState, GraphStoreInit } from "./state";
import { GraphViewDriver, type WorkerLike } from "./view-driver";

export type GraphStore = StoreApi<GraphState>;

export interface GraphStoreOptions {
  createClient?: () => WorkerLike;
  /** Start downloading the event pages now (in the browser, when the view is created). */
  prefetch?: boolean;
}

export function createGraphStore(init: GraphStoreInit, options: GraphStoreOptions = {}): GraphStore {
  return createStore<GraphState>()((set, get) => {
    const prefetched = options.prefetch ? prefetchEventPages(init.traceId, init.meta) : [];
    const driver = new GraphViewDriver(get, set, options.createClient ?? (() => new GraphWorkerClient()), prefetched);
    const spacingOf = (choice: Spacing | null): Spacing => choice ?? (init.meta.timed ? "time" : "order");
    const fitBounds = (x: number, y: number, width: number, height: number, padding: number, duration = 200) =>
      driver.port && void driver.port.fitBounds({ x, y, width: Math.max(1, width), height: Math.max(1, height) }, { padding, duration });

    return {
      traceId: init.traceId,
      meta: init.meta,
      presets: init.presets,
      selected: null,
      selectedId: init.view.selected,
      highlighted: new Set(init.view.highlighted),
      edgeMask: init.view.edgeMask,
      overlays: init.view.overlays,
      overlayBits: overlayMask(init.view.overlays),
      method: init.view.method,
      preset: init.view.preset,
      normalize: init.view.normalize,
      weights: init.view.weights,
      judges: init.view.judges,
      spacingChoice: init.view.spacing,
      viewport: init.view.viewport,
      startViewport: null,
      spacing: spacingOf(init.view.spacing),
      status: "loading",
      loaded: 0,
      error: null,
      layout: null,
      overview: null,
      scene: null,
      pane: null,
      hovered: null,
      lineage: null,
      credit: { status: init.view.overlays.includes("credit") ? "loading" : "off", summary: null, error: null },
      brief: null,
      metrics: null,
      searchResult: null,

      actions: {
        start: (origin) => driver.start(origin),
        attachViewport: (port) => {
          driver.port = port;
        },
        viewportChanged: (viewport, settled) => driver.viewportChanged(viewport, settled),
        paneResized: (pane) => driver.paneResized(pane),

        select(seq, options = {}) {
          if (seq === null) {
            set({ selected: null, selectedId: null, brief: null, highlighted: new Set() });
            return;
          }
          if (seq < 0 || seq >= get().meta.events) return;
          set({ selected: seq, selectedId: options.id ?? get().selectedId, brief: null });
          driver.describe(seq, options.focus === true);
        },

        step(delta) {
          const s = get();
          const from = s.selected ?? (delta > 0 ? -1 : s.meta.events);
          const next = Math.max(0, Math.min(s.meta.events - 1, from + delta));
          if (next !== s.selected) s.actions.select(next, { focus: true });
        },

        hover: (seq) => driver.hover(seq),

        toggleEdgeKind(kind) {
          set({ edgeMask: get().edgeMask ^ (1 << EDGE_TYPES.indexOf(kind)) });
          driver.requestScene(true);
        },

        toggleOverlay(overlay) {
          const current = get().overlays;
          const overlays = current.includes(overlay) ? current.filter((o) => o !== overlay) : [...current, overlay];
          set({ overlays, overlayBits: overlayMask(overlays) });
          if (overlay === "credit" && overlays.includes("credit")) driver.loadCredit();
        },

        setCreditQuery(query) {
          set(query);
          driver.loadCredit();
        },

        setSpacing(spacing) {
          if (spacing === get().spacing) return;
          set({ spacingChoice: spacing, spacing: spacingOf(spacing) });
          driver.relayout();
        },

        fitAll() {
          const layout = get().layout;
          if (layout) {
            const b = drawnBounds(layout);
            fitBounds(b.x, b.y, b.width, b.height, 0.04);
          }
        },
        showWindow: (r) => fitBounds(r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0, 0, 0),
        focusCluster: (c) => fitBounds(c.x, c.y, c.w, c.h, 0.3, 250),
        search: (text) => driver.search(text),
        eventRecord: (seq) => driver.eventRecord(seq),
        eventCredit: (seq) => driver.eventCredit(seq),
      },
    };
  });
}
