import type { Metadata } from "next";
import Link from "next/link";
import { DashboardCharts } from "@/components/charts/dashboard-charts";
import { AddToAgenda } from "@/components/meeting/add-to-agenda";
import { searchParamsObject } from "@/lib/api/filters";
import { describeBar, metricOf, parseBar } from "@/lib/dashboard";
import { dashboardPageQuery } from "@/lib/dashboard/query";
import { pageReadableProjects } from "@/lib/server/auth/page-access";
import { barTraces, dashboardModel } from "@/lib/server/queries/dashboard";
import { toTraceFilter } from "@/lib/server/queries/dashboard-filter";
import { flagTrend } from "@/lib/server/hacking/queries";
import { traceFacets } from "@/lib/server/queries/traces";
import { BarTraces } from "./_components/bar-traces";
import { DashboardFilters } from "./_components/dashboard-filters";
import { FlagTrend } from "./_components/flag-trend";

export const dynamic = "force-dynamic";

/**
 * The metrics dashboard: E1 with its interval, every E2-E4 distribution,
 * stop verdicts, and trends by day and by checkpoint, over a filter; the
 * traces behind any bar. The server prepares every number (lib/dashboard).
 */
export const metadata: Metadata = { title: "Dashboard" };

export default async function DashboardPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const values = searchParamsObject(await searchParams);
  const parsed = dashboardPageQuery.safeParse(values);
  const query = parsed.success ? parsed.data : dashboardPageQuery.parse({});
  const readable = await pageReadableProjects("/dashboard");
  const { bar: barKey, trend, judges, ...filterQuery } = query;
  const filter = toTraceFilter(filterQuery, readable);
  const [model, facets, flags] = await Promise.all([dashboardModel(filter, judges), traceFacets(readable), flagTrend(filter)]);
  const withJudges = judges.kind !== "none";
  const judgesToggle = new URLSearchParams(values);
  if (withJudges) judgesToggle.delete("judges");
  else judgesToggle.set("judges", "all");
  const bar = parseBar(barKey);
  const list = bar ? await barTraces(filter, bar, model) : null;
  const binLabel = bar?.kind === "bin" ? model.histograms.find((h) => h.metric === bar.metric)?.bars[bar.index]?.label : undefined;
  const withoutBar = new URLSearchParams(values);
  withoutBar.delete("bar");
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-baseline gap-4">
        <h1 className="text-2xl font-semibold">Metrics dashboard</h1>
        <span className="text-sm text-slate-600" data-testid="dashboard-scope">{model.traces} traces · {model.scope}</span>
        {/* E1 only: judges' task_success values decide the runs no person labelled (docs/judges.md) */}
        <Link
          href={`?${judgesToggle.toString()}`}
          role="switch"
          aria-checked={withJudges}
          data-testid="dashboard-judges"
          className="hide-when-presenting rounded border border-slate-300 px-2 py-0.5 text-sm hover:bg-slate-100"
          title="E1 from judges' task_success values where no person labelled the run"
        >
          {withJudges ? "☑" : "☐"} with judges{withJudges && judges.kind === "names" ? ` (${judges.names.join(", ")})` : ""}
        </Link>
        <span className="ml-auto"><AddToAgenda title={`Dashboard: ${model.scope}`} /></span>
      </div>
      <div className="hide-when-presenting">
        <DashboardFilters values={values} facets={facets} />
      </div>
      {!parsed.success && (
        <p role="alert" className="text-sm text-rose-700">
          Ignored invalid filters: {parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}
        </p>
      )}
      {bar && list && <BarTraces title={describeBar(bar, (m) => metricOf(m)?.label ?? m, binLabel)} total={list.total} traces={list.traces} clearHref={`?${withoutBar.toString()}`} />}
      {barKey && !list && <p role="alert" className="text-sm text-rose-700">No bar “{barKey}” in this dashboard.</p>}
      <DashboardCharts model={model} selected={barKey ?? null} trendMetric={trend} />
      <FlagTrend points={flags.points} listFilter={listFilterOf(filterQuery)} />
    </div>
  );
}

/** The dashboard filter as trace-list parameters (both read from/to as inclusive UTC days). */
function listFilterOf(q: Record<string, unknown>): Record<string, string> {
  const keys = ["project", "system", "task_id", "group_id", "topology", "from", "to"];
  return Object.fromEntries(keys.flatMap((k) => (typeof q[k] === "string" && q[k] !== "" ? [[k, q[k]]] : [])));
}
