import type { Outcome } from "@/lib/decisions/analytics";
import { formatPercent, formatValue } from "@/lib/format";

const W = 160;
const H = 16;

/** A success rate and its Wilson 95% interval on a 0-100% track: the dot is the rate, the bar the interval. */
export function IntervalBar({ outcome }: { outcome: Outcome }) {
  const { rate, low, high } = outcome.e1;
  const x = (v: number) => 4 + v * (W - 8);
  return (
    <svg width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={rate === null ? "no E1" : `${formatPercent(rate, 1)}, 95% interval ${formatPercent(low, 1)} to ${formatPercent(high, 1)}`}>
      <line x1={x(0)} x2={x(1)} y1={H / 2} y2={H / 2} className="stroke-slate-200" strokeWidth={2} />
      <line x1={x(0.5)} x2={x(0.5)} y1={3} y2={H - 3} className="stroke-slate-300" />
      {rate !== null && low !== null && high !== null && (
        <>
          <line x1={x(low)} x2={x(high)} y1={H / 2} y2={H / 2} className="stroke-blue-500" strokeWidth={6} strokeLinecap="round" />
          <circle cx={x(rate)} cy={H / 2} r={4} className="fill-slate-900 stroke-white" strokeWidth={1.5} />
        </>
      )}
    </svg>
  );
}

export interface OutcomeRow {
  label: string;
  outcome: Outcome;
}

/** Rows of outcomes: traces, success rate with its Wilson interval (text and drawn), mean R_total. */
export function OutcomeTable({ rows, head, testId }: { rows: OutcomeRow[]; head: string; testId?: string }) {
  return (
    <table className="w-full text-left text-sm" data-testid={testId}>
      <thead className="text-xs text-slate-500">
        <tr><th className="pr-3">{head}</th><th className="pr-3">traces</th><th className="pr-3">success (n with E1)</th><th className="pr-3">Wilson 95%</th><th /><th>mean R_total</th></tr>
      </thead>
      <tbody>
        {rows.map(({ label, outcome }) => (
          <tr key={label} className="border-t border-slate-100" data-testid="outcome-row" data-label={label}>
            <td className="py-0.5 pr-3 font-mono text-xs">{label}</td>
            <td className="pr-3">{outcome.traces.toLocaleString("en")}</td>
            <td className="pr-3">{formatPercent(outcome.e1.rate, 1)} <span className="text-slate-500">({outcome.e1.n})</span></td>
            <td className="pr-3 whitespace-nowrap" data-testid="wilson">{outcome.e1.low === null ? "—" : `${formatPercent(outcome.e1.low, 1)}–${formatPercent(outcome.e1.high, 1)}`}</td>
            <td className="pr-3"><IntervalBar outcome={outcome} /></td>
            <td>{formatValue(outcome.mean_r_total)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
