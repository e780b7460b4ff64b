"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { call } from "@/lib/api/client";
import { deleteTrace } from "@/lib/api/contracts/traces";
import { useSelection } from "./selection";
import { counted } from "@/lib/format";

/** The export forms offered: the value is the query of `GET /api/export` (docs/api.md). */
const EXPORTS = [
  ["format=jsonl", "training rows (JSONL)"],
  ["format=jsonl&parquet=1", "training rows (Parquet)"],
  ["format=transitions", "transitions (JSONL)"],
  ["format=transitions&parquet=1", "transitions (Parquet)"],
  ["format=extended", "traces, extended"],
  ["format=strict", "traces, paper's schema"],
] as const;

/** The most trace_ids one selection exports or queues (the `ids` filter's limit). */
export const MAX_SELECTION = 500;

/**
 * What to do with the ticked traces: export them, queue them for labeling,
 * compare two, delete (project admins); and export every trace the list's
 * filters match (`filters`: the list's filter parameters as a query string,
 * `total`: how many match, or at least match when `atLeast`), streamed by
 * `GET /api/export` whatever the size.
 */
export function SelectionBar({ canDelete, total, atLeast = false, filters }: { canDelete: boolean; total: number; atLeast?: boolean; filters: string }) {
  const { selected, clear } = useSelection();
  const router = useRouter();
  const [format, setFormat] = useState<string>(EXPORTS[0][0]);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = [...selected];
  const list = ids.map(encodeURIComponent).join(",");
  const tooMany = ids.length > MAX_SELECTION;
  const disabled = ids.length === 0 || tooMany;
  const link = "rounded border border-slate-300 bg-white px-2 py-0.5 hover:bg-slate-100";

  async function remove() {
    if (!window.confirm(`Delete ${counted(ids.length, "trace")} with ${ids.length === 1 ? "its" : "their"} labels? This cannot be undone.`)) return;
    setBusy(true);
    const failed: string[] = [];
    for (const id of ids) {
      const r = await call(deleteTrace, { params: { id } });
      if (!r.ok) failed.push(`${id} (${r.status || "network"})`);
    }
    setBusy(false);
    setMessage(failed.length === 0 ? `Deleted ${counted(ids.length, "trace")}.` : `Deleted ${ids.length - failed.length}; not deleted: ${failed.join(", ")}`);
    clear();
    router.refresh();
  }

  return (
    <div className="flex flex-wrap items-center gap-2 rounded border border-slate-200 bg-white px-3 py-2 text-sm" data-testid="selection-bar">
      <span className="text-slate-600" data-testid="selected-count">{ids.length} selected</span>
      {ids.length > 0 && <button type="button" onClick={clear} className="text-blue-700 hover:underline" data-testid="clear-selection">clear</button>}
      <select value={format} onChange={(e) => setFormat(e.target.value)} aria-label="export form" className="rounded border border-slate-300 px-1 py-0.5">
        {EXPORTS.map(([f, label]) => <option key={f} value={f}>{label}</option>)}
      </select>
      {disabled
        ? <span className="text-slate-500" title={tooMany ? `at most ${MAX_SELECTION} ticked traces; export all that match instead` : "tick traces to export them"}>Export</span>
        : <a className={link} href={`/api/export?${format}&ids=${list}`} data-testid="export-selection">Export {ids.length}</a>}
      {total > 0 && (
        <a className={link} href={`/api/export?${format}${filters ? `&${filters}` : ""}`} data-testid="export-all">
          Export all {atLeast ? "" : `${total.toLocaleString("en")} `}that match
        </a>
      )}
      {total > 0 && <Link className={link} href={`/datasets${filters ? `?${filters}` : ""}`} data-testid="snapshot-all">Snapshot as dataset</Link>}
      {disabled ? <span className="text-slate-500">Add to queue</span> : <Link className={link} href={`/queues/new?trace_ids=${list}`}>Add to queue</Link>}
      {ids.length === 2 ? <Link className={link} href={`/compare?a=${encodeURIComponent(ids[0]!)}&b=${encodeURIComponent(ids[1]!)}`} data-testid="compare-selection">Compare</Link> : <span className="text-slate-500" title="tick exactly two traces">Compare two</span>}
      {canDelete && (
        <button type="button" disabled={disabled || busy} onClick={() => void remove()} className="rounded border border-rose-300 bg-white px-2 py-0.5 text-rose-800 hover:bg-rose-50 disabled:opacity-50" data-testid="delete-selection">
          {busy ? "Deleting…" : "Delete"}
        </button>
      )}
      {tooMany && <span className="text-amber-800" data-testid="selection-too-many">more than {MAX_SELECTION} ticked: export all that match, or untick some</span>}
      {message && <span role="status" className="text-slate-700">{message}</span>}
    </div>
  );
}
