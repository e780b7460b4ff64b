import type { NodeTypes } from "@xyflow/react";
import { ClusterNodeComponent } from "./cluster-node";
import { EventNodeComponent } from "./event-node";

/** Declared once at module scope: React Flow remounts every node when this object changes. */
export const nodeTypes = { event: EventNodeComponent, cluster: ClusterNodeComponent } satisfies NodeTypes;
