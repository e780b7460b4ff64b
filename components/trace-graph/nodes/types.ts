import type { Node } from "@xyflow/react";
import type { SceneCluster, SceneEvent } from "@/lib/graph-view/scene-types";

export type EventNodeData = { ev: SceneEvent };
export type EventNode = Node<EventNodeData, "event">;

/** `scale` is 1 / zoom: cluster labels and rings are sized in screen pixels. */
export type ClusterNodeData = { cluster: SceneCluster; scale: number };
export type ClusterNode = Node<ClusterNodeData, "cluster">;

export type GraphNode = EventNode | ClusterNode;
