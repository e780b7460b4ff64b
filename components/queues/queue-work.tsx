"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { useStore } from "zustand";
import { LabelHelp } from "@/components/annotate/label-help";
import { keyAction } from "@/lib/annotate/keymap";
import { formatValue } from "@/lib/format";
import { createQueueWorkStore } from "./queue-work-store";

/** Working through a queue with the keyboard: 1-5 value, ↑↓ family, Enter submit and next, x skip, ? keys. */
export function QueueWork({ queueId, families }: { queueId: number; families: string[] }) {
  const [store] = useState(() => createQueueWorkStore(queueId, families));
  const { item, values, family, status, help, done } = useStore(store);

  useEffect(() => {
    void store.getState().take();
    const onKey = (e: KeyboardEvent) => {
      const action = keyAction(e);
      if (!action) return;
      e.preventDefault();
      const s = store.getState();
      if (action.kind === "value") s.setValue(action.value);
      else if (action.kind === "family") s.moveFamily(action.by);
      else if (action.kind === "save" || action.kind === "retry") void s.submit();
      else if (action.kind === "skip") void s.skip();
      else if (action.kind === "help") s.toggleHelp();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [store]);

  if (item === undefined) return <p className="text-slate-500">Taking the next item…</p>;
  if (item === null) {
    return (
      <p className="rounded border border-emerald-300 bg-emerald-50 p-4" data-testid="queue-empty">
        Nothing left for you in this queue{done > 0 ? ` (you labelled ${done} item(s) just now)` : ""}. <Link href={`/queues/${queueId}`} className="text-blue-700 underline">Back to the queue</Link>
      </p>
    );
  }
  const e = item.event;
  return (
    <div className="space-y-3" data-testid="queue-item" data-item-id={item.id} data-event-id={item.event_id ?? ""}>
      <div className="text-sm text-slate-600">
        Item {item.position + 1} · trace <Link className="font-mono text-blue-700 underline" href={`/traces/${encodeURIComponent(item.trace_id)}`}>{item.trace_id}</Link>
        {item.task_id && <> · task <span className="font-mono">{item.task_id}</span></>} · labelled this session: {done}
      </div>
      {e ? (
        <div className="rounded border border-slate-200 bg-white p-3">
          <p className="font-medium">
            <span className="font-mono text-slate-500">{e.id}</span> {e.type}{e.decision ? ` (${e.decision})` : ""} by {e.agent}{e.role ? ` (${e.role})` : ""} at t = {e.t}
            {e.status === "error" && <span className="ml-2 rounded bg-rose-100 px-1 text-xs text-rose-800">error</span>}
          </p>
          {(e.from || e.to || e.tool) && <p className="text-sm text-slate-600">{[e.from && `from ${e.from}`, e.to && `to ${e.to}`, e.tool && `tool ${e.tool}`].filter(Boolean).join(" · ")}</p>}
          {e.content !== null && (
            <details open className="mt-2">
              <summary className="cursor-pointer text-sm text-slate-600">content ({e.content.length.toLocaleString("en")} characters, shown as text)</summary>
              <pre className="mt-1 max-h-72 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 text-sm" data-testid="item-content">{e.content}</pre>
            </details>
          )}
        </div>
      ) : (
        <p className="rounded border border-slate-200 bg-white p-3">The whole trace</p>
      )}
      <ul className="space-y-1">
        {families.map((f, i) => (
          <li key={f} className={`flex items-center gap-3 rounded border px-2 py-1 text-sm ${i === family ? "border-blue-600 bg-blue-50" : "border-slate-200 bg-white"}`} data-testid={`family-${f}`} data-focused={i === family}>
            <span className="w-48">{f}</span>
            <span className="w-12 font-mono" data-testid={`value-${f}`}>{values[f] === undefined ? "—" : formatValue(values[f])}</span>
            {item.others.filter((o) => o.family === f).map((o) => (
              <span key={o.annotator} className="text-xs text-slate-500">{o.annotator}: {formatValue(o.value)}</span>
            ))}
          </li>
        ))}
      </ul>
      <p className="text-sm" data-testid="queue-status">
        {status.kind === "saving" && <span className="text-amber-700">saving…</span>}
        {status.kind === "failed" && <span className="text-rose-700">not saved: {status.message} — press Enter or r to retry</span>}
        {status.kind === "idle" && <span className="text-slate-500">1–5 value · ↑↓ family · Enter submit and next · x skip · ? keys</span>}
      </p>
      {help && <LabelHelp />}
    </div>
  );
}
