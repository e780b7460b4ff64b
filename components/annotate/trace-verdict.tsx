import type { LabelState } from "./store";
import { SaveBadge } from "./save-badge";

/** The trace-level task success label (keys s / f). */
export function TraceVerdict({ label }: { label: LabelState | undefined }) {
  const text = label === undefined ? "not labelled" : label.value === 1 ? "success" : "failure";
  return (
    <span data-testid="trace-label">
      Trace task success: <strong>{text}</strong> <SaveBadge label={label} />
      <span className="ml-2 text-xs text-slate-500">(s / f)</span>
    </span>
  );
}
