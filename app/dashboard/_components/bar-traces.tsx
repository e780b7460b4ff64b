import Link from "next/link";
import { E1Badge } from "@/components/e1-badge";
import { formatValue } from "@/lib/format";
import type { BarTrace } from "@/lib/server/queries/dashboard";

/** The traces behind the selected bar, each linked to its page and its heatmap; says how many more there are. */
export function BarTraces({ title, total, traces, clearHref }: { title: string; total: number; traces: BarTrace[]; clearHref: string }) {
  const showValue = traces.some((t) => t.value !== null);
  return (
    <section id="bar-traces" className="space-y-2 rounded border border-slate-200 bg-white p-3" data-testid="bar-traces" aria-label="Traces behind the selected bar">
      <div className="flex flex-wrap items-baseline gap-3">
        <h2 className="text-lg font-semibold">Traces: {title}</h2>
        <span className="text-sm text-slate-600" data-testid="bar-traces-count">
          {traces.length < total ? `the newest ${traces.length} of ${total}` : `${total} trace${total === 1 ? "" : "s"}`}
        </span>
        <Link href={clearHref} scroll={false} className="text-sm text-blue-700 hover:underline">Close</Link>
      </div>
      {traces.length > 0 && (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-xs uppercase text-slate-500">
              <tr>
                <th className="py-1 pr-3">Trace</th>
                <th className="py-1 pr-3">Task</th>
                <th className="py-1 pr-3">System</th>
                <th className="py-1 pr-3">Group</th>
                <th className="py-1 pr-3">policy_version</th>
                <th className="py-1 pr-3">E1</th>
                <th className="py-1 pr-3">Verdict</th>
                {showValue && <th className="py-1 pr-3">Value</th>}
                <th className="py-1 pr-3">Uploaded</th>
                <th className="py-1" />
              </tr>
            </thead>
            <tbody>
              {traces.map((t) => (
                <tr key={t.trace_id} className="border-t border-slate-100" data-testid="bar-trace">
                  <td className="py-1 pr-3">
                    <Link href={`/traces/${encodeURIComponent(t.trace_id)}`} className="break-all font-mono text-blue-700 hover:underline">{t.trace_id}</Link>
                  </td>
                  <td className="py-1 pr-3 break-all">{t.task_id}</td>
                  <td className="py-1 pr-3">{formatValue(t.system)}</td>
                  <td className="py-1 pr-3 break-all">{formatValue(t.group_id)}</td>
                  <td className="py-1 pr-3">{formatValue(t.policy_version)}</td>
                  <td className="py-1 pr-3"><E1Badge value={t.e1} /></td>
                  <td className="py-1 pr-3">{formatValue(t.verdict)}</td>
                  {showValue && <td className="py-1 pr-3 font-mono">{formatValue(t.value, 4)}</td>}
                  <td className="py-1 pr-3 whitespace-nowrap">{t.created_at.slice(0, 16).replace("T", " ")}</td>
                  <td className="py-1"><Link href={`/traces/${encodeURIComponent(t.trace_id)}/heatmap`} className="text-blue-700 hover:underline">heatmap</Link></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
