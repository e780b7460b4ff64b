import { highlightParts } from "@/lib/api/search-terms";

/** Untrusted text drawn as text, with the search terms marked. */
export function Highlighted({ text, terms }: { text: string; terms: readonly string[] }) {
  return (
    <>
      {highlightParts(text, terms).map((p, i) =>
        p.match ? <mark key={i} className="rounded-sm bg-yellow-200 px-0.5 text-yellow-950" data-testid="search-mark">{p.text}</mark> : <span key={i}>{p.text}</span>,
      )}
    </>
  );
}
