import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { clockOf, counted, formatCost, formatDuration, formatTokens, formatValue, type Clock } from "@/lib/format";
import type { TraceMetrics } from "@/lib/metrics";
import { pageReadableProjects, requirePageRead } from "@/lib/server/auth/page-access";
import { pairCalls, type CallPair } from "@/lib/replay/compare";
import type { Origin } from "@/lib/replay/plan";
import { replayProvenance } from "@/lib/replay/provenance";
import { loadCalls } from "@/lib/server/calls/store";
import { traceMetrics } from "@/lib/server/queries/metrics";
import { findTraceRowOrNull } from "@/lib/server/queries/traces";

export const dynamic = "force-dynamic";

interface Side {
  traceId: string;
  dbId: number;
  metadata: unknown;
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
    dbId: row.id,
    metadata: row.metadata,
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
  const [callsA, callsB] = await Promise.all([loadCalls(left.dbId), loadCalls(right.dbId)]);
  // how the right run's calls were answered, when it replays the left one
  const replay = replayProvenance(right.metadata);
  const pairs = pairCalls(callsA, callsB, replay !== null && replay.of === left.traceId ? replay.origins : null);
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
      {pairs.length > 0 && <CallsSideBySide pairs={pairs} left={left.traceId} right={right.traceId} />}
    </div>
  );
}

/** At most this many pairs of calls are drawn; at most this many characters of a reply. */
const MAX_PAIRS = 200;
const MAX_REPLY = 400;
const ANSWERED: Record<Origin, string> = { record: "from the record", edit: "the edit", live: "the model" };

/** The two runs' model calls, each agent's k-th beside its k-th (lib/replay/compare.ts); replies that differ are marked. Untrusted text, shown as text. */
function CallsSideBySide({ pairs, left, right }: { pairs: CallPair[]; left: string; right: string }) {
  const origins = pairs.some((p) => p.origin !== null);
  const differ = pairs.filter((p) => !p.same).length;
  const cut = (text: string) => (text.length > MAX_REPLY ? `${text.slice(0, MAX_REPLY)}…` : text);
  return (
    <section className="space-y-2" data-testid="compare-calls">
      <h2 className="text-lg font-semibold">Model calls side by side</h2>
      <p className="text-sm text-slate-700">
        Each agent&apos;s calls in the order it made them, its first call in one run beside its first in the other: {counted(pairs.length, "pair")}, {differ === 0 ? "every reply the same" : `${counted(differ, "reply", "replies")} not the same`}
        {pairs.length > MAX_PAIRS ? ` (the first ${MAX_PAIRS} shown)` : ""}.{origins && " The right run replays the left one: how each of its calls was answered is in the last column."}
      </p>
      <table className="w-full rounded border border-slate-200 bg-white text-sm">
        <thead className="bg-slate-100 text-left text-xs uppercase tracking-wide text-slate-700">
          <tr>
            <th className="px-3 py-2">agent · call</th>
            <th className="px-3 py-2 font-mono normal-case">{left}</th>
            <th className="px-3 py-2 font-mono normal-case">{right}</th>
            <th className="px-3 py-2">replies</th>
            {origins && <th className="px-3 py-2">answered by</th>}
          </tr>
        </thead>
        <tbody>
          {pairs.slice(0, MAX_PAIRS).map((p) => (
            <tr key={`${p.agent}-${p.k}`} className={`border-t border-slate-100 align-top ${p.same ? "" : "bg-amber-50 dark:bg-transparent"}`} data-testid="compare-call" data-same={p.same ? "1" : "0"} data-origin={p.origin ?? ""}>
              <td className="px-3 py-1 whitespace-nowrap">{p.agent} · {p.k}</td>
              {[p.a, p.b].map((c, i) => (
                <td key={i} className="px-3 py-1 break-words">
                  {c === null ? <span className="text-slate-500">no such call</span> : <><span className="font-mono text-xs text-slate-500">{c.id}</span> {c.reply === "" ? <span className="italic text-slate-500">no text</span> : cut(c.reply)}</>}
                </td>
              ))}
              <td className="px-3 py-1">{p.same ? "same" : "differ"}</td>
              {origins && <td className="px-3 py-1 whitespace-nowrap">{p.origin === null ? "—" : ANSWERED[p.origin]}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
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
        list columns, every computed metric, what each run reports and their model calls.
      </p>
      <p className="text-sm text-slate-700">
        Tick two traces in the <Link href="/" className="text-blue-700 underline">trace list</Link> and press Compare, or open{" "}
        <code className="font-mono">/compare?a=&lt;trace id&gt;&amp;b=&lt;trace id&gt;</code>.
      </p>
    </div>
  );
}
