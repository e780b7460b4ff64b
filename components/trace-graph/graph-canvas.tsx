"use client";
import { Controls, ReactFlow, type Edge, type OnMove, type ReactFlowInstance } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useShallow } from "zustand/react/shallow";
import { initialViewport, MAX_ZOOM, minZoomFor } from "@/lib/graph-view/viewport";
import { FlowNodePool, toFlowEdges } from "./flow-elements";
import { LaneStripes } from "./lane-stripes";
import { nodeTypes } from "./nodes/node-types";
import type { GraphNode } from "./nodes/types";
import { emphasisInput, useGraphActions, useGraphStore, useGraphStoreApi, useLayoutSummary, useScene } from "./store/context";
import { useDarkTheme } from "./use-dark-theme";
import { useTransform } from "./use-visible-lanes";
import type { GraphState } from "./store/state";

const NO_NODES: GraphNode[] = [];
const NO_EDGES: Edge[] = [];
const selectPane = (s: GraphState) => s.pane;
const selectStatus = (s: GraphState) => s.status;

/**
 * The graph: React Flow drawing the worker's current scene. It reports
 * its size and every viewport change to the store, which asks the worker
 * for a new scene only when the view leaves the drawn window.
 */
export function GraphCanvas() {
  const actions = useGraphActions();
  const pane = useGraphStore(selectPane);
  const layout = useLayoutSummary();
  const status = useGraphStore(selectStatus);
  const measure = useCallback(
    (element: HTMLDivElement | null) => {
      if (!element) return;
      const observer = new ResizeObserver(([entry]) => {
        if (entry) actions.paneResized({ width: entry.contentRect.width, height: entry.contentRect.height });
      });
      observer.observe(element);
      return () => observer.disconnect();
    },
    [actions],
  );
  return (
    <div ref={measure} className="relative min-h-0 flex-1 bg-white">
      <LaneStripes />
      {layout && pane ? <FlowView /> : <p className="absolute inset-0 flex items-center justify-center text-sm text-slate-500">{status === "error" ? "" : "Laying out the graph…"}</p>}
    </div>
  );
}

function FlowView() {
  const store = useGraphStoreApi();
  const actions = useGraphActions();
  const scene = useScene();
  const layout = useLayoutSummary()!;
  const pane = useGraphStore(selectPane)!;
  const emphasis = useGraphStore(useShallow(emphasisInput));
  const dark = useDarkTheme();
  const world = { width: layout.width, height: layout.height };
  const [initial] = useState(() => store.getState().startViewport ?? store.getState().viewport ?? initialViewport(world, pane));
  const [pool] = useState(() => new FlowNodePool());
  const nodes = useMemo(() => (scene ? pool.nodes(scene) : NO_NODES), [pool, scene]);
  const edges = useMemo(() => (scene ? toFlowEdges(scene, emphasis) : NO_EDGES), [scene, emphasis]);

  const onInit = useCallback(
    (instance: ReactFlowInstance<GraphNode>) => {
      actions.attachViewport(instance);
      actions.viewportChanged(instance.getViewport(), true);
    },
    [actions],
  );
  const onMove = useCallback<OnMove>((_, viewport) => actions.viewportChanged(viewport, false), [actions]);
  const onMoveEnd = useCallback<OnMove>((_, viewport) => actions.viewportChanged(viewport, true), [actions]);
  const onNodeClick = useCallback(
    (_: unknown, node: GraphNode) => (node.type === "event" ? actions.select(node.data.ev.seq, { id: node.data.ev.id }) : actions.focusCluster(node.data.cluster)),
    [actions],
  );
  const onNodeEnter = useCallback((_: unknown, node: GraphNode) => node.type === "event" && actions.hover(node.data.ev.seq), [actions]);
  const onNodeLeave = useCallback(() => actions.hover(null), [actions]);

  return (
    <div className="absolute inset-0" data-testid="graph-canvas" data-ready={scene ? "true" : "false"} data-level={scene?.level ?? ""}>
      <FlowZoomVar />
      <ReactFlow<GraphNode>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        defaultViewport={initial}
        minZoom={minZoomFor(world, pane)}
        maxZoom={MAX_ZOOM}
        onInit={onInit}
        onMove={onMove}
        onMoveEnd={onMoveEnd}
        onNodeClick={onNodeClick}
        onNodeMouseEnter={onNodeEnter}
        onNodeMouseLeave={onNodeLeave}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        nodesFocusable={false}
        edgesFocusable={false}
        deleteKeyCode={null}
        selectionKeyCode={null}
        colorMode={dark ? "dark" : "light"}
        style={{ background: "transparent" }}
      >
        <Controls showInteractive={false} onFitView={actions.fitAll} position="bottom-left" />
      </ReactFlow>
    </div>
  );
}

/**
 * The viewport's zoom as the CSS variable `--flow-zoom` on the canvas, so that
 * presentation mode can keep event labels a readable size on the screen
 * whatever the fitted zoom (app/globals.css). Its own component: a zoom step
 * re-renders this, not the canvas.
 */
function FlowZoomVar() {
  const { zoom } = useTransform();
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    ref.current?.parentElement?.style.setProperty("--flow-zoom", String(zoom));
  }, [zoom]);
  return <span ref={ref} hidden />;
}
