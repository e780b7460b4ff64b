"use client";

import Link from "next/link";
import { useState } from "react";
import { call, describeFailure } from "@/lib/api/client";
import { putDecisiveError } from "@/lib/api/contracts/decisive-errors";
import type { ConfirmedSuspect } from "@/lib/api/replay";

/** The suspect's badge: shown beside a ranked event that a confirmed call produced. */
export function ConfirmedBadge() {
  return <span className="ml-1 rounded bg-emerald-100 px-1 text-xs font-semibold text-emerald-900" data-testid="confirmed-badge">confirmed by replay</span>;
}

/**
 * Suspects confirmed by replay (docs/replay.md "Confirmed by replay"): each
 * confirmed call with its evidence in words, and a button that names its
 * last event the decisive error (PUT /api/traces/{id}/decisive-error) with
 * that evidence as the reason. Evidence and names are text.
 */
export function ConfirmedSuspects({ traceId, confirmed }: { traceId: string; confirmed: readonly ConfirmedSuspect[] }) {
  const [state, setState] = useState<Record<string, string>>({});
  if (confirmed.length === 0) return null;
  const name = async (c: ConfirmedSuspect) => {
    const eventId = c.event_ids.at(-1)!;
    setState((s) => ({ ...s, [c.call_id]: "saving…" }));
    const r = await call(putDecisiveError, { params: { id: traceId }, body: { event_id: eventId, reason: c.evidence } });
    setState((s) => ({ ...s, [c.call_id]: r.ok ? `${eventId} is your decisive error, with this evidence` : describeFailure(r) }));
  };
  return (
    <ul className="mt-2 space-y-1 border-t border-emerald-200 pt-1" data-testid="confirmed-suspects" aria-label="Confirmed by replay">
      {confirmed.map((c) => (
        <li key={c.call_id} className="text-xs text-slate-700" data-testid="confirmed-suspect" data-call-id={c.call_id}>
          <ConfirmedBadge />{" "}
          {c.event_ids.length > 0 && <Link className="font-mono text-blue-700 hover:underline" href={`/traces/${encodeURIComponent(traceId)}/label?event=${encodeURIComponent(c.event_ids.at(-1)!)}`}>{c.event_ids.at(-1)}</Link>} {c.agent}: <span data-testid="confirmed-evidence">{c.evidence}</span>{" "}
          {c.event_ids.length > 0 && (
            <button type="button" className="rounded border border-emerald-400 bg-emerald-100 px-1 text-emerald-900 hover:bg-emerald-200" onClick={() => void name(c)} data-testid="confirmed-make-decisive">
              Make it the decisive error
            </button>
          )}
          {state[c.call_id] && <span className="ml-1" role="status" data-testid="confirmed-state">{state[c.call_id]}</span>}
        </li>
      ))}
    </ul>
  );
}
