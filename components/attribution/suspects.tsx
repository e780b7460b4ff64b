"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { suspectReasons } from "@/lib/blame/reasons";
import type { RankedAgent, RankedEvent } from "@/lib/blame/types";
import { counted, formatPercent } from "@/lib/format";
import type { SystemAccuracy as KeptAccuracy } from "@/lib/blame/scores";
import { call, describeFailure } from "@/lib/api/client";
import type { Output } from "@/lib/api/contract";
import { traceBlame } from "@/lib/api/contracts/analysis";
import { ConfirmedBadge, ConfirmedSuspects } from "@/components/replay/confirmed-suspects";
import type { ConfirmedSuspect } from "@/lib/api/replay";
import { whenGraphDrawn } from "@/components/trace-graph/drawn-signal";
import { usePublishSuspects } from "./suspect-ids";

/** What the panel shows of an answer of `GET /api/traces/{id}/blame` (a ranking, or 202 while it is made). */
interface Blame {
  method: string;
  /** 202: being trained or ranked in the background */
  state?: "training" | "ranking";
  reason?: string;
  retry_after_s?: number;
  chosen?: { by: string; reason?: string };
  trained?: { traces: number; held_out: boolean; source?: "project" | "default" };
  events?: RankedEvent[];
  agents?: RankedAgent[];
  /** calls whose correction turned the failed run into a success, with their events */
  confirmed_by_replay?: ConfirmedSuspect[];
}

function shown(data: Output<typeof traceBlame>): Blame {
  const chosen = data.chosen && { by: data.chosen.by, reason: "reason" in data.chosen ? data.chosen.reason : undefined };
  if ("state" in data) return { method: data.method, state: data.state, reason: data.reason, retry_after_s: data.retry_after_s, chosen };
  return { method: data.method, chosen, trained: data.trained, events: data.events, agents: data.agents, confirmed_by_replay: data.confirmed_by_replay };
}

/** The events asked for: the suspects and enough of the rest for their reasons (what sets a suspect apart is read against these); the API pages the ranking. */
const SUSPECTS_PAGE = 200;

/**
 * The blame overlay: the top three suspects of an attribution method (the
 * project's best by default) for the run's decisive error, each with its own
 * reasons in words (lib/blame/reasons.ts), the method's ranking of agents
 * (people are never among them), linked into the graph where they are drawn
 * highlighted. Agent names and reasons are text.
 */
