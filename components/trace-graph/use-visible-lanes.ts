"use client";
import { useStore as useFlowStore, type ReactFlowState } from "@xyflow/react";
import { useMemo } from "react";
import { useLayoutSummary } from "./store/context";

export interface VisibleLane {
  lane: number;
  /** Screen y of the lane's top within the pane, and its screen height. */
  top: number;
  height: number;
}

const selectTx = (s: ReactFlowState) => s.transform[0];
const selectTy = (s: ReactFlowState) => s.transform[1];
const selectZoom = (s: ReactFlowState) => s.transform[2];
const selectHeight = (s: ReactFlowState) => s.height;
const selectWidth = (s: ReactFlowState) => s.width;

/** The viewport transform, one number per selector so nothing re-renders for an unrelated change. */
export function useTransform(): { x: number; y: number; zoom: number; width: number; height: number } {
  const x = useFlowStore(selectTx);
  const y = useFlowStore(selectTy);
  const zoom = useFlowStore(selectZoom);
  const width = useFlowStore(selectWidth);
  const height = useFlowStore(selectHeight);
  return { x, y, zoom, width, height };
}

/** The lanes on screen, at most `max` of them (none when there is no layout yet). */
export function useVisibleLanes(max = 300): VisibleLane[] {
  const layout = useLayoutSummary();
  const { y, zoom, height } = useTransform();
  return useMemo(() => {
    if (!layout) return [];
    const tops = layout.laneTop;
    const lanes: VisibleLane[] = [];
    for (let l = firstLaneBelow(tops, -y / zoom); l < tops.length - 1 && lanes.length < max; l++) {
      const top = tops[l]! * zoom + y;
      if (top > height) break;
      lanes.push({ lane: l, top, height: (tops[l + 1]! - tops[l]!) * zoom });
    }
    return lanes;
  }, [layout, y, zoom, height, max]);
}

/** The lane containing world y (0 when above the first). */
function firstLaneBelow(tops: number[], worldY: number): number {
  let lo = 0;
  let hi = tops.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (tops[mid + 1]! <= worldY) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
