"use client";
import { useGraphMeta } from "./store/context";
import { useVisibleLanes } from "./use-visible-lanes";

/** Lanes shorter than this on screen get no label (the column says how to see them). */
const MIN_LABEL_PX = 16;

/**
 * One label per agent lane, beside the graph and in step with it: indented
 * by spawn depth, agent name in bold, role beneath.
 */
export function LaneLabels() {
  const meta = useGraphMeta();
  const lanes = useVisibleLanes();
  const readable = lanes.length > 0 && lanes[0]!.height >= MIN_LABEL_PX;
  return (
    <div className="relative h-full w-48 shrink-0 overflow-hidden border-r border-slate-200 bg-white" data-testid="lane-labels" aria-label="Agent lanes">
      {readable ? (
        lanes.map((l) => {
          const lane = meta.lanes[l.lane]!;
          return (
            <div
              key={l.lane}
              data-testid="lane-label"
              data-agent={lane.agent}
              title={`${lane.agent}${lane.role ? ` (${lane.role})` : ""} — ${lane.events.toLocaleString("en")} events, t ${lane.first_t}–${lane.last_t}${lane.parent !== null ? `, spawned by ${meta.lanes[lane.parent]!.agent}` : ""}`}
              className={`absolute inset-x-0 flex flex-col justify-center overflow-hidden border-b border-slate-100 pr-2 ${l.lane % 2 === 0 ? "bg-white" : "bg-slate-100"}`}
              style={{ top: l.top, height: l.height, paddingLeft: 8 + Math.min(lane.depth, 6) * 12 }}
            >
              <span className="truncate text-sm font-semibold leading-tight text-slate-900">
                {lane.depth > 0 ? <span className="text-slate-400">└ </span> : null}
                {lane.agent}
              </span>
              {lane.role && l.height >= 34 ? <span className="truncate text-xs leading-tight text-slate-600">{lane.role}</span> : null}
            </div>
          );
        })
      ) : (
        <p className="p-3 text-xs text-slate-500">{meta.lanes.length.toLocaleString("en")} lanes — zoom in to read their names.</p>
      )}
    </div>
  );
}
