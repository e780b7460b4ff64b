"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { call, describeFailure } from "@/lib/api/client";
import { adjudicateDecisiveError } from "@/lib/api/contracts/decisive-errors";

/**
 * An admin settles a trace's decisive error: one of the events its
 * annotators named (PUT /api/traces/{id}/decisive-error/adjudication); the
 * adjudicated one wins wherever the trace's decisive event is used (export
 * rows, attribution scores). Names and events are drawn as text.
 */
export function DecisiveAdjudicateForm({ traceId, events, current }: { traceId: string; events: { event_id: string; agent: string }[]; current: string | null }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pick = async (eventId: string) => {
    setBusy(true);
    const result = await call(adjudicateDecisiveError, { params: { id: traceId }, body: { event_id: eventId } });
    setBusy(false);
    if (!result.ok) return setError(describeFailure(result));
    setError(null);
    router.refresh();
  };
  return (
    <div className="flex flex-wrap items-center gap-1" data-testid={`adjudicate-decisive-${traceId}`}>
      {events.map((e) => (
        <button key={e.event_id} type="button" disabled={busy} onClick={() => void pick(e.event_id)} aria-pressed={current === e.event_id} data-event-id={e.event_id}
          className={`rounded border px-2 py-0.5 text-xs ${current === e.event_id ? "border-blue-600 bg-blue-600 text-blue-50" : "border-slate-300 hover:bg-slate-100"}`}>
          {e.event_id} ({e.agent})
        </button>
      ))}
      {error && <span className="text-xs text-rose-700">{error}</span>}
    </div>
  );
}
