/**
 * The side of a graph view's store that talks to the outside: the layout
 * worker (load, scenes, credit, lineage, search) and the viewport port the
 * canvas attaches. It writes what comes back into the store; components
 * never call the worker themselves.
 */
import { NODE_HEIGHT } from "@/lib/graph-view/layout";
import { expandWindow } from "@/lib/graph-view/scene";
import { DEFAULT_SCENE_OPTIONS, type WorldRect } from "@/lib/graph-view/scene-types";
import { initialViewport, sceneCovers, viewRect, type Size, type Viewport } from "@/lib/graph-view/viewport";
import type { GraphWorkerClient } from "../worker/graph-worker-client";
import { creditQueryString, fetchEventCredit, fetchEventRecord, fetchMetrics } from "./fetchers";
import type { ApiResult } from "@/lib/api/client";
import type { EventCredit, EventRecord, GraphState, ViewportPort } from "./state";

/** The worker as the store uses it (a test can pass a double). */
export type WorkerLike = Pick<GraphWorkerClient, "request" | "terminate" | "onProgress">;

type Get = () => GraphState;
type Set = (partial: Partial<GraphState>) => void;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class GraphViewDriver {
  port: ViewportPort | null = null;
  private client: WorkerLike | null = null;
  /** The viewport as it moves (the store keeps only the settled one, for the URL). */
  private live: { viewport: Viewport; pane: Size } | null = null;
  private inflight: { window: WorldRect; zoom: number } | null = null;
  private hoverToken = 0;
  private readonly records = new Map<number, Promise<ApiResult<EventRecord>>>();
  private readonly credits = new Map<string, Promise<ApiResult<EventCredit>>>();

  constructor(
    private readonly get: Get,
    private readonly set: Set,
    private readonly createClient: () => WorkerLike,
    private prefetched: Promise<ArrayBuffer | null>[],
  ) {}

  /** Starts the worker, hands it the prefetched pages and asks for the first scene as soon as the layout is back. */
  start(origin: string): () => void {
    this.client?.terminate();
    const client = this.createClient();
    this.client = client;
    client.onProgress = (loaded) => this.set({ loaded });
    const s = this.get();
    Promise.all(this.prefetched)
      .then((pages) => client.request({ kind: "load", traceId: s.traceId, meta: s.meta, origin, spacing: s.spacing, prefetched: pages }))
      .then((result) => {
        if (!result) return;
        this.prefetched = []; // the worker has its own copy
        const pane = this.get().pane;
        const startViewport = this.get().viewport ?? (pane ? initialViewport({ width: result.layout.width, height: result.layout.height }, pane) : null);
        if (startViewport && pane) this.live = { viewport: startViewport, pane };
        this.set({ status: "ready", layout: result.layout, overview: result.overview, loaded: s.meta.events, startViewport });
        this.restoreSelection();
        this.loadCredit();
        this.requestScene(true); // arrives while React Flow mounts
      })
      .catch((error: unknown) => this.set({ status: "error", error: message(error) }));
    void fetchMetrics(s.traceId).then((metrics) => metrics.ok && this.set({ metrics: metrics.data }));
    return () => client.terminate();
  }

  viewportChanged(viewport: Viewport, settled: boolean): void {
    const pane = this.get().pane;
    if (!pane) return;
    this.live = { viewport, pane };
    if (settled) this.set({ viewport });
    this.requestScene();
  }

  paneResized(pane: Size): void {
    const current = this.get().pane;
    if (current && current.width === pane.width && current.height === pane.height) return;
    this.set({ pane });
    if (this.live) {
      this.live = { viewport: this.live.viewport, pane };
      this.requestScene();
    }
  }

  /** Asks the worker for a scene unless the drawn one (or the one on its way) already covers the view. */
  requestScene(force = false): void {
    const s = this.get();
    if (!this.client || s.status !== "ready" || !s.layout || !this.live) return;
    const view = viewRect(this.live.viewport, this.live.pane);
    const zoom = this.live.viewport.zoom;
    const world = { width: s.layout.width, height: s.layout.height };
    if (!force && sceneCovers(s.scene, view, zoom, world)) return;
    const coming = this.inflight && s.scene && { ...s.scene, level: "clusters" as const, window: this.inflight.window, zoom: this.inflight.zoom };
    if (!force && coming && sceneCovers(coming, view, zoom, world)) return;
    this.inflight = { window: expandWindow(view, world, DEFAULT_SCENE_OPTIONS), zoom };
    this.client
      .request({ kind: "scene", spacing: s.spacing, query: { view, zoom, edgeMask: s.edgeMask } })
      .then((scene) => {
        if (!scene) return;
        this.inflight = null;
        this.set({ scene });
      })
      .catch((error: unknown) => this.set({ status: "error", error: message(error) }));
  }

  loadCredit(): void {
    const s = this.get();
    if (!this.client || s.status !== "ready" || !s.overlays.includes("credit")) return;
    this.set({ credit: { status: "loading", summary: s.credit.summary, error: null } });
    this.client
      .request({ kind: "credit", query: creditQueryString(s) })
      .then((summary) => {
        if (!summary) return;
        this.set({ credit: { status: "ready", summary, error: null } });
        this.requestScene(true);
      })
      .catch((error: unknown) => this.set({ credit: { status: "error", summary: null, error: message(error) } }));
  }

  /** Fetches the selected event's position and edges; with `focus`, centres the view on it. */
  describe(seq: number, focus: boolean): void {
    this.client
      ?.request({ kind: "describe", seq, spacing: this.get().spacing })
      .then((brief) => {
        if (!brief || this.get().selected !== seq) return;
        this.set({ brief, selectedId: brief.id });
        if (focus && this.port) {
          const zoom = Math.min(1.5, Math.max(this.port.getViewport().zoom, DEFAULT_SCENE_OPTIONS.minDetailZoom * 4));
          void this.port.setCenter(brief.x + brief.w / 2, brief.y + NODE_HEIGHT / 2, { zoom, duration: 250 });
        }
      })
      .catch(() => undefined);
  }

  relayout(): void {
    this.client
      ?.request({ kind: "layout", spacing: this.get().spacing })
      .then((result) => {
        if (!result) return;
        this.set({ layout: result.layout, overview: result.overview, scene: null });
        const selected = this.get().selected;
        if (selected !== null) this.describe(selected, true);
        else this.get().actions.fitAll();
        this.requestScene(true);
      })
      .catch((error: unknown) => this.set({ status: "error", error: message(error) }));
  }

  hover(seq: number | null): void {
    const token = ++this.hoverToken;
    if (seq === null) {
      this.set({ hovered: null, lineage: null });
      return;
    }
    this.client
      ?.request({ kind: "lineage", seq })
      .then((lineage) => {
        if (lineage && token === this.hoverToken) this.set({ hovered: seq, lineage });
      })
      .catch(() => undefined);
  }

  search(text: string): void {
    this.client
      ?.request({ kind: "find", text })
      .then((result) => {
        if (!result) return;
        this.set({ searchResult: result });
        if (result.exact !== null) this.get().actions.select(result.exact, { id: text.trim(), focus: true });
      })
      .catch(() => undefined);
  }

  eventRecord(seq: number): Promise<ApiResult<EventRecord>> {
    let record = this.records.get(seq);
    if (!record) {
      record = fetchEventRecord(this.get().traceId, seq);
      this.records.set(seq, record);
    }
    return record;
  }

  eventCredit(seq: number): Promise<ApiResult<EventCredit>> {
    const query = creditQueryString(this.get());
    const key = `${seq}|${query}`;
    let credit = this.credits.get(key);
    if (!credit) {
      credit = fetchEventCredit(this.get().traceId, seq, query);
      this.credits.set(key, credit);
    }
    return credit;
  }

  /** The selection a URL named: found by id once the worker has the events. */
  private restoreSelection(): void {
    const id = this.get().selectedId;
    if (id === null) return;
    this.client
      ?.request({ kind: "find", text: id })
      .then((found) => {
        if (found && found.exact !== null) this.get().actions.select(found.exact, { id });
      })
      .catch(() => undefined);
  }
}

