import type { LabelState } from "./store";

const STYLE = { saving: "bg-amber-100 text-amber-800", saved: "bg-emerald-100 text-emerald-800", failed: "bg-rose-100 text-rose-800" } as const;

/** Saving / saved / failed: the state of a label is always visible. */
export function SaveBadge({ label }: { label: LabelState | undefined }) {
  if (!label) return null;
  return (
    <span className={`rounded px-1.5 py-0.5 text-xs ${STYLE[label.status]}`} title={label.error} data-status={label.status}>
      {label.status}
    </span>
  );
}
