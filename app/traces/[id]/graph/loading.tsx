/** Shown while the server prepares the trace's graph (a 100,000-event trace takes a second or two). */
export default function Loading() {
  return (
    <div className="space-y-3" aria-busy="true">
      <div className="h-6 w-80 animate-pulse rounded bg-slate-200" />
      <div className="h-10 animate-pulse rounded bg-slate-200" />
      <div className="h-[60vh] animate-pulse rounded bg-slate-100" />
      <p className="text-sm text-slate-500">Preparing the graph…</p>
    </div>
  );
}
