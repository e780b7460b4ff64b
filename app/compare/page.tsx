import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { clockOf, formatCost, formatDuration, formatTokens, formatValue, type Clock } from "@/lib/format";
import type { TraceMetrics } from "@/lib/metrics";
import { pageReadableProjects, requirePageRead } from "@/lib/server/auth/page-access";
import { traceMetrics } from "@/lib/server/queries/metrics";
import { findTraceRowOrNull } from "@/lib/server/queries/traces";

export const dynamic = "force-dynamic";

interface Side {
  traceId: string;
  groupId: string | null;
  clock: Clock;
  list: { events: number; tokens: number | null; cost: number | null; agents: number | null; errors: number | null };
  metrics: TraceMetrics;
}

async function side(traceId: string | undefined): Promise<Side> {
  if (!traceId) notFound();
  // unknown and unreadable traces answer alike (the read policy)
  const found = await findTraceRowOrNull(traceId);
  await requirePageRead(`/compare`, found?.project.name ?? null);
  if (!found) notFound();
  const row = found;
  return {
    traceId,
    groupId: row.groupId,
    clock: clockOf(row.metadata),
    list: { events: row.eventCount, tokens: row.totalTokens, cost: row.totalCost, agents: row.agentCount, errors: row.errorCount },
    metrics: await traceMetrics(traceId),
  };
}


export const metadata: Metadata = { title: "Compare two runs" };

/** Two traces side by side (the trace list's "Compare"): list columns, computed metrics and what each run reports. */
export default async function ComparePage({ searchParams }: { searchParams: Promise<{ a?: string; b?: string }> }) {
  const { a, b } = await searchParams;
  if (!a || !b) {
    await pageReadableProjects("/compare");
    return <ChooseTwo chosen={a ?? b ?? null} />;
  }
  const [left, right] = await Promise.all([side(a), side(b)]);
  const rows: [string, (s: Side) => string][] = [
    ["events", (s) => formatValue(s.list.events)],
    ["tokens", (s) => formatTokens(s.list.tokens)],
    ["cost", (s) => formatCost(s.list.cost)],
    ["agents", (s) => formatValue(s.list.agents)],
    ["error events", (s) => formatValue(s.list.errors)],
    ["E1 task success", (s) => (s.metrics.e1 === null ? "—" : s.metrics.e1 === 1 ? "success" : "failure")],
    ...Object.keys(left.metrics.e2).map((k): [string, (s: Side) => string] => [k.replace(/_/g, " "), (s) => metric(s, "e2", k)]),
    ...Object.keys(left.metrics.e3).map((k): [string, (s: Side) => string] => [k.replace(/_/g, " "), (s) => metric(s, "e3", k)]),
    ...Object.keys(left.metrics.e4).map((k): [string, (s: Side) => string] => [k.replace(/_/g, " "), (s) => metric(s, "e4", k)]),
    ...Object.keys(left.metrics.stop).map((k): [string, (s: Side) => string] => [k.replace(/_/g, " "), (s) => metric(s, "stop", k)]),
  ];
  const reportedKeys = [...new Set([...Object.keys(left.metrics.reported), ...Object.keys(right.metrics.reported)])];
  const sameGroup = left.groupId !== null && left.groupId === right.groupId;
  return (
    <div className="space-y-4">
      <Link href="/" className="text-sm text-blue-700 hover:underline">← Traces</Link>
      <h1 className="text-2xl font-semibold">Compare two traces</h1>
      {sameGroup && (
        <Link href={`/traces/${encodeURIComponent(left.traceId)}/heatmap?other=${encodeURIComponent(right.traceId)}`} className="text-sm text-blue-700 hover:underline">
          Credit heatmaps side by side (same group)
        </Link>
      )}
      <table className="w-full rounded border border-slate-200 bg-white text-sm" data-testid="compare-table">
        <thead className="bg-slate-100 text-left text-xs uppercase tracking-wide text-slate-700">
          <tr>
            <th className="px-3 py-2">metric</th>
            {[left, right].map((s) => (
              <th key={s.traceId} className="px-3 py-2 font-mono normal-case">
                <Link href={`/traces/${encodeURIComponent(s.traceId)}`} className="text-blue-700 hover:underline">{s.traceId}</Link>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label} className="border-t border-slate-100">
              <td className="px-3 py-1 text-slate-700">{label}</td>
              <td className="px-3 py-1 font-mono tabular-nums">{value(left)}</td>
              <td className="px-3 py-1 font-mono tabular-nums">{value(right)}</td>
            </tr>
          ))}
          {reportedKeys.map((k) => (
            <tr key={`reported-${k}`} className="border-t border-slate-100">
              <td className="px-3 py-1 text-slate-700">reported {k}</td>
              {[left, right].map((s) => <td key={s.traceId} className="px-3 py-1 font-mono tabular-nums">{formatValue(s.metrics.reported[k] ?? null)}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const TIMES = new Set(["busy_time", "makespan", "stop_t"]);

function metric(s: Side, section: "e2" | "e3" | "e4" | "stop", key: string): string {
  const v = (s.metrics[section] as unknown as Record<string, number | string | boolean | null>)[key] ?? null;
  return TIMES.has(key) && typeof v === "number" ? formatDuration(v, s.clock) : formatValue(v);
}

/** /compare without two ids: what the page needs and where to pick them. */
function ChooseTwo({ chosen }: { chosen: string | null }) {
  return (
    <div className="max-w-2xl space-y-3" data-testid="compare-choose">
      <h1 className="text-2xl font-semibold">Compare two traces</h1>
      <p className="text-sm text-slate-700">
        {chosen === null ? "No traces are chosen." : <>Only one trace is chosen (<span className="font-mono">{chosen}</span>).</>} This page sets two runs side by side: their
        list columns, every computed metric and what each run reports.
      </p>
      <p className="text-sm text-slate-700">
        Tick two traces in the <Link href="/" className="text-blue-700 underline">trace list</Link> and press Compare, or open{" "}
        <code className="font-mono">/compare?a=&lt;trace id&gt;&amp;b=&lt;trace id&gt;</code>.
      </p>
    </div>
  );
}
