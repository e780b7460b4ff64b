"use client";

import { memo, useEffect, useRef } from "react";
import { formatValue } from "@/lib/format";
import { SaveBadge } from "./save-badge";
import { labelKey, useLabeling, type LabelEvent } from "./store";

/** Events in event order; the selected one shows its families, the draft value and each label's save state. */
export function LabelTable() {
  const events = useLabeling((s) => s.events);
  const index = useLabeling((s) => s.index);
  const maxCredit = useLabeling((s) => Math.max(1e-12, ...Object.values(s.credit).map(Math.abs)));
  const stale = useLabeling((s) => s.creditStale);
  return (
    <div className="overflow-x-auto rounded border border-slate-200 bg-white">
      <table className="w-full text-sm" data-testid="label-table" data-credit-stale={stale}>
        <thead className="bg-slate-100 text-left text-xs uppercase tracking-wide text-slate-600">
          <tr>
            <th className="px-2 py-2">#</th>
            <th className="px-2 py-2">Agent</th>
            <th className="px-2 py-2">Event</th>
            <th className="px-2 py-2">Credit (CCP)</th>
            <th className="px-2 py-2">Labels</th>
          </tr>
        </thead>
        <tbody>
          {events.map((e, i) => (
            <Row key={e.id} event={e} selected={i === index} maxCredit={maxCredit} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

const Row = memo(function Row({ event, selected, maxCredit }: { event: LabelEvent; selected: boolean; maxCredit: number }) {
  const ref = useRef<HTMLTableRowElement>(null);
  const credit = useLabeling((s) => s.credit[event.id] ?? null);
  useEffect(() => {
    if (selected) ref.current?.scrollIntoView({ block: "nearest" });
  }, [selected]);
  return (
    <tr ref={ref} className={`border-t border-slate-100 ${selected ? "bg-blue-50 outline outline-2 -outline-offset-2 outline-blue-500" : ""}`} data-testid="label-row" data-selected={selected} data-event-id={event.id}>
      <td className="px-2 py-1.5 tabular-nums text-slate-500">{event.seq}</td>
      <td className="px-2 py-1.5">{event.agent}</td>
      <td className="px-2 py-1.5">
        <span className="font-mono text-xs text-slate-500">{event.id}</span> <span className="font-mono text-xs">{event.type}</span> {event.summary}
      </td>
      <td className="px-2 py-1.5" data-testid={`credit-${event.id}`} data-value={credit ?? ""}>
        <CreditBar value={credit} max={maxCredit} />
      </td>
      <td className="px-2 py-1.5">
        <div className="flex flex-wrap gap-1">
          {event.families.map((f, k) => (
            <FamilyChip key={f} eventId={event.id} family={f} active={selected} index={k} />
          ))}
        </div>
      </td>
    </tr>
  );
});

function FamilyChip({ eventId, family, active, index }: { eventId: string; family: string; active: boolean; index: number }) {
  const label = useLabeling((s) => s.labels[labelKey(eventId, family)]);
  const focused = useLabeling((s) => active && s.familyIndex === index);
  const draft = useLabeling((s) => (focused ? s.draft : null));
  return (
    <span className={`inline-flex items-center gap-1 rounded border px-1.5 py-0.5 text-xs ${focused ? "border-blue-600 bg-white font-semibold" : "border-slate-200"}`} data-testid={`label-${eventId}-${family}`} data-focused={focused}>
      {family}
      {draft !== null && <span className="text-blue-700">→ {formatValue(draft)}</span>}
      {label && <span className="font-mono">{formatValue(label.value)}</span>}
      <SaveBadge label={label} />
    </span>
  );
}

/** A diverging bar: blue right for positive credit, red left for negative, length relative to the largest. */
function CreditBar({ value, max }: { value: number | null; max: number }) {
  if (value === null) return <span className="text-slate-400">—</span>;
  const width = `${Math.round((Math.abs(value) / max) * 50)}%`;
  return (
    <div className="flex items-center gap-2">
      <div className="relative h-3 w-32 rounded bg-slate-100">
        <div className="absolute top-0 h-3 w-px bg-slate-400" style={{ left: "50%" }} />
        <div className={`absolute top-0 h-3 ${value >= 0 ? "bg-blue-500" : "bg-rose-500"}`} style={value >= 0 ? { left: "50%", width } : { right: "50%", width }} />
      </div>
      <span className="w-16 text-right font-mono text-xs tabular-nums">{formatValue(value)}</span>
    </div>
  );
}
