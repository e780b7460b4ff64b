"use client";
import { Handle, Position, type NodeProps } from "@xyflow/react";
import { memo } from "react";
import { creditColour, inkOn } from "@/lib/graph-view/credit-colour";
import { LOOK, lookNames } from "@/lib/graph-view/emphasis";
import { EVENT_VISUALS } from "@/lib/graph-view/visual";
import { EVENT_TYPES } from "@/lib/trace/types";
import { useClusterLook, useCreditExtent } from "../store/context";
import { ringShadow } from "./rings";
import type { ClusterNode } from "./types";

/**
 * A summary bar for the events of a band of lanes in one time bucket:
 * coloured by their most frequent type (or their mean credit), labelled
 * with their count. Sizes in screen pixels (`scale` = 1 / zoom).
 */
function ClusterNodeView({ data }: NodeProps<ClusterNode>) {
  const { cluster: c, scale } = data;
  const look = useClusterLook(c.roles);
  const extent = useCreditExtent();
  const type = EVENT_TYPES[c.type]!;
  const visual = EVENT_VISUALS[type];
  const background = extent === null ? `${visual.colour}66` : creditColour(c.credit, extent);
  const lanes = c.laneTo > c.laneFrom ? `lanes ${c.laneFrom + 1}–${c.laneTo + 1}` : `lane ${c.laneFrom + 1}`;
  return (
    <div
      data-testid="cluster-node"
      data-count={c.count}
      data-marks={lookNames(look)}
      title={`${c.count.toLocaleString("en")} events, ${lanes}, mostly ${visual.label} — click to zoom in`}
      className={`flex h-full w-full cursor-zoom-in items-center justify-center overflow-hidden ${(look & LOOK.dim) !== 0 ? "opacity-25" : ""}`}
      style={{ background, borderRadius: 3 * scale, boxShadow: ringShadow(look, 2 * scale), fontSize: 11 * scale }}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} className="!min-h-0 !min-w-0 !h-px !w-px !border-0 !bg-transparent" />
      <span className="font-semibold leading-none" style={{ color: extent === null ? "#0f172a" : inkOn(background) }}>
        {c.count}
      </span>
      <Handle type="source" position={Position.Right} isConnectable={false} className="!min-h-0 !min-w-0 !h-px !w-px !border-0 !bg-transparent" />
    </div>
  );
}

export const ClusterNodeComponent = memo(ClusterNodeView);
