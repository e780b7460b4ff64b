"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { addItem, moveItem, presentHref, removeItem, sitePath } from "@/lib/meeting/agenda";
import { saveAgenda, useAgenda } from "./agenda-storage";

/** The agenda kept in this browser: reorder, remove, add a link by hand, start presenting, or share it as one link. */
export function AgendaEditor() {
  const agenda = useAgenda();
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);
  const add = (event: FormEvent) => {
    event.preventDefault();
    let path: string | null;
    try {
      const url = new URL(draft.trim(), window.location.origin);
      path = url.origin === window.location.origin ? sitePath(`${url.pathname}${url.search}`) : null;
    } catch {
      path = null;
    }
    if (!path) return setError("Paste a link to a view of this Baton (or a path such as /dashboard).");
    setError(null);
    saveAgenda(addItem(agenda, { url: path, title: path }));
    setDraft("");
  };
  const button = "rounded border border-slate-300 px-2 py-0.5 text-sm hover:bg-slate-100 disabled:opacity-40";
  return (
    <div className="space-y-4">
      {agenda.length === 0 ? (
        <p className="text-slate-600" data-testid="agenda-empty">
          The agenda is empty. Use “Add to agenda” on a heatmap or the dashboard, or paste a link below.
        </p>
      ) : (
        <ol className="space-y-2" data-testid="agenda-list">
          {agenda.map((item, i) => (
            <li key={`${i}-${item.url}`} className="flex items-center gap-2 rounded border border-slate-200 bg-white p-2">
              <span className="w-6 text-right font-mono text-slate-500">{i + 1}.</span>
              <Link href={item.url} className="min-w-0 flex-1 truncate text-blue-700 hover:underline" title={item.url}>{item.title}</Link>
              <button type="button" className={button} onClick={() => saveAgenda(moveItem(agenda, i, -1))} disabled={i === 0} aria-label="Move up">↑</button>
              <button type="button" className={button} onClick={() => saveAgenda(moveItem(agenda, i, 1))} disabled={i === agenda.length - 1} aria-label="Move down">↓</button>
              <button type="button" className={button} onClick={() => saveAgenda(removeItem(agenda, i))} aria-label="Remove">Remove</button>
            </li>
          ))}
        </ol>
      )}
      <form onSubmit={add} className="flex flex-wrap items-center gap-2">
        <input value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="/traces/…/heatmap?kind=event-family" className="w-96 rounded border border-slate-300 bg-white px-2 py-1 text-sm" aria-label="Link to add" />
        <button type="submit" className={button}>Add link</button>
        {error && <span role="alert" className="text-sm text-rose-700">{error}</span>}
      </form>
      {agenda.length > 0 && (
        <div className="flex flex-wrap items-center gap-3">
          <Link href={presentHref(agenda)} className="rounded bg-slate-900 px-4 py-2 text-white hover:bg-slate-700" data-testid="start-presentation">
            Present ({agenda.length} views)
          </Link>
          <span className="text-sm text-slate-600">The presentation’s own link carries the agenda: share it to replay this meeting.</span>
          <button type="button" className={button} onClick={() => saveAgenda([])}>Clear agenda</button>
        </div>
      )}
    </div>
  );
}
