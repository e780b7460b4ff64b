"use client";
import { Handle, Position, type NodeProps } from "@xyflow/react";
import { memo } from "react";
import { creditColour, inkOn } from "@/lib/graph-view/credit-colour";
import { LOOK, lookNames } from "@/lib/graph-view/emphasis";
import { NODE_HEIGHT } from "@/lib/graph-view/layout";
import { EVENT_VISUALS } from "@/lib/graph-view/visual";
import { EVENT_TYPES } from "@/lib/trace/types";
import { EventGlyph } from "../event-glyph";
import { useCreditExtent, useEventLook, useGraphStore } from "../store/context";
import type { GraphState } from "../store/state";
import { ringShadow } from "./rings";
import type { EventNode } from "./types";

const selectVerdict = (s: GraphState) => s.metrics?.stop.verdict ?? null;

function StopBadge() {
  const verdict = useGraphStore(selectVerdict);
  return (
    <span className="pointer-events-none absolute -top-5 left-0 whitespace-nowrap rounded bg-slate-900 px-1 text-[10px] font-semibold leading-4 text-white" data-testid="stop-badge">
      STOP{verdict ? ` · ${verdict}` : ""}
    </span>
  );
}

/**
 * One event: its glyph (a bar when it has a duration and time spacing is
 * on), its id beneath, rings for its marks. Content is never shown here.
 */
function EventNodeView({ data }: NodeProps<EventNode>) {
  const { ev } = data;
  const look = useEventLook(ev.seq, ev.roles, ev.id);
  const extent = useCreditExtent();
  const type = EVENT_TYPES[ev.type]!;
  const visual = EVENT_VISUALS[type];
  const credit = extent === null ? null : creditColour(ev.credit, extent);
  const background = credit ?? (ev.bar ? `${visual.colour}30` : "transparent");
  return (
    <div
      data-testid="event-node"
      data-event-id={ev.id}
      data-seq={ev.seq}
      data-type={type}
      data-marks={lookNames(look)}
      data-highlighted={(look & LOOK.highlighted) !== 0 ? "true" : undefined}
      data-credit-colour={credit ?? ""}
      title={`${ev.id} · ${ev.label}`}
      className={`relative flex items-center rounded-md ${(look & LOOK.dim) !== 0 ? "opacity-20" : ""}`}
      style={{ width: ev.w, height: NODE_HEIGHT, background, boxShadow: ringShadow(look), border: ev.bar ? `1px solid ${visual.colour}` : undefined, paddingLeft: credit && !ev.bar ? 4 : 0 }}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} className="!min-h-0 !min-w-0 !h-px !w-px !border-0 !bg-transparent" />
      <EventGlyph type={type} size={credit && !ev.bar ? 16 : 24} />
      {ev.bar && ev.w > 64 ? (
        <span className="ml-1 truncate pr-1 text-xs leading-none text-slate-800" style={credit ? { color: inkOn(credit) } : undefined}>
          {ev.label}
        </span>
      ) : null}
      <span className="event-id-label pointer-events-none absolute left-0 top-[27px] whitespace-nowrap text-[11px] leading-none text-slate-600">{ev.id}</span>
      {(look & LOOK.errorSource) !== 0 ? <span className="absolute -right-1.5 -top-1.5 flex h-3.5 w-3.5 items-center justify-center rounded-full bg-red-700 text-[9px] font-bold text-white">!</span> : null}
      {(look & LOOK.stop) !== 0 ? <StopBadge /> : null}
      <Handle type="source" position={Position.Right} isConnectable={false} className="!min-h-0 !min-w-0 !h-px !w-px !border-0 !bg-transparent" />
    </div>
  );
}

export const EventNodeComponent = memo(EventNodeView);
