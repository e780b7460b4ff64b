import { memo } from "react";
import { EVENT_VISUALS, ICON_OFFSET, SHAPE_PATHS } from "@/lib/graph-view/visual";
import type { EventType } from "@/lib/trace/types";

/** An event type's glyph: its shape in its colour, with its icon on top. Used by nodes and the legend alike. */
function EventGlyphView({ type, size = 24 }: { type: EventType; size?: number }) {
  const v = EVENT_VISUALS[type];
  const [ox, oy] = ICON_OFFSET[v.shape];
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" className="shrink-0">
      <path d={SHAPE_PATHS[v.shape]} fill={v.colour} stroke="#0f172a" strokeOpacity={0.35} strokeWidth={1} />
      <path d={v.icon} transform={`translate(${ox} ${oy})`} fill="none" stroke={v.ink} strokeWidth={1.7} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export const EventGlyph = memo(EventGlyphView);
