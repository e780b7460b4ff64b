import Link from "next/link";
import { DETECTOR_LABELS, DIAGNOSTICS_DOCS, TRACE_DETECTORS } from "@/lib/hacking";
import { formatPercent } from "@/lib/format";
import type { FlagTrendPoint } from "@/lib/server/hacking/queries";

/**
 * How often each hacking detector flags, per checkpoint (metadata.policy_version,
 * in checkpoint order): a rising rate is a policy learning to game its
 * reward. Each count links to the flagged traces in the list.
 */
export function FlagTrend({ points, listFilter }: { points: FlagTrendPoint[]; listFilter: Record<string, string> }) {
  const listHref = (flag: string) => `/?${new URLSearchParams({ ...listFilter, flag }).toString()}`;
  return (
    <section className="rounded border border-slate-200 bg-white p-3" data-testid="flag-trend">
      <h2 className="font-semibold">
        Reward-hacking flags by checkpoint <Link href={DIAGNOSTICS_DOCS} className="text-xs font-normal text-blue-700 hover:underline">definitions</Link>
      </h2>
      {points.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No traces.</p>
      ) : (
        <div className="mt-2 overflow-x-auto">
          <table className="text-sm">
            <thead className="text-left text-xs uppercase tracking-wide text-slate-600">
              <tr>
                <th className="px-2 py-1">policy_version</th>
                <th className="px-2 py-1 text-right">traces</th>
                {TRACE_DETECTORS.map((d) => <th key={d} className="px-2 py-1">{DETECTOR_LABELS[d].name}</th>)}
              </tr>
            </thead>
            <tbody>
              {points.map((p) => (
                <tr key={p.policy_version ?? "\u0000none"} className="border-t border-slate-100" data-testid="flag-trend-row" data-policy={p.policy_version ?? ""}>
                  <td className="px-2 py-1 font-mono text-xs">{p.policy_version ?? <span className="font-sans text-slate-500">no policy_version</span>}</td>
                  <td className="px-2 py-1 text-right tabular-nums">{p.traces}</td>
                  {TRACE_DETECTORS.map((d) => {
                    const c = p.detectors[d];
                    return (
                      <td key={d} className="px-2 py-1" data-testid={`flag-rate-${d}`}>
                        <div className="flex items-center gap-2">
                          <span className="inline-block h-2 w-16 rounded bg-slate-100" aria-hidden>
                            <span className="block h-2 rounded bg-rose-600" style={{ width: `${Math.round((c.rate ?? 0) * 100)}%` }} />
                          </span>
                          <span className="tabular-nums">{formatPercent(c.rate)}</span>
                          {c.flagged > 0 && <Link href={listHref(d)} className="text-xs text-blue-700 hover:underline">{c.flagged} flagged</Link>}
                        </div>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-1 text-xs text-slate-500">Rate: flagged traces / traces with diagnostics at that checkpoint; the links list all flagged traces of this filter.</p>
        </div>
      )}
    </section>
  );
}
