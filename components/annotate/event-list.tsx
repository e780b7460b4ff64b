"use client";

import { memo, useEffect, useRef, useState } from "react";
import { formatValue } from "@/lib/format";
import { stepNumber } from "@/lib/trace/steps";
import { labelKey, useLabeling, useLabelingStore, type LabelRow } from "./store";

const ROW_HEIGHT = 30;
const OVERSCAN = 10;

/**
 * The trace's units as a virtualised list: the whole trace first, then every
 * event in event order; only the rows in view are in the DOM, so a
 * 100,000-event trace scrolls like a small one. Click or ← → to select.
 */
export function EventList() {
  const store = useLabelingStore();
  const total = useLabeling((s) => s.total);
  const index = useLabeling((s) => s.index);
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 600 });
  const count = total + 1; // the whole trace is row 0

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const row = index + 1;
    const top = row * ROW_HEIGHT;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight) el.scrollTop = top + ROW_HEIGHT - el.clientHeight;
  }, [index]);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const update = () => setView({ top: el.scrollTop, height: el.clientHeight });
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const first = Math.max(0, Math.floor(view.top / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(count, Math.ceil((view.top + view.height) / ROW_HEIGHT) + OVERSCAN);
  const rows: number[] = [];
  for (let r = first; r < last; r++) rows.push(r);
  return (
    <div
      ref={scroller}
      onScroll={(e) => setView({ top: e.currentTarget.scrollTop, height: e.currentTarget.clientHeight })}
      className="relative h-[70vh] overflow-y-auto rounded border border-slate-200 bg-white text-sm"
      // scrollable, so reachable by keyboard (axe scrollable-region-focusable)
      tabIndex={0}
      role="region"
      aria-label="Trace and events to label"
      data-testid="label-list"
      data-total={total}
    >
      <div style={{ height: count * ROW_HEIGHT }} className="relative">
        {rows.map((r) => (
          <div key={r} style={{ top: r * ROW_HEIGHT, height: ROW_HEIGHT }} className="absolute inset-x-0" onClick={() => store.getState().setIndex(r - 1)}>
            {r === 0 ? <TraceRow selected={index === -1} /> : <EventRow seq={r - 1} selected={index === r - 1} />}
          </div>
        ))}
      </div>
    </div>
  );
}

const SELECTED = "bg-blue-100 text-slate-900 outline outline-2 -outline-offset-2 outline-blue-600 dark:bg-blue-900 dark:text-slate-900";

function TraceRow({ selected }: { selected: boolean }) {
  const label = useLabeling((s) => s.labels[labelKey(null, "task_success")]);
  return (
    <div className={`flex h-full cursor-pointer items-center gap-2 border-b border-slate-200 px-2 font-medium ${selected ? SELECTED : ""}`} data-testid="label-row" data-unit="trace" data-selected={selected}>
      <span className="w-12 text-slate-600">—</span>
      <span className="flex-1">The whole trace</span>
      <span className="text-xs" data-testid="trace-label">task success: <strong>{label === undefined ? "not labelled" : label.value === 1 ? "success" : "fail"}</strong>{label && <span className="ml-1" data-status={label.status}>({label.status})</span>}</span>
    </div>
  );
}

const EventRow = memo(function EventRow({ seq, selected }: { seq: number; selected: boolean }) {
  const row = useLabeling((s) => s.rows[seq]);
  const credit = useLabeling((s) => s.credit[seq] ?? null);
  if (!row) return <div className="flex h-full items-center px-2 text-slate-400" data-testid="label-row-loading">{seq + 1} …</div>;
  return (
    <div className={`flex h-full cursor-pointer items-center gap-2 border-b border-slate-100 px-2 ${selected ? SELECTED : ""}`} data-testid="label-row" data-selected={selected} data-event-id={row.id}>
      <span className="w-12 shrink-0 tabular-nums text-slate-600" data-testid="label-step" title="step">{stepNumber(seq, row.step)}</span>
      <span className="w-28 shrink-0 truncate">{row.agent}</span>
      <span className="min-w-0 flex-1 truncate"><span className="font-mono text-xs text-slate-600">{row.id}</span> {row.summary}</span>
      <span className="w-16 shrink-0 text-right font-mono text-xs tabular-nums" data-testid={`credit-${row.id}`} data-value={credit ?? ""}>{formatValue(credit)}</span>
      <Chips row={row} />
    </div>
  );
});

function Chips({ row }: { row: LabelRow }) {
  // a string, so that the selector's answer compares by value (a new array would re-render forever)
  const summary = useLabeling((s) => row.families.filter((f) => s.labels[labelKey(row.id, f)]).map((f) => `${f}:${s.labels[labelKey(row.id, f)]!.status}`).join(","));
  const done = summary === "" ? [] : summary.split(",").map((part) => part.split(":") as [string, string]);
  return (
    <span className="flex w-20 shrink-0 justify-end gap-0.5" title={done.map(([f, st]) => `${f}: ${st}`).join(", ")}>
      {done.map(([f, status]) => (
        <span key={f} data-testid={`chip-${row.id}-${f}`} data-status={status} className={`h-2.5 w-2.5 rounded-full ${status === "saved" ? "bg-emerald-500" : status === "failed" ? "bg-rose-500" : "bg-amber-400"}`} />
      ))}
    </span>
  );
}
