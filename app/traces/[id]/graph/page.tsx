import type { Metadata } from "next";
import Link from "next/link";
import { parseViewState } from "@/lib/graph-view/view-state";
import { pageReadableProjects, requirePageRead } from "@/lib/server/auth/page-access";
import { keptAccuracy } from "@/lib/server/blame/kept-accuracy";
import { graphMeta } from "@/lib/server/queries/graph";
import { listPresets } from "@/lib/server/queries/presets";
import { findTraceRowOrNull } from "@/lib/server/queries/traces";
import { Suspects } from "@/components/attribution/suspects";
import { BLAME_METHODS } from "@/lib/blame";
import { GraphView } from "./_components/graph-view";
import { decodeSegment } from "@/lib/api/text";
import { taskDefinition } from "@/lib/annotate/task-definition";

export const dynamic = "force-dynamic";

interface Props {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  return { title: `Graph · ${decodeSegment(id) ?? id}` };
}

/** The temporal interaction graph of one trace: the server prepares the metadata, the client view loads the columns. */
export default async function TraceGraphPage({ params, searchParams }: Props) {
  const { id } = await params;
  const traceId = decodeSegment(id) ?? "";
  const row = await findTraceRowOrNull(traceId);
  await requirePageRead(`/traces/${id}/graph`, row?.project.name ?? null);
  const [meta, presets, query, accuracy] = await Promise.all([graphMeta(traceId), listPresets(), searchParams, pageReadableProjects("/attribution").then((readable) => keptAccuracy(row?.system ?? null, readable))]);
  return (
    <div className="graph-page relative left-1/2 w-screen -translate-x-1/2 px-4">
      <div className="mb-2 flex flex-wrap items-baseline gap-x-4 gap-y-1">
        <Link href={`/traces/${encodeURIComponent(traceId)}`} prefetch={false} className="text-sm text-blue-700 hover:underline">
          ← Trace
        </Link>
        <h1 className="break-all font-mono text-lg font-semibold" data-testid="graph-title">{meta.trace_id}</h1>
        <span className="text-sm text-slate-500">
          {meta.events.toLocaleString("en")} events · {meta.edges.toLocaleString("en")} edges · {meta.lanes.length.toLocaleString("en")} agents
        </span>
      </div>
      <div className="mb-2 hide-when-presenting"><Suspects traceId={traceId} methods={BLAME_METHODS.map((m) => m.name)} accuracy={accuracy} collapsed afterGraph succeeded={row?.e1 === 1} /></div>
      {/* a new set of highlighted events from a link (the suspects' "show on the graph") draws at once */}
      <GraphView key={`${traceId}\u0000${[query.sel ?? []].flat().join(",")}`} traceId={traceId} meta={meta} view={parseViewState(query)} presets={presets.map((p) => p.name)} subject={{ task: row?.taskId ?? null, question: row ? (taskDefinition(row.metadata).instruction?.text ?? null) : null, system: row?.system ?? null }} />
    </div>
  );
}
