import Link from "next/link";
import type { TraceListItem } from "@/lib/server/queries/traces";
import { E1Badge } from "@/components/e1-badge";

/** `receiving`: trace ids whose spans are arriving again over OTLP (the stored row is an earlier version). */
export function TraceTable({ traces, receiving = new Set() }: { traces: TraceListItem[]; receiving?: ReadonlySet<string> }) {
  if (traces.length === 0) return <p className="rounded border border-dashed border-slate-300 p-6 text-center text-slate-500">No traces match.</p>;
  return (
    <div className="overflow-x-auto rounded border border-slate-200 bg-white">
      <table className="w-full text-sm" data-testid="trace-table">
        <thead className="bg-slate-100 text-left text-xs uppercase tracking-wide text-slate-600">
          <tr>
            {["Trace", "Project", "System", "Task", "Group", "Topology", "Events", "E1", "Created"].map((h) => (
              <th key={h} className="px-3 py-2 font-medium">{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {traces.map((t) => (
            <tr key={t.id} className="border-t border-slate-100 hover:bg-slate-50" data-testid="trace-row">
              <td className="px-3 py-2 font-mono text-xs">
                <Link href={`/traces/${encodeURIComponent(t.trace_id)}`} className="text-blue-700 hover:underline">
                  {t.trace_id}
                </Link>
                {receiving.has(t.trace_id) && <span className="ml-2 rounded bg-sky-100 px-1.5 py-0.5 font-sans text-xs text-sky-800" title="more spans are arriving; this is an earlier version">receiving</span>}
              </td>
              <td className="px-3 py-2">{t.project}</td>
              <td className="px-3 py-2">{t.system ?? "—"}</td>
              <td className="px-3 py-2 font-mono text-xs">{t.task_id}</td>
              <td className="px-3 py-2 font-mono text-xs">{t.group_id ?? "—"}</td>
              <td className="px-3 py-2">{t.topology ?? "—"}</td>
              <td className="px-3 py-2 tabular-nums">{t.events.toLocaleString("en")}</td>
              <td className="px-3 py-2"><E1Badge value={t.e1} /></td>
              <td className="px-3 py-2 text-xs text-slate-500">{formatTime(t.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function formatTime(iso: string): string {
  return iso.replace("T", " ").slice(0, 16);
}
