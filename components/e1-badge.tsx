/** E1 task success: 1 success, 0 failure, null unknown (SPEC.md section 4). */
export function E1Badge({ value }: { value: number | null }) {
  if (value === null) return <span className="text-slate-400" title="E1 unknown">—</span>;
  return value === 1 ? (
    <span className="rounded bg-emerald-100 px-1.5 py-0.5 text-xs font-medium text-emerald-800">success</span>
  ) : (
    <span className="rounded bg-rose-100 px-1.5 py-0.5 text-xs font-medium text-rose-800">failure</span>
  );
}
