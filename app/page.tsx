import Link from "next/link";
import { searchParamsObject, traceListQuery } from "@/lib/api/filters";
import { pageReadableProjects } from "@/lib/server/auth/page-access";
import { listReceivingTraces } from "@/lib/server/otel/receiving";
import { listTraces, traceFacets } from "@/lib/server/queries/traces";
import { ReceivingTraces } from "./_components/receiving-traces";
import { TraceFilters } from "./_components/trace-filters";
import { TraceTable } from "./_components/trace-table";

export const dynamic = "force-dynamic";

export default async function TraceListPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = searchParamsObject(await searchParams);
  const parsed = traceListQuery.safeParse(raw);
  const query = parsed.success ? parsed.data : traceListQuery.parse({});
  const readable = await pageReadableProjects("/");
  const [page, facets, receiving] = await Promise.all([
    listTraces(query, readable),
    traceFacets(),
    // OTLP traces go to the default project
    readable === null || readable.includes("default") ? listReceivingTraces() : [],
  ]);
  const nextParams = new URLSearchParams({ ...raw, cursor: page.next_cursor ?? "" });
  const firstParams = new URLSearchParams(raw);
  firstParams.delete("cursor");
  return (
    <div className="space-y-4">
      <div className="flex items-baseline justify-between">
        <h1 className="text-2xl font-semibold">Traces</h1>
        <Link href="/upload" className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white hover:bg-slate-700">
          Upload traces
        </Link>
      </div>
      {!parsed.success && <p className="text-sm text-red-700">Some filters were invalid and are ignored.</p>}
      <TraceFilters values={raw} facets={facets} />
      <ReceivingTraces traces={receiving} />
      <TraceTable traces={page.traces} receiving={new Set(receiving.map((r) => r.trace_id))} />
      <div className="flex gap-4 text-sm">
        {query.cursor && (
          <Link className="text-blue-700 hover:underline" href={`/?${firstParams.toString()}`}>
            First page
          </Link>
        )}
        {page.next_cursor && (
          <Link className="text-blue-700 hover:underline" href={`/?${nextParams.toString()}`} data-testid="next-page">
            Next page
          </Link>
        )}
      </div>
    </div>
  );
}
