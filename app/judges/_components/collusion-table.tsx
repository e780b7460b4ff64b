import Link from "next/link";
import { DIAGNOSTICS_DOCS, type CollusionRow } from "@/lib/hacking";
import { formatValue } from "@/lib/format";

/**
 * Verifier collusion: per judge, family and checkpoint, the judge's mean
 * difference with people and its drift since the judge's first checkpoint
 * with enough units. A judge growing more lenient as the policy trains is flagged.
 */
export function CollusionTable({ rows, threshold, minUnits }: { rows: CollusionRow[]; threshold: number; minUnits: number }) {
  return (
    <section className="space-y-2" data-testid="collusion">
      <h2 className="text-lg font-semibold">Verifier collusion by checkpoint</h2>
      <p className="text-xs text-slate-600">
        Drift = mean difference (judge − people) at a policy_version minus the same at the judge&apos;s first checkpoint with ≥ {minUnits} units; flagged at ≥ {threshold}.{" "}
        <Link href={DIAGNOSTICS_DOCS} className="text-blue-700 underline">definitions</Link>
      </p>
      {rows.length === 0 ? <p className="text-sm text-slate-500">No checkpoint has units labelled by both a judge and a person.</p> : (
        <table className="text-sm">
          <thead><tr className="text-left text-slate-500"><th className="pr-4">judge</th><th className="pr-4">project</th><th className="pr-4">family</th><th className="pr-4">policy_version</th><th className="pr-4">units</th><th className="pr-4">mean difference</th><th className="pr-4">drift</th><th /></tr></thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.project}/${r.judge}/${r.family}/${r.policy_version}`} data-testid="collusion-row" data-flagged={r.flagged ? "1" : "0"}>
                <td className="pr-4">{r.judge}</td><td className="pr-4">{r.project}</td><td className="pr-4">{r.family}</td>
                <td className="pr-4 font-mono text-xs">{r.policy_version}</td>
                <td className="pr-4 tabular-nums">{r.units}</td>
                <td className="pr-4 tabular-nums">{formatValue(r.mean_signed_difference)}</td>
                <td className="pr-4 tabular-nums" title={r.baseline_policy_version ? `since ${r.baseline_policy_version}` : "no baseline checkpoint"}>{formatValue(r.value)}</td>
                <td>{r.flagged && <span className="rounded bg-rose-700 px-1.5 text-xs font-medium text-white">flagged</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
