import type { Metadata } from "next";
import Link from "next/link";
import { LIST_FILTER_KEYS, searchParamsObject, traceListQuery } from "@/lib/api/filters";
import { searchTerms } from "@/lib/api/search-terms";
import { currentSession } from "@/lib/server/auth/current";
import { pageReadableProjects } from "@/lib/server/auth/page-access";
import { listReceivingTraces } from "@/lib/server/otel/receiving";
import { searchSnippets } from "@/lib/server/queries/search-snippets";
import { listTotal, MAX_RANKED, scanSearch } from "@/lib/server/queries/trace-list";
import { listTraces, onlyDemoTraces, traceFacets } from "@/lib/server/queries/traces";
import { ReceivingTraces } from "./_components/receiving-traces";
import { SelectionProvider } from "./_components/selection";
import { StartHere } from "./_components/start-here";
import { SelectionBar } from "./_components/selection-bar";
import { TraceFilters } from "./_components/trace-filters";
import { TraceTable } from "./_components/trace-table";

export const dynamic = "force-dynamic";

// the layout's title template applies to the segments below it, not to this page beside it
export const metadata: Metadata = { title: { absolute: "Traces · Baton" } };

export default async function TraceListPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = searchParamsObject(await searchParams);
  const parsed = traceListQuery.safeParse(raw);
  const query = parsed.success ? parsed.data : traceListQuery.parse({});
  const readable = await pageReadableProjects("/");
  // the search's terms first (both reads use them), and the total first when a search is ranked: with a common term or past
  // MAX_RANKED matches the page is in creation order instead
  const ranked = query.sort === "match" && query.text !== undefined;
  const scans = await scanSearch(query);
  const counted = ranked ? await listTotal(query, readable, scans) : undefined;
  const [page, { n: total, at_least: atLeast }, facets, receiving, session, newcomer] = await Promise.all([
    listTraces(query, readable, { scans, total: counted }),
    counted ?? listTotal(query, readable, scans),
    traceFacets(readable),
    // OTLP traces go to the default project
    readable === null || readable.includes("default") ? listReceivingTraces() : [],
    currentSession(),
    onlyDemoTraces(),
  ]);
  const terms = query.text ? searchTerms(query.text) : [];
  const hits = terms.length > 0 ? await searchSnippets(page.traces.map((t) => t.id), query.text!) : new Map();
  // the server checks each delete; the button is only offered to someone who may delete somewhere
  const canDelete = session.open_mode || session.user?.is_admin === true || (session.user?.memberships.some((m) => m.role === "admin") ?? false);
  const pageHref = (key: "cursor" | "before", value: string) => {
    const p = new URLSearchParams(raw);
    p.delete("cursor");
    p.delete("before");
    p.set(key, value);
    return `/?${p.toString()}`;
  };
  const firstParams = new URLSearchParams(raw);
  firstParams.delete("cursor");
  firstParams.delete("before");
  const paged = query.cursor !== undefined || query.before !== undefined;
  // what "export all that match" exports: the list's filters (a page's sort and cursor are not filters); none when a filter is invalid
  const filters = parsed.success ? new URLSearchParams(Object.entries(raw).filter(([k]) => (LIST_FILTER_KEYS as readonly string[]).includes(k))).toString() : "";
  return (
    <div className="space-y-4" data-wide>
      <div className="flex items-baseline justify-between">
        <h1 className="text-2xl font-semibold">Traces</h1>
        <Link href="/upload" className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white hover:bg-slate-700">
          Upload traces
        </Link>
      </div>
      {newcomer && <StartHere empty={facets.systems.length === 0} />}
      {!parsed.success && (
        <p className="text-sm text-red-700" role="alert">
          Some filters were invalid and are ignored: {parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}
        </p>
      )}
      <TraceFilters values={raw} facets={facets} />
      <ReceivingTraces traces={receiving} />
      <SelectionProvider>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm text-slate-700" data-testid="trace-total">
            {atLeast && "at least "}{total.toLocaleString("en")} {total === 1 && !atLeast ? "trace" : "traces"}{terms.length > 0 && <> matching {terms.map((t) => `“${t}”`).join(" and ")}{ranked && (page.order === "match"
              ? <span className="text-slate-500" data-testid="ranked-note"> · whole words and phrases first</span>
              : <span className="text-slate-500" data-testid="ranked-note"> · too many to rank ({atLeast ? "a term in too many events to count them all" : `over ${MAX_RANKED.toLocaleString("en")}`}): newest first; add a word or quote a phrase</span>)}</>}
          </p>
          <SelectionBar canDelete={canDelete} total={parsed.success ? total : 0} atLeast={atLeast} filters={filters} />
        </div>
        <TraceTable traces={page.traces} values={raw} sort={query.sort} dir={query.dir} receiving={new Set(receiving.map((r) => r.trace_id))} hits={hits} terms={terms} />
      </SelectionProvider>
      <nav className="flex gap-4 text-sm" aria-label="Pages">
        {paged && <Link className="text-blue-700 hover:underline" href={`/?${firstParams.toString()}`}>First page</Link>}
        {page.prev_cursor && <Link className="text-blue-700 hover:underline" href={pageHref("before", page.prev_cursor)} data-testid="prev-page">Previous page</Link>}
        {page.next_cursor && <Link className="text-blue-700 hover:underline" href={pageHref("cursor", page.next_cursor)} data-testid="next-page">Next page</Link>}
      </nav>
    </div>
  );
}
