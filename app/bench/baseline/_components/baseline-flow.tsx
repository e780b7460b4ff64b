"use client";
import { ReactFlow, useNodesInitialized, ReactFlowProvider, type Edge, type Node } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { Suspense, use, useState } from "react";
import { computeLayout, nodeY } from "@/lib/graph-view/layout";
import { EDGE_TYPES } from "@/lib/trace/types";
import type { GraphEventsPage, GraphMeta } from "@/lib/graph-view/wire";
import { call } from "@/lib/api/client";
import { traceGraph } from "@/lib/api/contracts/traces";

interface Elements {
  nodes: Node[];
  edges: Edge[];
}

const TEMPORAL = EDGE_TYPES.indexOf("temporal");

/** Loads every page on the main thread and places nodes exactly where the graph view does. */
async function loadElements(traceId: string): Promise<Elements> {
  const part = async <T,>(query: { part: "meta" | "events"; from?: string; limit?: string }): Promise<T> => {
    const answer = await call(traceGraph, { params: { id: traceId }, query });
    if (!answer.ok) throw new Error(answer.message);
    return answer.data as T;
  };
  const meta = await part<GraphMeta>({ part: "meta" });
  const pages = await Promise.all(Array.from({ length: meta.pages }, (_, k) => part<GraphEventsPage>({ part: "events", from: String(k * meta.page_size), limit: String(meta.page_size) })));
  const n = meta.events;
  const t = new Float64Array(n);
  const tEnd = new Float64Array(n).fill(NaN);
  const lane = new Int32Array(n);
  const ids: string[] = new Array<string>(n);
  const edges: Edge[] = [];
  for (const page of pages) {
    for (let i = 0; i < page.count; i++) {
      t[page.from + i] = page.t[i]!;
      tEnd[page.from + i] = page.t_end[i] ?? NaN;
      lane[page.from + i] = page.lane[i]!;
      ids[page.from + i] = page.id[i]!;
    }
    for (let j = 0; j < page.edges.src.length; j++) {
      if (page.edges.type[j] === TEMPORAL) continue;
      edges.push({ id: `x${page.from}-${j}`, source: String(page.edges.src[j]), target: String(page.edges.dst[j]) });
    }
  }
  const layout = computeLayout({ t, tEnd, lane, laneCount: meta.lanes.length, spacing: meta.timed ? "time" : "order" });
  const nodes: Node[] = ids.map((id, s) => ({ id: String(s), position: { x: layout.x[s]!, y: nodeY(layout, s) }, data: { label: id } }));
  return { nodes, edges };
}

function Ready({ count }: { count: number }) {
  const initialised = useNodesInitialized();
  return <span data-testid="baseline-status" data-ready={initialised ? "true" : "false"} data-nodes={count} className="absolute left-2 top-2 z-10 rounded bg-white px-2 text-xs">{initialised ? `${count} nodes` : "measuring…"}</span>;
}

function Flow({ promise }: { promise: Promise<Elements> }) {
  const { nodes, edges } = use(promise);
  return (
    <ReactFlowProvider>
      <div className="relative h-[80vh] w-full border border-slate-300 bg-white" data-testid="baseline-canvas">
        <Ready count={nodes.length} />
        <ReactFlow defaultNodes={nodes} defaultEdges={edges} fitView />
      </div>
    </ReactFlowProvider>
  );
}

/** Client only (see baseline-client.tsx): the loader fetches relative URLs. */
export default function BaselineFlow({ traceId }: { traceId: string }) {
  // Held here, above the Suspense boundary: a component that suspends before mounting loses its state.
  const [promise] = useState(() => loadElements(traceId));
  return (
    <Suspense fallback={<p className="text-sm">Loading the trace…</p>}>
      <Flow promise={promise} />
    </Suspense>
  );
}
