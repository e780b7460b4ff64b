"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { csrfHeaders } from "@/lib/api/csrf";
import { useSelection } from "./selection";

const EXPORTS = [
  ["jsonl", "training rows (JSONL)"],
  ["extended", "traces, extended"],
  ["strict", "traces, paper's schema"],
] as const;

/** What to do with the ticked traces: export them, queue them for labeling, compare two, delete (project admins). */
export function SelectionBar({ canDelete }: { canDelete: boolean }) {
  const { selected, clear } = useSelection();
  const router = useRouter();
  const [format, setFormat] = useState<string>("jsonl");
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = [...selected];
  const list = ids.map(encodeURIComponent).join(",");
  const disabled = ids.length === 0;
  const link = "rounded border border-slate-300 bg-white px-2 py-0.5 hover:bg-slate-100";

  async function remove() {
    if (!window.confirm(`Delete ${ids.length} trace(s) with their labels? This cannot be undone.`)) return;
    setBusy(true);
    const failed: string[] = [];
    for (const id of ids) {
      const r = await fetch(`/api/traces/${encodeURIComponent(id)}`, { method: "DELETE", headers: csrfHeaders() }).catch(() => null);
      if (!r?.ok) failed.push(`${id} (${r ? r.status : "network"})`);
    }
    setBusy(false);
    setMessage(failed.length === 0 ? `Deleted ${ids.length} trace(s).` : `Deleted ${ids.length - failed.length}; not deleted: ${failed.join(", ")}`);
    clear();
    router.refresh();
  }

  return (
    <div className="flex flex-wrap items-center gap-2 rounded border border-slate-200 bg-white px-3 py-2 text-sm" data-testid="selection-bar">
      <span className="text-slate-600" data-testid="selected-count">{ids.length} selected</span>
      <select value={format} onChange={(e) => setFormat(e.target.value)} aria-label="export form" className="rounded border border-slate-300 px-1 py-0.5">
        {EXPORTS.map(([f, label]) => <option key={f} value={f}>{label}</option>)}
      </select>
      {disabled ? <span className="text-slate-500">Export</span> : <a className={link} href={`/api/export?format=${format}&ids=${list}`} data-testid="export-selection">Export</a>}
      {disabled ? <span className="text-slate-500">Add to queue</span> : <Link className={link} href={`/queues/new?trace_ids=${list}`}>Add to queue</Link>}
      {ids.length === 2 ? <Link className={link} href={`/compare?a=${encodeURIComponent(ids[0]!)}&b=${encodeURIComponent(ids[1]!)}`} data-testid="compare-selection">Compare</Link> : <span className="text-slate-500" title="tick exactly two traces">Compare two</span>}
      {canDelete && (
        <button type="button" disabled={disabled || busy} onClick={() => void remove()} className="rounded border border-rose-300 bg-white px-2 py-0.5 text-rose-800 hover:bg-rose-50 disabled:opacity-50" data-testid="delete-selection">
          {busy ? "Deleting…" : "Delete"}
        </button>
      )}
      {message && <span role="status" className="text-slate-700">{message}</span>}
    </div>
  );
}
