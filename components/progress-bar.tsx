/** A labelled progress bar: `done` of `total`, with the numbers always written out. */
export function ProgressBar({ done, total, label }: { done: number; total: number; label?: string }) {
  const share = total > 0 ? done / total : 0;
  return (
    <div className="flex items-center gap-2 text-sm" data-testid="progress" data-done={done} data-total={total}>
      {label && <span className="w-32 shrink-0 truncate">{label}</span>}
      <div className="h-2.5 w-48 overflow-hidden rounded bg-slate-200">
        <div className="h-full bg-emerald-500" style={{ width: `${Math.round(share * 100)}%` }} />
      </div>
      <span className="tabular-nums text-slate-600">
        {done.toLocaleString("en")} / {total.toLocaleString("en")}
      </span>
    </div>
  );
}
