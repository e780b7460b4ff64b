import type { Metadata } from "next";
import Link from "next/link";
import { SuspectIdsProvider } from "@/components/attribution/suspect-ids";
import { Suspects } from "@/components/attribution/suspects";
import { HeatmapControls } from "@/components/heatmap/controls";
import { BLAME_METHODS } from "@/lib/blame";
import { HeatmapView } from "@/components/heatmap/heatmap-view";
import { MeasuredEffects } from "@/components/replay/measured-effects";
import { AddToAgenda } from "@/components/meeting/add-to-agenda";
import { searchParamsObject } from "@/lib/api/filters";
import { graphHref, traceHeatmapQuery } from "@/lib/heatmap/query";
import type { HeatmapModel } from "@/lib/heatmap/types";
import { parseWeightOverrides } from "@/lib/rewards/presets";
import { pageReadableProjects, requirePageRead } from "@/lib/server/auth/page-access";
import { keptAccuracy } from "@/lib/server/blame/kept-accuracy";
import { parseCreditQuery } from "@/lib/server/compute/credit";
import { heatmapPanels } from "@/lib/server/compute/heatmap-panels";
import { ApiError } from "@/lib/server/errors";
import { listPresets } from "@/lib/server/queries/presets";
import { groupTraceIds } from "@/lib/server/queries/trace-filter";
import { findTraceRowOrNull } from "@/lib/server/queries/traces";
import { decodeSegment } from "@/lib/api/text";

export const dynamic = "force-dynamic";

interface Props {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  return { title: `Heatmap · ${decodeSegment(id) ?? id}` };
}

/** Credit heatmaps of one trace; every setting is in the URL, so a shared link shows the same picture. */
export default async function TraceHeatmapPage({ params, searchParams }: Props) {
  const { id } = await params;
  const traceId = decodeSegment(id) ?? "";
  const values = searchParamsObject(await searchParams);
  const found = await findTraceRowOrNull(traceId);
  await requirePageRead(`/traces/${id}/heatmap`, found?.project.name ?? null);
  const row = found!;
  const parsed = traceHeatmapQuery.safeParse(values);
  const heatmap = parsed.success ? parsed.data : traceHeatmapQuery.parse({});
  const [presets, groupTraces, accuracy] = await Promise.all([listPresets(), groupTraceIds(row.groupId, traceId), pageReadableProjects("/attribution").then((readable) => keptAccuracy(row.system, readable))]);
  let panels: HeatmapModel[] = [];
  let problem: string | null = parsed.success ? null : "Some settings were invalid and are ignored.";
  try {
    const credit = parseCreditQuery(new URLSearchParams(values));
    panels = await heatmapPanels({ traceId, groupId: row.groupId, heatmap, credit, compare: values.compare, other: values.compare ? undefined : values.other });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    problem = [error.message, ...error.details.map((d) => `${d.path}: ${d.message}`)].join(" · ");
  }
  const main = panels[0];
  const weights = parseWeightOverrides(Object.entries(values));
  const overrides = weights.success ? weights.data : {};
  const pageHref = (offset: number) => `?${new URLSearchParams({ ...values, offset: String(offset) }).toString()}`;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
        <Link href={`/traces/${encodeURIComponent(traceId)}`} className="text-sm text-blue-700 hover:underline">← Trace</Link>
        <h1 className="text-2xl font-semibold">Credit heatmap</h1>
        <span className="break-all font-mono text-sm text-slate-600" data-testid="heatmap-trace">{traceId}</span>
        {main && <Link href={graphHref(traceId, undefined, main.credit, overrides)} className="text-sm text-blue-700 hover:underline">Graph</Link>}
        {row.groupId && (
          <Link href={`/heatmaps?group_id=${encodeURIComponent(row.groupId)}`} className="text-sm text-blue-700 hover:underline">Roles across its group</Link>
        )}
        <span className="ml-auto"><AddToAgenda title={main?.title ?? `Heatmap ${traceId}`} /></span>
      </div>
      <SuspectIdsProvider>
        <div className="hide-when-presenting"><Suspects traceId={traceId} methods={BLAME_METHODS.map((m) => m.name)} accuracy={accuracy} succeeded={row.e1 === 1} /></div>
        <HeatmapControls scope="trace" values={values} presets={presets.map((p) => p.name)} groupTraces={groupTraces} />
        {problem && <p role="alert" className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900" data-testid="heatmap-problem">{problem}</p>}
        {panels.length > 0 && <HeatmapView key={JSON.stringify(values)} panels={panels} overrides={overrides} />}
      </SuspectIdsProvider>
      {/* what replaying the run with a call changed measured, beside what credit says (nothing when the trace has no intervention) */}
      <MeasuredEffects traceId={traceId} preset={values.preset ?? "uniform"} />
      {main && main.kind === "event-family" && main.page.total > main.rows.length && (
        <nav className="flex gap-4 text-sm" aria-label="Event pages">
          {main.page.offset > 0 && <Link href={pageHref(Math.max(0, main.page.offset - main.page.limit))} className="text-blue-700 hover:underline">Previous events</Link>}
          {main.page.offset + main.rows.length < main.page.total && <Link href={pageHref(main.page.offset + main.page.limit)} className="text-blue-700 hover:underline">Next events</Link>}
        </nav>
      )}
    </div>
  );
}
