"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import type { RankedEvent } from "@/lib/blame/types";
import { describeFailure, sendJson } from "@/lib/api/send";

interface Blame {
  method: string;
  /** 202: being trained or ranked in the background */
  state?: "training" | "ranking";
  reason?: string;
  retry_after_s?: number;
  chosen?: { by: string; reason?: string };
  trained?: { traces: number; held_out: boolean; source?: "project" | "default" };
  events?: RankedEvent[];
}

/** The suspects shown: the first events of the ranking are enough (the API pages it). */
const SUSPECTS_PAGE = 20;

/**
 * The blame overlay: the top three suspects of an attribution method (the
 * project's best by default) for the run's decisive error, each with the
 * signals behind its score, linked into the graph where they are drawn
 * highlighted. Agent names and signals are text.
 */
export function Suspects({ traceId, methods, collapsed = false }: { traceId: string; methods: readonly string[]; collapsed?: boolean }) {
  const [method, setMethod] = useState("best");
  const [blame, setBlame] = useState<Blame | null>(null);
  const [error, setError] = useState<string | null>(null);
  // asked again while the answer is made in the background
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let cancelled = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    void sendJson<Blame>("GET", `/api/traces/${encodeURIComponent(traceId)}/blame?method=${encodeURIComponent(method)}&limit=${SUSPECTS_PAGE}`).then((r) => {
      if (cancelled) return;
      if (r.ok) {
        setBlame(r.data);
        setError(null);
        if (r.data.state) retry = setTimeout(() => setAttempt((a) => a + 1), (r.data.retry_after_s ?? 5) * 1000);
      } else setError(describeFailure(r));
    });
    return () => {
      cancelled = true;
      clearTimeout(retry);
    };
  }, [traceId, method, attempt]);
  const top = blame?.events?.filter((e) => e.rank <= 3).slice(0, 6) ?? [];
  const graph = `/traces/${encodeURIComponent(traceId)}/graph?${new URLSearchParams(top.map((e) => ["sel", e.id])).toString()}`;
  return (
    <details open={!collapsed} className="rounded border border-rose-200 bg-white p-3 text-sm dark:bg-transparent" data-testid="suspects" aria-label="Blame: top suspects">
      <summary className="cursor-pointer font-semibold">
        Suspects for the decisive error{top.length > 0 && <span className="font-normal text-slate-600"> — {top.slice(0, 3).map((e) => `${e.rank}. ${e.id} (${e.agent})`).join(" · ")}</span>}
      </summary>
      <div className="mt-1 flex flex-wrap items-baseline gap-2">
        <label className="text-xs text-slate-600">
          method{" "}
          <select value={method} onChange={(e) => setMethod(e.target.value)} className="rounded border border-slate-300 px-1 py-0.5" data-testid="suspects-method">
            <option value="best">best for this project</option>
            {methods.map((m) => <option key={m} value={m}>{m}</option>)}
          </select>
        </label>
        {blame && <span className="text-xs text-slate-500">{blame.method}{blame.trained ? ` · trained on ${blame.trained.traces} labelled runs${blame.trained.source === "default" ? " (shipped with Baton)" : ""}${blame.trained.held_out ? ", this run's own label left out" : ""}` : ""}{blame.chosen?.reason ? ` · ${blame.chosen.reason}` : ""}</span>}
        {top.length > 0 && <Link href={graph} className="ml-auto text-xs text-blue-700 hover:underline" data-testid="suspects-graph">show on the graph</Link>}
      </div>
      {error && <p className="text-xs text-amber-800">{error}</p>}
      {blame?.state && <p className="text-xs text-slate-600" role="status" data-testid="suspects-pending">{blame.reason}…</p>}
      <ol className="mt-1 space-y-0.5">
        {top.map((e) => (
          <li key={e.id} data-testid="suspect" data-suspect-id={e.id} data-rank={e.rank}>
            <span className="mr-1 inline-block w-5 text-right font-semibold">{e.rank}.</span>
            <Link className="font-mono text-blue-700 hover:underline" href={`/traces/${encodeURIComponent(traceId)}/label?event=${encodeURIComponent(e.id)}`}>{e.id}</Link> {e.agent}{" "}
            <span className="text-xs text-slate-500">{topSignals(e.signals)}</span>
          </li>
        ))}
      </ol>
    </details>
  );
}

/** The three signals that weigh most, as "name value". */
function topSignals(signals: Record<string, number>): string {
  return Object.entries(signals)
    .filter(([, v]) => Number.isFinite(v) && v !== 0)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
    .slice(0, 3)
    .map(([k, v]) => `${k} ${Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(2)}`)
    .join(" · ");
}
