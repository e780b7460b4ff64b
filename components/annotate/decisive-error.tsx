"use client";

import { useCallback, useEffect, useState } from "react";
import type { DecisiveErrorsResponse } from "@/lib/api/decisive-errors";
import { deleteDecisiveError, getDecisiveErrors, putDecisiveError } from "@/lib/api/contracts/decisive-errors";
import { call, describeFailure } from "@/lib/api/client";
import { GuidedSearch } from "./guided-search";
import { selectUnitEventId, useLabeling, useLabelingStore } from "./store";
import { useLabelKeys } from "./use-label-keys";

/**
 * "The run went wrong here": the decisive error of the trace (SPEC.md
 * section 5), one per annotator. Shows every annotator's (a dataset's
 * ground truth marked as imported) and the adjudicated one; the selected
 * event becomes the caller's with `w` or the button. Names are text.
 *
 * In a blind queue (`blind`) only the caller's own is shown; `onMine` hears
 * whether the caller has named one, after every load and save.
 */
export function DecisiveErrorPanel({ disabled, me, blind = false, onMine }: { disabled: boolean; me: string | null; blind?: boolean; onMine?: (named: boolean) => void }) {
  const store = useLabelingStore();
  const traceId = useLabeling((s) => s.traceId);
  const eventId = useLabeling(selectUnitEventId);
  const rows = useLabeling((s) => s.rows);
  const [data, setData] = useState<DecisiveErrorsResponse | null>(null);
  const [version, setVersion] = useState(0);
  const [reason, setReason] = useState("");
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    void call(getDecisiveErrors, { params: { id: traceId } }).then((r) => {
      if (cancelled) return;
      if (r.ok) {
        setData(r.data);
        onMine?.(r.data.labels.some((l) => !l.imported && l.annotator === me));
      } else setMessage(describeFailure(r));
    });
    return () => {
      cancelled = true;
    };
  }, [traceId, version, me, onMine]);

  const name = useCallback(async (event: string, why?: string) => {
    setMessage("saving…");
    const r = await call(putDecisiveError, { params: { id: traceId }, body: { event_id: event, reason: (why ?? reason).trim() || null } });
    setMessage(r.ok ? `saved: the run went wrong at ${r.data.event_id} (${r.data.agent})` : `not saved: ${describeFailure(r)}`);
    if (r.ok) setVersion((v) => v + 1);
  }, [traceId, reason]);

  // `w` names the selected event (never while a text field or dialog has focus)
  useLabelKeys((action) => {
    if (action.kind !== "decisive" || disabled || store.getState().overlay || document.querySelector("[role=dialog]")) return;
    const id = selectUnitEventId(store.getState());
    if (id) void name(id);
  });

  const clear = async () => {
    const r = await call(deleteDecisiveError, { params: { id: traceId } });
    setMessage(r.ok ? "your decisive error was removed" : describeFailure(r));
    setVersion((v) => v + 1);
  };
  const seqOf = (id: string) => rows.findIndex((r) => r?.id === id);
  const mine = data?.labels.find((l) => !l.imported && l.annotator === me);
  const shown = blind ? (data?.labels ?? []).filter((l) => l === mine) : (data?.labels ?? []);
  return (
    <section className="rounded border border-rose-200 bg-rose-50/40 p-3 text-sm dark:bg-transparent" data-testid="decisive-error" aria-label="Decisive error">
      <h2 className="font-semibold">Decisive error <span className="font-normal text-slate-600">— the step after which the run could no longer succeed</span></h2>
      {data && (
        <ul className="mt-1 space-y-0.5" data-testid="decisive-labels">
          {data.adjudication && !blind && (
            <li data-testid="decisive-adjudicated"><strong>adjudicated:</strong> {data.adjudication.event_id} ({data.adjudication.agent}){data.adjudication.reason ? ` — ${data.adjudication.reason}` : ""}</li>
          )}
          {shown.map((l) => (
            <li key={l.annotator} data-testid="decisive-label" data-annotator={l.annotator} data-event-id={l.event_id}>
              <button type="button" className="text-blue-700 underline" onClick={() => { const seq = seqOf(l.event_id); if (seq >= 0) store.getState().setIndex(seq); }}>{l.event_id}</button>{" "}
              ({l.agent}) by {l.annotator}{l.imported ? " (imported)" : ""}{l.reason ? <span className="text-slate-600"> — {l.reason.length > 160 ? `${l.reason.slice(0, 160)}…` : l.reason}</span> : null}
            </li>
          ))}
          {shown.length === 0 && (blind || !data.adjudication) && <li className="text-slate-600">{blind ? "you have not named one yet (others' are hidden: this queue is blind)" : "nobody has named one yet"}</li>}
        </ul>
      )}
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <input aria-label="Why (optional)" value={reason} onChange={(e) => setReason(e.target.value)} onKeyDown={(e) => e.key === "Escape" && (e.target as HTMLInputElement).blur()} placeholder="why (optional)" className="w-56 rounded border border-slate-300 px-2 py-1" disabled={disabled} />
        <button type="button" disabled={disabled || !eventId} onClick={() => eventId && void name(eventId)} className="rounded bg-rose-700 px-2 py-1 text-rose-50 hover:bg-rose-600 disabled:opacity-50" data-testid="decisive-here">The run went wrong here (w)</button>
        <GuidedSearch disabled={disabled} onFound={(event, why) => void name(event, reason.trim() ? `${reason.trim()} (${why})` : why)} />
        {mine && <button type="button" disabled={disabled} onClick={() => void clear()} className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-100" data-testid="decisive-clear">remove mine</button>}
      </div>
      {message && <p className="mt-1 text-xs text-slate-600" data-testid="decisive-message" role="status">{message}</p>}
    </section>
  );
}
