import { otlpNotesOf, unmappedSpansOf } from "@/lib/adapters/otlp/provenance";

/**
 * The OpenTelemetry spans that became no event (graph plumbing, prompts,
 * HTTP calls, retrievers), by name, so users see what the OTLP mapping
 * dropped, and what the mapping notes about the spans (kept without their
 * parent, no agent name, no request, an instrumentation's known gaps such as
 * logfire without the Agents SDK's spans; docs/otlp.md). Nothing for traces
 * from other sources.
 */
export function UnmappedSpans({ metadata }: { metadata: unknown }) {
  const notes = otlpNotesOf(metadata);
  return (
    <>
      {notes.length > 0 && (
        <div className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-testid="otlp-notes">
          <p className="font-medium">What the spans of this run do not say (the graph may be incomplete here):</p>
          <ul className="mt-1 list-disc pl-5">
            {notes.map((note, i) => (
              <li key={i}>{note}</li>
            ))}
          </ul>
        </div>
      )}
      <Unmapped metadata={metadata} />
    </>
  );
}

function Unmapped({ metadata }: { metadata: unknown }) {
  const unmapped = unmappedSpansOf(metadata);
  if (unmapped === null) return null;
  return (
    <details className="rounded border border-slate-300 bg-slate-50 p-3 text-sm" data-testid="unmapped-spans">
      <summary className="cursor-pointer font-medium text-slate-800">
        {unmapped.count} span{unmapped.count === 1 ? "" : "s"} not mapped: {unmapped.names.slice(0, 6).map((n) => n.name).join(", ")}
        {unmapped.names.length > 6 ? ", …" : ""}
      </summary>
      <ul className="mt-2 space-y-0.5 font-mono text-xs">
        {unmapped.names.map((n) => (
          <li key={n.name}>
            {n.name} × {n.count}
          </li>
        ))}
      </ul>
    </details>
  );
}
