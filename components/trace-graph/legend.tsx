"use client";
import { edgeBit, EDGE_VISUALS, EVENT_VISUALS } from "@/lib/graph-view/visual";
import { EDGE_TYPES, EVENT_TYPES } from "@/lib/trace/types";
import { EventGlyph } from "./event-glyph";
import { RING_COLOURS } from "./nodes/rings";
import { useGraphActions, useGraphStore } from "./store/context";
import type { GraphState } from "./store/state";

const selectEdgeMask = (s: GraphState) => s.edgeMask;

function EdgeSample({ colour, dash, width }: { colour: string; dash: string | null; width: number }) {
  return (
    <svg width="34" height="10" aria-hidden="true" className="shrink-0">
      <line x1="1" y1="5" x2="26" y2="5" stroke={colour} strokeWidth={width + 0.5} strokeDasharray={dash ?? undefined} />
      <path d="M25 1L33 5L25 9Z" fill={colour} />
    </svg>
  );
}

/** What each glyph, line and ring means; the edge rows double as the per-kind toggles. */
export function Legend() {
  const mask = useGraphStore(selectEdgeMask);
  const actions = useGraphActions();
  return (
    <div className="space-y-3 text-xs" data-testid="legend">
      <section>
        <h3 className="mb-1 font-semibold uppercase tracking-wide text-slate-500">Events</h3>
        <ul className="grid grid-cols-2 gap-x-3 gap-y-1">
          {EVENT_TYPES.map((type) => (
            <li key={type} className="flex items-center gap-1.5">
              <EventGlyph type={type} size={18} />
              <span>{EVENT_VISUALS[type].label}</span>
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h3 className="mb-1 font-semibold uppercase tracking-wide text-slate-500">Edges (show / hide)</h3>
        <ul className="space-y-0.5">
          {EDGE_TYPES.map((kind) => {
            const v = EDGE_VISUALS[kind];
            return (
              <li key={kind}>
                <label className="flex cursor-pointer items-center gap-1.5">
                  <input type="checkbox" checked={(mask & edgeBit(kind)) !== 0} onChange={() => actions.toggleEdgeKind(kind)} data-testid={`edge-toggle-${kind}`} aria-label={`Show ${v.label} edges`} />
                  <EdgeSample colour={v.colour} dash={v.dash} width={v.width} />
                  <span>{v.label}</span>
                </label>
              </li>
            );
          })}
        </ul>
      </section>
      <section>
        <h3 className="mb-1 font-semibold uppercase tracking-wide text-slate-500">Rings</h3>
        <ul className="space-y-0.5">
          {RING_COLOURS.filter(([, , label]) => label !== "hovered").map(([bit, colour, label]) => (
            <li key={bit} className="flex items-center gap-1.5">
              <span className="inline-block h-3 w-3 rounded-sm" style={{ boxShadow: `0 0 0 2px ${colour}` }} />
              <span>{label}</span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
