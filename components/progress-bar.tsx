/** A labelled progress bar: `done` of `total` (and `skipped`, drawn apart in amber), with the numbers always written out. */
export function ProgressBar({ done, total, label, skipped }: { done: number; total: number; label?: string; skipped?: number }) {
  const share = total > 0 ? done / total : 0;
  const skippedShare = total > 0 && skipped ? skipped / total : 0;
  return (
    <div className="flex items-center gap-2 text-sm" data-testid="progress" data-done={done} data-total={total} data-skipped={skipped ?? 0}>
      {label && <span className="w-32 shrink-0 truncate">{label}</span>}
      <div className="h-2.5 w-48 overflow-hidden rounded bg-slate-200">
        <div className="flex h-full">
          <div className="h-full bg-emerald-500" style={{ width: `${Math.round(share * 100)}%` }} />
          {skippedShare > 0 && <div className="h-full bg-amber-400" style={{ width: `${Math.round(skippedShare * 100)}%` }} />}
        </div>
      </div>
      <span className="tabular-nums text-slate-600">
        {done.toLocaleString("en")} / {total.toLocaleString("en")}
        {skipped !== undefined && ` · ${skipped.toLocaleString("en")} skipped`}
      </span>
    </div>
  );
}
