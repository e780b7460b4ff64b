"use client";
import { useVisibleLanes } from "./use-visible-lanes";

/** Alternating lane backgrounds behind the graph, in screen space (drawn only while lanes are tall enough to tell apart). */
export function LaneStripes() {
  const lanes = useVisibleLanes();
  if (lanes.length === 0 || lanes[0]!.height < 4) return null;
  return (
    <div className="pointer-events-none absolute inset-0 overflow-hidden" aria-hidden="true">
      {lanes.map((l) => (
        <div key={l.lane} className={l.lane % 2 === 0 ? "absolute inset-x-0 bg-white" : "absolute inset-x-0 bg-slate-100"} style={{ top: l.top, height: l.height }} />
      ))}
    </div>
  );
}
