"use client";
import Link from "next/link";
import { Suspense } from "react";
import { UnitContextView } from "@/components/annotate/unit-context";
import { EventGlyph } from "@/components/trace-graph/event-glyph";
import { formatCredit } from "@/components/trace-graph/format";
import { useGraphActions, useGraphMeta, useGraphStore, useSelectedEvent } from "@/components/trace-graph/store/context";
import type { GraphState } from "@/components/trace-graph/store/state";
import { roleNames, type RoleName } from "@/lib/metrics/roles";
import { EVENT_TYPES } from "@/lib/trace/types";
import { EventCreditSection } from "./inspector-credit";
import { EventEdges } from "./inspector-edges";
import { EventFields } from "./inspector-fields";

const ROLE_TEXT: Record<RoleName, string> = {
  critical: "on the critical path",
  terminal: "the terminal event",
  contributes: "leads to the terminal event",
  deadMessage: "dead message: influences nothing that reaches the terminal",
  tainted: "tainted by untrusted input",
  errorSource: "error source",
  errorDescendant: "downstream of an error (amplification)",
  stop: "the stop event",
  tail: "after the stop (tail work)",
  wasted: "wasted work",
};

const WARNING_ROLES: ReadonlySet<RoleName> = new Set(["deadMessage", "tainted", "errorSource", "errorDescendant", "tail", "wasted"]);
const selectVerdict = (s: GraphState) => s.metrics?.stop.verdict ?? null;
const selectTraceId = (s: GraphState) => s.traceId;

function Roles({ roles }: { roles: number }) {
  const verdict = useGraphStore(selectVerdict);
  const names = roleNames(roles);
  if (names.length === 0) return <p className="text-sm text-slate-500">No metrics role.</p>;
  return (
    <ul className="flex flex-wrap gap-1" data-testid="inspector-roles">
      {names.map((name) => (
        <li key={name} data-role={name} className={`rounded px-1.5 py-0.5 text-xs ${WARNING_ROLES.has(name) ? "bg-red-50 text-red-800" : "bg-slate-100 text-slate-800"}`}>
          {ROLE_TEXT[name]}
          {name === "stop" && verdict ? ` — verdict ${verdict}` : ""}
        </li>
      ))}
    </ul>
  );
}

/** Everything about the selected event; fields and content are fetched on demand, content shown as text only. */
export function Inspector({ seq }: { seq: number }) {
  const brief = useSelectedEvent();
  const meta = useGraphMeta();
  const actions = useGraphActions();
  const traceId = useGraphStore(selectTraceId);
  const ready = brief !== null && brief.seq === seq;
  const type = ready ? EVENT_TYPES[brief.type]! : null;
  return (
    <div className="space-y-3" data-testid="inspector" data-inspected={ready ? brief.id : ""}>
      <div className="flex items-start gap-2">
        {type ? <EventGlyph type={type} size={28} /> : null}
        <div className="min-w-0 flex-1">
          <h2 className="break-all font-mono text-base font-semibold" data-testid="inspector-id">{ready ? brief.id : "…"}</h2>
          <p className="text-sm text-slate-600">{ready ? `${brief.label} · ${meta.lanes[brief.lane]!.agent} · #${seq + 1} of ${meta.events.toLocaleString("en")}` : "loading…"}</p>
        </div>
        <div className="flex gap-1">
          <button type="button" aria-label="Previous event" onClick={() => actions.step(-1)} className="rounded border border-slate-300 px-1.5 text-sm hover:bg-slate-100">←</button>
          <button type="button" aria-label="Next event" onClick={() => actions.step(1)} className="rounded border border-slate-300 px-1.5 text-sm hover:bg-slate-100">→</button>
          <button type="button" aria-label="Close inspector" onClick={() => actions.select(null)} className="rounded border border-slate-300 px-1.5 text-sm hover:bg-slate-100">✕</button>
        </div>
      </div>
      {ready ? (
        <>
          <section>
            <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Metrics role</h3>
            <Roles roles={brief.roles} />
            {brief.credit !== null ? <p className="mt-1 text-xs text-slate-600">Overlay credit: {formatCredit(brief.credit)}</p> : null}
          </section>
          <Suspense fallback={<p className="text-sm text-slate-500">Loading credit…</p>}>
            <EventCreditSection seq={seq} />
          </Suspense>
          <EventEdges brief={brief} />
          <section data-testid="inspector-unit">
            <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">What it says and read</h3>
            <UnitContextView traceId={traceId} eventId={brief.id} />
          </section>
          <Link
            href={`/traces/${encodeURIComponent(traceId)}/label?event=${encodeURIComponent(brief.id)}`}
            prefetch={false}
            data-testid="inspector-label-link"
            className="inline-block text-sm text-blue-700 hover:underline"
          >
            Label rewards for this event
          </Link>
        </>
      ) : null}
      <Suspense fallback={<p className="text-sm text-slate-500">Loading fields…</p>}>
        <EventFields seq={seq} />
      </Suspense>
    </div>
  );
}
