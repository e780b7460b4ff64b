import Link from "next/link";
import { DETECTOR_LABELS, DIAGNOSTICS_DOCS, TRACE_DETECTORS, type TraceDiagnostics } from "@/lib/hacking";
import { formatValue } from "@/lib/format";
import { MAX_HIGHLIGHTED } from "@/lib/graph-view/view-state";

/** Events listed per detector before "and N more" (the API lists them all). */
const SHOWN_EVENTS = 40;

/** Opens the graph with `id` selected and the detector's other events highlighted (repeated `sel`, lib/graph-view/view-state). */
function graphLink(graph: string, id: string, all: readonly string[]): string {
  const params = new URLSearchParams();
  for (const e of [id, ...all.filter((x) => x !== id)].slice(0, MAX_HIGHLIGHTED)) params.append("sel", e);
  return `${graph}?${params.toString()}`;
}

/**
 * The hacking diagnostics of one trace: each detector's value against its
 * threshold, and for a flagged one the events that triggered it, each a link
 * that opens the event in the graph view (the detector's other events highlighted).
 */
export function HackingFlags({ traceId, diagnostics }: { traceId: string; diagnostics: TraceDiagnostics }) {
  const graph = `/traces/${encodeURIComponent(traceId)}/graph`;
  const flagged = diagnostics.flags.length;
  return (
    <section className={`rounded border p-3 text-sm ${flagged > 0 ? "border-rose-300 bg-rose-50" : "border-slate-200"}`} data-testid="hacking-flags">
      <h2 className="font-semibold">
        Reward-hacking diagnostics{" "}
        <span className="font-normal text-slate-600">{flagged === 0 ? "· no flags" : `· ${flagged} flag${flagged > 1 ? "s" : ""}`}</span>{" "}
        <Link href={DIAGNOSTICS_DOCS} className="text-xs font-normal text-blue-700 hover:underline">definitions</Link>
      </h2>
      <ul className="mt-2 space-y-2">
        {TRACE_DETECTORS.map((d) => {
          const r = diagnostics.detectors[d];
          const label = DETECTOR_LABELS[d];
          return (
            <li key={d} data-testid={`detector-${d}`} data-flagged={r.flagged ? "1" : "0"}>
              <div className="flex flex-wrap items-baseline gap-x-2">
                {r.flagged ? <span className="rounded bg-rose-700 px-1.5 text-xs font-medium text-white" data-testid="flag-badge">flagged</span> : <span className="rounded bg-slate-200 px-1.5 text-xs text-slate-700">ok</span>}
                <span className="font-medium">{label.name}</span>
                <span className="font-mono">{formatValue(r.value)}</span>
                <span className="text-slate-500">threshold {formatValue(r.threshold)}</span>
                <span className="text-xs text-slate-500">{label.explain}</span>
              </div>
              {r.flagged && r.events.length > 0 && (
                <p className="mt-0.5 text-xs" data-testid="flag-events">
                  <span className="text-slate-600">{label.events}: </span>
                  {r.events.slice(0, SHOWN_EVENTS).map((id, i) => (
                    <span key={id}>
                      {i > 0 && ", "}
                      <Link href={graphLink(graph, id, r.events)} className="font-mono text-blue-700 hover:underline" data-testid="flag-event">{id}</Link>
                    </span>
                  ))}
                  {r.events.length > SHOWN_EVENTS && <span className="text-slate-600"> and {r.events.length - SHOWN_EVENTS} more (GET /api/traces/…/diagnostics lists all)</span>}
                </p>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
