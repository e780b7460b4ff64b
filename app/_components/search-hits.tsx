import Link from "next/link";
import { Highlighted } from "@/components/search/highlighted";
import type { TraceHits } from "@/lib/server/queries/search-snippets";
import { counted } from "@/lib/format";

/** Where the content search matched in one trace: a few events, the match marked, each a link to the event in the trace's conversation. */
export function SearchHits({ traceId, hits, terms }: { traceId: string; hits: TraceHits; terms: readonly string[] }) {
  const base = `/traces/${encodeURIComponent(traceId)}`;
  // phrases keep their quotes, so the trace page marks "975 Sunset Drive" and not each word
  const hl = terms.map((t) => (/\s/.test(t) ? `"${t}"` : t)).join(" ");
  return (
    <div className="space-y-1 text-xs" data-testid="search-hits" data-trace-id={traceId}>
      {hits.hits.map((h) => (
        <Link
          key={h.seq}
          href={`${base}?at=${h.seq}&hl=${encodeURIComponent(hl)}#event-${encodeURIComponent(h.event_id)}`}
          className="block rounded border border-slate-200 bg-slate-50 px-2 py-1 hover:border-blue-400"
          data-testid="search-hit"
        >
          <span className="mr-2 font-mono text-slate-600">{h.event_id} · {h.type.replace(/_/g, " ")} · {h.agent}{h.tool ? ` · ${h.tool}` : ""}</span>
          {h.matched.map((m) => (
            <span key={m.term} className={`mr-2 rounded px-1 ${m.whole ? "bg-emerald-100 text-emerald-900" : "bg-amber-100 text-amber-900"}`} data-testid="search-matched" data-whole={m.whole}>
              “{m.term}” {m.whole ? "as a word" : "inside a word"}
            </span>
          ))}
          <span className="whitespace-pre-wrap break-words text-slate-800">
            {h.cut_start && "…"}
            <Highlighted text={h.snippet} terms={terms} />
            {h.cut_end && "…"}
          </span>
        </Link>
      ))}
      {hits.matches > hits.hits.length && <p className="text-slate-500">and {counted(hits.matches - hits.hits.length, "more matching event")}</p>}
      {hits.elsewhere.length > 0 && (
        <p className="text-slate-600" data-testid="search-elsewhere">
          also{" "}
          {hits.elsewhere.map((m, i) => (
            <span key={`${m.term}-${m.where}`} data-testid="search-matched" data-whole={m.whole} data-where={m.where}>
              {i > 0 ? "; " : ""}“{m.term}” {m.whole ? "as a word" : "inside a word"} in {m.where === "metadata" ? "the run's metadata (task definition, labels)" : "agent or tool names"}
            </span>
          ))}
        </p>
      )}
    </div>
  );
}
