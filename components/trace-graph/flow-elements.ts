/**
 * From a scene (plain data from the worker) to React Flow's nodes and
 * edges. Edge styles and markers are built once per kind and emphasis at
 * module scope and shared by every edge.
 */
import { MarkerType, type Edge, type EdgeMarker } from "@xyflow/react";
import type { CSSProperties } from "react";
import { edgeEmphasis, eventLook, type EdgeEmphasis, type EmphasisInput } from "@/lib/graph-view/emphasis";
import { NODE_HEIGHT } from "@/lib/graph-view/layout";
import { clusterNodeId, eventNodeId, type Scene, type SceneCluster, type SceneEvent } from "@/lib/graph-view/scene-types";
import { EDGE_VISUALS } from "@/lib/graph-view/visual";
import { EDGE_TYPES } from "@/lib/trace/types";
import type { GraphNode } from "./nodes/types";

const EMPHASES: readonly EdgeEmphasis[] = ["normal", "strong", "dim"];

interface EdgeLook {
  style: CSSProperties;
  marker: EdgeMarker;
  className: string;
}

/** EDGE_LOOKS[kind][emphasis]. Strokes do not scale with zoom, so edges stay visible when zoomed far out. */
const EDGE_LOOKS: Record<string, EdgeLook>[] = EDGE_TYPES.map((kind) => {
  const v = EDGE_VISUALS[kind];
  return Object.fromEntries(
    EMPHASES.map((emphasis) => {
      const width = emphasis === "strong" ? v.width * 2 : v.width;
      const style: CSSProperties = {
        stroke: v.colour,
        strokeWidth: width,
        strokeDasharray: v.dash ?? undefined,
        opacity: emphasis === "dim" ? 0.12 : emphasis === "strong" ? 1 : 0.85,
        vectorEffect: "non-scaling-stroke",
      };
      const marker: EdgeMarker = { type: MarkerType.ArrowClosed, color: v.colour, width: 14, height: 14 };
      return [emphasis, { style, marker, className: `baton-edge baton-edge--${kind} baton-edge--${emphasis}` }];
    }),
  );
});

function eventNode(ev: SceneEvent): GraphNode {
  return { id: eventNodeId(ev.seq), type: "event", position: { x: ev.x, y: ev.y }, data: { ev }, width: ev.w, height: NODE_HEIGHT, draggable: false, selectable: false, connectable: false, focusable: false };
}

function clusterNode(cluster: SceneCluster, scale: number): GraphNode {
  return { id: clusterNodeId(cluster.key), type: "cluster", position: { x: cluster.x, y: cluster.y }, data: { cluster, scale }, width: cluster.w, height: cluster.h, draggable: false, selectable: false, connectable: false, focusable: false };
}

const sameEvent = (a: SceneEvent, b: SceneEvent) =>
  a.x === b.x && a.y === b.y && a.w === b.w && a.roles === b.roles && a.credit === b.credit && a.type === b.type && a.bar === b.bar && a.label === b.label && a.id === b.id;

const sameCluster = (a: SceneCluster, b: SceneCluster) =>
  a.key === b.key && a.count === b.count && a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h && a.roles === b.roles && a.credit === b.credit && a.type === b.type;

/**
 * React Flow nodes for successive scenes. A node that is unchanged from the
 * previous scene keeps its object: React Flow then keeps its measured size
 * and handles (a new object is re-measured, and its edges wait for that),
 * and its memoised component does not re-render. Panning into a new window
 * so costs only the events that enter it.
 */
export class FlowNodePool {
  private byId = new Map<string, GraphNode>();

  nodes(scene: Scene): GraphNode[] {
    const next = new Map<string, GraphNode>();
    const out: GraphNode[] = [];
    if (scene.level === "events") {
      for (const ev of scene.events) {
        const old = this.byId.get(eventNodeId(ev.seq));
        const node = old?.type === "event" && sameEvent(old.data.ev, ev) ? old : eventNode(ev);
        next.set(node.id, node);
        out.push(node);
      }
    } else {
      const scale = 1 / scene.zoom;
      for (const cluster of scene.clusters) {
        const old = this.byId.get(clusterNodeId(cluster.key));
        const node = old?.type === "cluster" && old.data.scale === scale && sameCluster(old.data.cluster, cluster) ? old : clusterNode(cluster, scale);
        next.set(node.id, node);
        out.push(node);
      }
    }
    this.byId = next;
    return out;
  }
}

const rolesCache = new WeakMap<Scene, Map<number, number>>();

function rolesBySeq(scene: Scene): Map<number, number> {
  let roles = rolesCache.get(scene);
  if (!roles) {
    roles = new Map(scene.events.map((e) => [e.seq, e.roles]));
    rolesCache.set(scene, roles);
  }
  return roles;
}

export function toFlowEdges(scene: Scene, emphasis: EmphasisInput): Edge[] {
  const roles = rolesBySeq(scene);
  return scene.edges.map((e) => {
    const kind = e.src >= 0 ? edgeEmphasis(eventLook(e.src, roles.get(e.src) ?? 0, emphasis), eventLook(e.dst, roles.get(e.dst) ?? 0, emphasis)) : "normal";
    const look = EDGE_LOOKS[e.kind]![kind]!;
    const bundled = e.count > 1 ? { ...look.style, strokeWidth: Number(look.style.strokeWidth) * Math.min(4, 1 + Math.log2(e.count) / 2) } : look.style;
    return {
      id: e.key,
      source: e.source,
      target: e.target,
      style: bundled,
      markerEnd: look.marker,
      className: look.className,
      selectable: false,
      focusable: false,
      interactionWidth: 0,
      ...(e.count > 1 && { ariaLabel: `${e.count} ${EDGE_TYPES[e.kind]} edges` }),
    };
  });
}
