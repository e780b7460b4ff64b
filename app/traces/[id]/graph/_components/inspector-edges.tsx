"use client";
import { useGraphActions } from "@/components/trace-graph/store/context";
import { EDGE_VISUALS } from "@/lib/graph-view/visual";
import type { EdgeRef, EventBrief } from "@/lib/graph-view/protocol";
import { EDGE_TYPES } from "@/lib/trace/types";

const SHOWN = 50;

function EdgeList({ title, refs, arrow }: { title: string; refs: EdgeRef[]; arrow: string }) {
  const actions = useGraphActions();
  return (
    <div>
      <h4 className="text-xs font-medium text-slate-600">
        {title} ({refs.length})
      </h4>
      {refs.length === 0 ? <p className="text-xs text-slate-400">none</p> : null}
      <ul className="space-y-0.5">
        {refs.slice(0, SHOWN).map((ref, i) => {
          const kind = EDGE_TYPES[ref.kind]!;
          return (
            <li key={`${ref.seq}-${i}`}>
              <button
                type="button"
                data-testid="edge-link"
                data-target={ref.id}
                onClick={() => actions.select(ref.seq, { id: ref.id, focus: true })}
                className="flex w-full items-center gap-1.5 rounded px-1 text-left text-xs hover:bg-slate-100"
              >
                <span className="inline-block h-0.5 w-4 shrink-0" style={{ background: EDGE_VISUALS[kind].colour }} />
                <span className="shrink-0 text-slate-500">{arrow}</span>
                <span className="shrink-0 font-mono">{ref.id}</span>
                <span className="shrink-0 text-slate-500">{EDGE_VISUALS[kind].label}</span>
                <span className="truncate text-slate-600">{ref.label}</span>
              </button>
            </li>
          );
        })}
      </ul>
      {refs.length > SHOWN ? <p className="text-xs text-slate-500">and {refs.length - SHOWN} more (first {SHOWN} listed)</p> : null}
    </div>
  );
}

/** Incoming and outgoing edges; each one selects the event at its other end. */
export function EventEdges({ brief }: { brief: EventBrief }) {
  return (
    <section className="space-y-1.5" data-testid="inspector-edges">
      <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Edges</h3>
      <EdgeList title="Incoming" refs={brief.incoming} arrow="←" />
      <EdgeList title="Outgoing" refs={brief.outgoing} arrow="→" />
    </section>
  );
}