export function Suspects({
  traceId,
  methods,
  accuracy = null,
  collapsed = false,
  afterGraph = false,
  succeeded = false,
}: {
  traceId: string;
  methods: readonly string[];
  accuracy?: KeptAccuracy | null;
  collapsed?: boolean;
  /** the run succeeded (E1 = 1): it has no decisive error, and the panel says so and starts closed */
  succeeded?: boolean;
  /** on the graph page: ask only once the graph is drawn (components/trace-graph/drawn-signal.ts), so that its event pages come first */
  afterGraph?: boolean;
}) {
  const [method, setMethod] = useState("best");
  // an answer is shown only for the method (and trace) it was asked for: another method's suspects never stand in while a new one is asked
  const key = `${traceId}\u0000${method}`;
  const [answer, setAnswer] = useState<{ key: string; blame: Blame } | null>(null);
  const blame = answer?.key === key ? answer.blame : null;
  const [error, setError] = useState<string | null>(null);
  const publish = usePublishSuspects();
  // asked again while the answer is made in the background
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let cancelled = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const ready = afterGraph ? whenGraphDrawn(traceId) : Promise.resolve();
    void ready.then(() => {
      if (cancelled) return null;
      return call(traceBlame, { params: { id: traceId }, query: { method, limit: SUSPECTS_PAGE } });
    }).then((r) => {
      if (!r || cancelled) return;
      if (r.ok) {
        const blame = shown(r.data);
        setAnswer({ key, blame });
        setError(null);
        publish(topSuspects(blame.events ?? []).map((e) => e.id));
        if (blame.state) retry = setTimeout(() => setAttempt((a) => a + 1), (blame.retry_after_s ?? 5) * 1000);
      } else setError(describeFailure(r));
    });
    return () => {
      cancelled = true;
      clearTimeout(retry);
    };
  }, [traceId, method, key, publish, attempt, afterGraph]);
  const top = blame?.events ? topSuspects(blame.events) : [];
  const confirmed = new Set((blame?.confirmed_by_replay ?? []).flatMap((c) => c.event_ids));
  const agents = blame?.agents?.filter((a) => a.rank <= 3).slice(0, 3) ?? [];
  const graph = `/traces/${encodeURIComponent(traceId)}/graph?${new URLSearchParams(top.map((e) => ["sel", e.id])).toString()}`;
  return (
    <details open={!collapsed && !succeeded} className="rounded border border-rose-200 bg-white p-3 text-sm dark:bg-transparent" data-testid="suspects" aria-label="Blame: top suspects">
      <summary className="cursor-pointer font-semibold">
        Suspects for the decisive error
        {succeeded ? (
          <span className="font-normal text-slate-600" data-testid="suspects-succeeded"> — this run succeeded, so it has none; open to see whom a method would blame</span>
        ) : (
          top.length > 0 && <span className="font-normal text-slate-600"> — {top.slice(0, 3).map((e) => `${e.rank}. ${e.id} (${e.agent})`).join(" · ")}</span>
        )}
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
      {blame && !blame.state && <Accuracy method={blame.method} accuracy={accuracy} />}
      {agents.length > 0 && (
        <p className="mt-1 text-xs text-slate-700" data-testid="suspect-agents">
          agents: {agents.map((a, i) => <span key={a.agent} data-testid="suspect-agent" data-agent={a.agent}>{i > 0 && " · "}{a.rank}. {a.agent}</span>)}
        </p>
      )}
      <ol className="mt-1 space-y-0.5">
        {top.map((e) => (
          <li key={e.id} data-testid="suspect" data-suspect-id={e.id} data-rank={e.rank}>
            <span className="mr-1 inline-block w-5 text-right font-semibold">{e.rank}.</span>
            <Link className="font-mono text-blue-700 hover:underline" href={`/traces/${encodeURIComponent(traceId)}/label?event=${encodeURIComponent(e.id)}`}>{e.id}</Link> {e.agent}{confirmed.has(e.id) && <ConfirmedBadge />}{" "}
            <span className="text-xs text-slate-600" data-testid="suspect-reasons">{reasonsOf(blame?.events ?? [], e.id)}</span>
          </li>
        ))}
      </ol>
      <ConfirmedSuspects traceId={traceId} confirmed={blame?.confirmed_by_replay ?? []} />
    </details>
  );
}

/** What sets the suspect apart, in words; said so when nothing does (the method scores every event alike there). */
function reasonsOf(events: readonly RankedEvent[], id: string): string {
  const reasons = suspectReasons(events, id);
  return reasons.length > 0 ? reasons.join(" · ") : "nothing sets it apart from the run's other steps";
}

/** How often the method names the labelled step on this system's runs, as the Attribution page last scored it. */
function Accuracy({ method, accuracy }: { method: string; accuracy: KeptAccuracy | null }) {
  const score = accuracy?.step_top1[method];
  if (!accuracy || !score) {
    return <p className="mt-1 text-xs text-slate-600" data-testid="suspects-accuracy">How often {method} is right here is not measured yet: the Attribution page scores it on this system&apos;s labelled runs.</p>;
  }
  return (
    <p className="mt-1 text-xs text-slate-700" data-testid="suspects-accuracy" data-value={score.value}>
      On {counted(score.n, `labelled ${accuracy.system} run`)}, {method} named the decisive step first in <strong>{formatPercent(score.value, 1)}</strong> (95 % interval {formatPercent(score.low, 1)}–{formatPercent(score.high, 1)}).
    </p>
  );
}

/** The events ranked 1 to 3 (ties included), at most six. */
function topSuspects(events: readonly RankedEvent[]): RankedEvent[] {
  return events.filter((e) => e.rank <= 3).slice(0, 6);
}
