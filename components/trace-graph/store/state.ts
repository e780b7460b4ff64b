/**
 * The graph view's state: what the URL holds (selection, edge kinds,
 * overlays, credit query, spacing, viewport), what the worker computed
 * (layout, overview, scene, lineage, credit), and the actions that change
 * it. One store per mounted view (see context.tsx), never a module global.
 */
import type { ApiResult } from "@/lib/api/client";
import type { Output } from "@/lib/api/contract";
import type { traceEvents } from "@/lib/api/contracts/traces";
import type { CreditMethod } from "@/lib/credit";
import type { Spacing } from "@/lib/graph-view/layout";
import type { OverviewGrid } from "@/lib/graph-view/overview";
import type { CreditSummary, EventBrief, FindResult, LayoutSummary } from "@/lib/graph-view/protocol";
import type { Scene, SceneCluster } from "@/lib/graph-view/scene-types";
import type { Overlay, ViewState } from "@/lib/graph-view/view-state";
import type { Size, Viewport } from "@/lib/graph-view/viewport";
import type { GraphMeta } from "@/lib/graph-view/wire";
import type { TraceMetrics } from "@/lib/metrics/types";
import type { WeightOverrides } from "@/lib/rewards/presets";
import type { EdgeType } from "@/lib/trace/types";

/** How the canvas lets the store move the viewport (React Flow's instance, or a test double). */
export interface ViewportPort {
  setViewport(v: Viewport, options?: { duration?: number }): unknown;
  setCenter(x: number, y: number, options?: { zoom?: number; duration?: number }): unknown;
  fitBounds(rect: { x: number; y: number; width: number; height: number }, options?: { padding?: number; duration?: number }): unknown;
  getViewport(): Viewport;
}

export interface CreditState {
  status: "off" | "loading" | "ready" | "error";
  summary: CreditSummary | null;
  error: string | null;
}


/** An event as `GET /api/traces/{id}/events?content=1` returns it: every field, content included. */
export type EventRecord = Output<typeof traceEvents>["events"][number];

export interface EventCredit {
  total: number;
  byFamily: Record<string, number> | null;
  method: string;
  preset: string;
  normalize: boolean;
}

export interface GraphActions {
  /** Loads the trace in the worker and lays it out. */
  start: (origin: string) => () => void;
  attachViewport: (port: ViewportPort | null) => void;
  /** The canvas reports every viewport change; `settled` at the end of a pan or zoom. */
  viewportChanged: (viewport: Viewport, settled: boolean) => void;
  /** The canvas reports its size in screen pixels. */
  paneResized: (pane: Size) => void;
  select: (seq: number | null, options?: { id?: string; focus?: boolean }) => void;
  /** Moves the selection through events in event order (arrow keys). */
  step: (delta: number) => void;
  hover: (seq: number | null) => void;
  toggleEdgeKind: (kind: EdgeType) => void;
  toggleOverlay: (overlay: Overlay) => void;
  setCreditQuery: (query: Partial<{ method: CreditMethod; preset: string; normalize: boolean; judges: string }>) => void;
  setSpacing: (spacing: Spacing) => void;
  fitAll: () => void;
  showWindow: (rect: { x0: number; y0: number; x1: number; y1: number }) => void;
  focusCluster: (cluster: SceneCluster) => void;
  search: (text: string) => void;
  /** The selected event's fields and content (cached per event). */
  eventRecord: (seq: number) => Promise<ApiResult<EventRecord>>;
  /** The selected event's credit by family under the current query (cached). */
  eventCredit: (seq: number) => Promise<ApiResult<EventCredit>>;
}

export interface GraphState {
  traceId: string;
  meta: GraphMeta;
  presets: readonly string[];

  // In the URL.
  selected: number | null;
  selectedId: string | null;
  /** Event ids the URL highlights (repeated `sel`, e.g. a heatmap cell's events); cleared with the selection. */
  highlighted: ReadonlySet<string>;
  edgeMask: number;
  overlays: readonly Overlay[];
  overlayBits: number;
  method: CreditMethod;
  preset: string;
  normalize: boolean;
  /** `w.<family>` weight overrides sent with every credit request. */
  weights: WeightOverrides;
  /** `judges=` sent with every credit request ("" people only). */
  judges: string;
  /** The spacing the user chose (null: automatic). */
  spacingChoice: Spacing | null;
  /** The settled viewport. */
  viewport: Viewport | null;
  /** The viewport the canvas opens at (from the URL, else chosen when the layout arrives). */
  startViewport: Viewport | null;

  // Computed.
  spacing: Spacing;
  status: "loading" | "ready" | "error";
  loaded: number;
  error: string | null;
  layout: LayoutSummary | null;
  overview: OverviewGrid | null;
  scene: Scene | null;
  pane: Size | null;
  hovered: number | null;
  lineage: Uint8Array | null;
  credit: CreditState;
  brief: EventBrief | null;
  metrics: TraceMetrics | null;
  searchResult: FindResult | null;

  actions: GraphActions;
}

export interface GraphStoreInit {
  traceId: string;
  meta: GraphMeta;
  view: ViewState;
  presets: readonly string[];
}
