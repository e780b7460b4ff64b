"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { useCallback } from "react";
import { DASHBOARD_METRICS, SECTION_TITLES } from "@/lib/dashboard/metrics";
import type { DashboardModel } from "@/lib/dashboard/types";
import { BarChart } from "./bar-chart";
import { RateCard } from "./rate-card";
import { TrendChart } from "./trend-chart";
import { counted } from "@/lib/format";

interface Props {
  model: DashboardModel;
  /** The selected bar's key (`bar=`), outlined. */
  selected: string | null;
  trendMetric: string;
}

/**
 * Every chart of the dashboard. Clicking a bar or a trend point puts its key
 * in the URL (`bar=`), and the page lists the traces behind it.
 */
export function DashboardCharts({ model, selected, trendMetric }: Props) {
  const router = useRouter();
  const params = useSearchParams();
  const navigate = useCallback(
    (key: string, value: string, hash = "") => {
      const next = new URLSearchParams(params.toString());
      next.set(key, value);
      router.push(`?${next.toString()}${hash}`, { scroll: hash !== "" });
    },
    [params, router],
  );
  const onBar = useCallback((key: string) => navigate("bar", key, "#bar-traces"), [navigate]);
  const metric = DASHBOARD_METRICS.find((m) => m.key === trendMetric) ?? DASHBOARD_METRICS[4]!;
  const sections = (["e2", "e3", "e4"] as const).map((s) => ({ section: s, histograms: model.histograms.filter((h) => h.section === s) }));
  return (
    <div className="space-y-8">
      <section className="flex flex-wrap gap-6" aria-label="Task success and stop verdicts">
        <RateCard rate={model.e1} scope={model.scope === "all traces" ? `all ${model.traces} traces` : `${model.traces} traces · ${model.scope}`} />
        <BarChart id="e1" title="E1 outcomes" subtitle="unknown: no E1 (counted apart)" bars={model.e1.bars} xLabel="E1" selected={selected} onBarClick={onBar} width={330} />
        <BarChart id="verdicts" title="Stop verdicts" subtitle="stop diagnostics (Docs: Metrics)" bars={model.verdicts.bars} xLabel="verdict" selected={selected} onBarClick={onBar} width={380} />
      </section>
      <section className="space-y-2" aria-label="Trends">
        <div className="flex items-center gap-3">
          <h2 className="text-xl font-semibold">Trends</h2>
          <label className="text-sm text-slate-700">
            beside E1, the mean of{" "}
            <select value={metric.key} onChange={(e) => navigate("trend", e.target.value)} className="rounded border border-slate-300 bg-white px-2 py-1 text-sm" data-testid="trend-metric">
              {DASHBOARD_METRICS.map((m) => <option key={m.key} value={m.key}>{m.label}</option>)}
            </select>
          </label>
        </div>
        <div className="flex flex-wrap gap-6">
          <TrendChart id="trend-policy" trend={model.trends.policy} metric={metric} selected={selected} onPointClick={onBar} />
          <TrendChart id="trend-day" trend={model.trends.day} metric={metric} selected={selected} onPointClick={onBar} />
        </div>
      </section>
      {sections.map(({ section, histograms }) => (
        <section key={section} className="space-y-2" aria-label={SECTION_TITLES[section]}>
          <h2 className="text-xl font-semibold">{SECTION_TITLES[section]}</h2>
          <div className="flex flex-wrap gap-6">
            {histograms.map((h) => (
              <BarChart key={h.metric} id={`hist-${h.metric}`} title={h.label} subtitle={`${h.values} with a value · ${h.nulls} null${h.clipped_below + h.clipped_above > 0 ? ` · ${counted(h.clipped_below + h.clipped_above, "outlier")} outside the 2nd-98th percentiles not drawn (${h.clipped_below} below, ${h.clipped_above} above)` : ""}`} bars={h.bars} xLabel={h.metric} selected={selected} onBarClick={onBar} />
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}
