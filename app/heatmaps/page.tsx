import type { Metadata } from "next";
import { HeatmapControls } from "@/components/heatmap/controls";
import { HeatmapView } from "@/components/heatmap/heatmap-view";
import { AddToAgenda } from "@/components/meeting/add-to-agenda";
import { searchParamsObject } from "@/lib/api/filters";
import { roleHeatmapQuery } from "@/lib/heatmap/query";
import type { HeatmapModel } from "@/lib/heatmap/types";
import { pageReadableProjects } from "@/lib/server/auth/page-access";
import { parseCreditQuery } from "@/lib/server/compute/credit";
import { rolePanels } from "@/lib/server/compute/role-panels";
import { ApiError } from "@/lib/server/errors";
import { listPresets } from "@/lib/server/queries/presets";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Heatmaps" };

/** Role x family credit across the traces of a project, system, task or group (all readable traces when unfiltered). */
export default async function RoleHeatmapsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const values = searchParamsObject(await searchParams);
  const readable = await pageReadableProjects("/heatmaps");
  const parsed = roleHeatmapQuery.safeParse(values);
  const query = parsed.success ? parsed.data : roleHeatmapQuery.parse({});
  const presets = await listPresets();
  let panels: HeatmapModel[] = [];
  let problem: string | null = parsed.success ? null : "Some settings were invalid and are ignored.";
  try {
    const { kind: _kind, max_traces, ...filter } = query;
    const credit = parseCreditQuery(new URLSearchParams(values));
    panels = await rolePanels({ ...filter, ...(readable !== null && { readable }) }, { kind: "role-family", max_traces }, credit, values.compare);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    problem = [error.message, ...error.details.map((d) => `${d.path}: ${d.message}`)].join(" · ");
  }
  const main = panels[0];
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-baseline gap-4">
        <h1 className="text-2xl font-semibold">Credit by role across traces</h1>
        <span className="ml-auto"><AddToAgenda title={main?.title ?? "Role heatmap"} /></span>
      </div>
      <HeatmapControls scope="across" values={values} presets={presets.map((p) => p.name)} />
      {problem && <p role="alert" className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900" data-testid="heatmap-problem">{problem}</p>}
      {main && main.rows.length === 0 && <p className="text-slate-600">No trace matches these filters.</p>}
      {main && main.rows.length > 0 && <HeatmapView key={JSON.stringify(values)} panels={panels} />}
    </div>
  );
}
