"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { useStore } from "zustand";
import { LabelFields, type LabelField } from "@/components/annotate/label-fields";
import { LabelHelp } from "@/components/annotate/label-help";
import { UnitContextView } from "@/components/annotate/unit-context";
import { SKIP_REASONS } from "@/lib/api/queue-edit";
import { optionForKey } from "@/lib/annotate/options";
import type { Rubric } from "@/lib/rubrics";
import { DecisiveUnit } from "./decisive-unit";
import { createQueueWorkStore } from "./queue-work-store";
import { useLabelKeys } from "@/components/annotate/use-label-keys";
import { counted } from "@/lib/format";

interface Props {
  queueId: number;
  rubrics: Record<string, Rubric>;
  weights: Record<string, number>;
  total: number;
  cannotLabel: string | null;
  /** the caller's name (their decisive error is found by it) */
  me: string | null;
  blind: boolean;
}

/** Working through a queue: the item's content in front (the shared labeling component), its fields with rubrics beside; keyboard and mouse. */
export function QueueWork({ queueId, rubrics, weights, total, cannotLabel, me, blind }: Props) {
  const [store] = useState(() => createQueueWorkStore(queueId));
  const { item, values, comments, commenting, field, status, overlay, done, decisiveNamed } = useStore(store);
  const [reason, setReason] = useState("");

  useEffect(() => {
    if (!cannotLabel) void store.getState().take();
  }, [store, cannotLabel]);

  // the skip and help overlays are this screen's own dialogs: keys pressed in them count
  useLabelKeys((action, e) => {
    const s = store.getState();
    const unit = s.item?.event_id ? "event" : "trace";
    const family = s.item?.families[s.field];
    e.preventDefault();
    if (s.overlay === "skip") {
      if (action.kind === "option" && SKIP_REASONS[Number(action.key) - 1]) void s.skip(SKIP_REASONS[Number(action.key) - 1]!);
      else if (action.kind === "escape") s.setOverlay(null);
      return;
    }
    switch (action.kind) {
      case "option": {
        if (family === undefined) break;
        const option = optionForKey(family, unit, action.key);
        if (option) s.choose(family, option.value);
        break;
      }
      case "field":
        s.moveField(action.by);
        break;
      case "commit":
        s.moveField(1);
        break;
      case "complete":
      case "retry":
        void s.submit();
        break;
      case "skip":
        s.setOverlay("skip");
        break;
      case "undo":
        if (family !== undefined) s.clear(family);
        break;
      case "comment":
        if (family !== undefined) s.setCommenting(family);
        break;
      case "help":
        s.setOverlay(s.overlay === "help" ? null : "help");
        break;
      case "escape":
        if (s.overlay) s.setOverlay(null);
        else s.setCommenting(null);
        break;
      default:
        break;
    }
  }, { enabled: !cannotLabel, inDialogs: true });

  if (cannotLabel || status.kind === "forbidden") {
    return <p className="rounded border border-amber-300 bg-amber-50 p-4 text-amber-900" data-testid="queue-forbidden">{cannotLabel ?? `You can read this queue but not label in it (${status.kind === "forbidden" ? status.message : ""}).`} <Link href={`/queues/${queueId}`} className="text-blue-700 underline">Back to the queue</Link></p>;
  }
  if (status.kind === "closed") return <p className="rounded border border-slate-300 bg-slate-50 p-4" data-testid="queue-closed">{status.message}. <Link href={`/queues/${queueId}`} className="text-blue-700 underline">Back to the queue</Link></p>;
  if (item === undefined) return <p className="text-slate-500" data-testid="queue-taking">Taking the next item…</p>;
  if (item === null) {
    return (
      <p className="rounded border border-emerald-300 bg-emerald-50 p-4" data-testid="queue-empty">
        Nothing left for you in this queue{done > 0 ? ` (you labelled ${counted(done, "item")} just now)` : ""}. <Link href={`/queues/${queueId}`} className="text-blue-700 underline">Back to the queue</Link>
      </p>
    );
  }
  const unit = item.event_id ? "event" : "trace";
  const families = item.families;
  const fields: LabelField[] = families.map((family) => ({ family, unit }));
  const s = store.getState();
  return (
    <div className="space-y-3" data-testid="queue-item" data-item-id={item.id} data-event-id={item.event_id ?? ""} data-trace-id={item.trace_id}>
      <div className="flex flex-wrap items-center gap-3 text-sm text-slate-600" data-testid="queue-progress">
        <span>Item {item.position + 1} of {total.toLocaleString("en")}</span>
        <span>· trace <Link className="font-mono text-blue-700 underline" href={`/traces/${encodeURIComponent(item.trace_id)}`}>{item.trace_id}</Link></span>
        {item.task_id && <span>· task <span className="font-mono">{item.task_id}</span></span>}
        <span>· labelled this session: <strong data-testid="queue-done">{done}</strong></span>
        <button type="button" onClick={() => s.setOverlay("help")} className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-100">? keys</button>
      </div>
      <div className="grid gap-3 lg:grid-cols-[minmax(0,6fr)_minmax(0,5fr)]">
        <div className="rounded border border-slate-200 bg-white p-3">
          <UnitContextView key={`${item.trace_id}|${item.event_id ?? ""}`} traceId={item.trace_id} eventId={item.event_id} />
        </div>
        <div className="space-y-2">
          {item.decisive_error && (
            <p className="rounded border border-rose-200 bg-rose-50/40 p-2 text-sm dark:bg-transparent" data-testid="queue-decisive-status">
              {decisiveNamed ? "Your decisive error of this trace is saved: submit to complete the item." : "This queue asks for the decisive error of the run: select the event after which it could no longer succeed (← → or a click, below) and press w, or find it with questions."}
            </p>
          )}
          {families.length === 0 && !item.decisive_error && <p className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900" data-testid="queue-no-families">None of this queue&apos;s families is anchored at a {item.event?.type ?? "deleted"} event: skip it (x).</p>}
          <LabelFields
            fields={fields}
            focused={field}
            drafts={values}
            saved={{}}
            comments={comments}
            commenting={commenting}
            rubrics={rubrics}
            weights={weights}
            onChoose={(i, value) => s.choose(families[i]!, value)}
            onFocus={(i) => s.setField(i)}
            onComment={(f, text) => s.setComment(f, text)}
            onCloseComment={() => s.setCommenting(null)}
          />
          {item.others.length > 0 && (
            <p className="text-xs text-slate-500" data-testid="others">Others: {item.others.map((o) => `${o.annotator} ${o.family} ${o.value}`).join(" · ")}</p>
          )}
          <div className="flex flex-wrap gap-2 text-sm">
            <button type="button" onClick={() => void s.submit()} disabled={Object.keys(values).length === 0 && !(item.decisive_error && decisiveNamed)} className="rounded bg-slate-900 px-2 py-1 text-white hover:bg-slate-700 disabled:opacity-50" data-testid="queue-submit">Submit and next (Ctrl/⌘+Enter)</button>
            <button type="button" onClick={() => s.setOverlay("skip")} className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-100" data-testid="queue-skip">Skip… (x)</button>
            <button type="button" disabled={families.length === 0} onClick={() => s.setCommenting(families[field]!)} className="rounded border border-slate-300 px-2 py-1 hover:bg-slate-100">Comment (c)</button>
          </div>
          <p className="text-sm" data-testid="queue-status">
            {status.kind === "saving" && <span className="text-amber-700">saving…</span>}
            {status.kind === "failed" && <span className="text-rose-700">not saved: {status.message} — press Ctrl/⌘+Enter or r to retry</span>}
            {status.kind === "idle" && <span className="text-slate-500">1–9 option · ↑↓ field · Enter next field · Ctrl/⌘+Enter submit and next · x skip · u clear · ? keys</span>}
          </p>
        </div>
      </div>
      {item.decisive_error && <DecisiveUnit key={item.id} traceId={item.trace_id} events={item.event_count ?? 0} me={me} blind={blind} onMine={s.setDecisiveNamed} />}
      {overlay === "skip" && (
        <div role="dialog" aria-label="Skip this item" className="fixed inset-0 z-40 flex items-center justify-center bg-black/30" onClick={() => s.setOverlay(null)}>
          <form onClick={(e) => e.stopPropagation()} onSubmit={(e) => { e.preventDefault(); void s.skip(reason); }} className="w-96 space-y-2 rounded bg-white p-4 text-sm shadow-lg" data-testid="skip-dialog">
            <h2 className="font-semibold">Skip this item: why?</h2>
            {SKIP_REASONS.map((r, i) => (
              <button key={r} type="button" onClick={() => void s.skip(r)} className="block w-full rounded border border-slate-300 px-2 py-1 text-left hover:bg-slate-100" data-testid={`skip-reason-${i + 1}`}><kbd className="mr-1 font-mono">{i + 1}</kbd>{r}</button>
            ))}
            <input aria-label="Other reason" value={reason} onChange={(e) => setReason(e.target.value)} onKeyDown={(e) => e.key === "Escape" && s.setOverlay(null)} placeholder="other reason (Enter skips)" className="w-full rounded border border-slate-300 px-2 py-1" />
            <p className="text-xs text-slate-500">Esc closes without skipping.</p>
          </form>
        </div>
      )}
      {overlay === "help" && (
        <div role="dialog" aria-label="Keyboard help" className="fixed inset-0 z-40 flex items-center justify-center bg-black/30" onClick={() => s.setOverlay(null)}>
          <div onClick={(e) => e.stopPropagation()}><LabelHelp onClose={() => s.setOverlay(null)} /></div>
        </div>
      )}
    </div>
  );
}
