"use client";

import { useEffect, useState } from "react";
import { CREDIT_METHODS } from "@/lib/credit";
import { counted, formatValue } from "@/lib/format";
import { call, describeFailure } from "@/lib/api/client";
import { traceEffects } from "@/lib/api/contracts/replay";
import type { EffectsCall, EffectsResponse } from "@/lib/api/replay";

/**
 * Measured effects beside the credit heatmap (SPEC.md section 11,
 * docs/replay.md "In the browser"): one bar per call with interventions —
 * the change in outcome its forks measured, coloured by sign, with its 95 %
 * interval as a whisker — and, per credit method, the credit each measured
 * call got and the method's Spearman agreement with the effects.
 */
const ROW = 26;
const LABEL = 150;
const PLOT = 300;
const PAD = 10;

/** Fetches the trace's effects under the page's preset and draws them; nothing when the trace has no intervention. */
export function MeasuredEffects({ traceId, preset }: { traceId: string; preset: string }) {
  const [data, setData] = useState<EffectsResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let cancelled = false;
    void call(traceEffects, { params: { id: traceId }, query: { preset } }).then((r) => {
      if (cancelled) return;
      if (r.ok) {
        setData(r.data);
        setError(null);
      } else setError(describeFailure(r));
    });
    return () => {
      cancelled = true;
    };
  }, [traceId, preset, version]);
  if (error) return <p className="text-sm text-rose-700" data-testid="effects-error">Measured effects could not be read: {error}</p>;
  if (!data || data.calls.length === 0) return null;
  return (
    <section id="measured-effects" className="space-y-2 rounded border border-slate-200 bg-white p-3 text-sm" data-testid="measured-effects" aria-label="Measured effects">
      <div className="flex flex-wrap items-baseline gap-2">
        <h2 className="font-semibold">Measured effects</h2>
        <span className="text-xs text-slate-600">
          change in outcome when the call was changed and the run replayed, against {data.baseline.kind === "replays" ? counted(data.baseline.runs.length, "unchanged replay") : "the recorded run"} (baseline outcome {data.baseline.outcomes.map((o) => formatValue(o)).join(", ")}); whisker: 95 % interval
        </span>
        <button type="button" onClick={() => setVersion((v) => v + 1)} className="ml-auto rounded border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-100" data-testid="effects-refresh">Refresh</button>
      </div>
      <EffectBars calls={data.calls} />
      <AgreementTable data={data} />
    </section>
  );
}

function EffectBars({ calls }: { calls: EffectsCall[] }) {
  const extent = Math.max(1, ...calls.flatMap((c) => [c.effect, c.low, c.high].filter((v): v is number => v !== null).map(Math.abs)));
  const x = (v: number) => LABEL + PAD + ((v + extent) / (2 * extent)) * PLOT;
  const height = calls.length * ROW + 18;
  const width = LABEL + PLOT + 2 * PAD;
  return (
    <div className="flex flex-wrap items-start gap-4">
      <svg width={width} height={height} role="img" aria-label="Measured effect per call" data-testid="effects-chart" className="shrink-0 text-slate-700">
        <line x1={x(0)} x2={x(0)} y1={0} y2={calls.length * ROW} stroke="currentColor" strokeOpacity={0.5} />
        {[-extent, 0, extent].map((t) => (
          <text key={t} x={x(t)} y={calls.length * ROW + 13} textAnchor="middle" fontSize={10} fill="currentColor">{formatValue(t, 2)}</text>
        ))}
        {calls.map((c, i) => {
          const y = i * ROW;
          const mid = y + ROW / 2;
          const colour = c.effect === null ? "#94a3b8" : c.effect > 0 ? "#059669" : c.effect < 0 ? "#e11d48" : "#64748b";
          const hover = `${c.call_id}: effect ${formatValue(c.effect)}${c.low !== null && c.high !== null ? ` [${formatValue(c.low)}, ${formatValue(c.high)}]` : ""}, ${c.samples} sample(s)${c.divergences ? `, ${c.divergences} diverged` : ""}${c.pending ? `, ${c.pending} not stored yet` : ""}${c.confirmed_by_replay ? ", confirmed by replay" : ""}`;
          return (
            <g key={c.call_id} data-testid="effect-bar" data-call-id={c.call_id} data-effect={c.effect ?? ""}>
              <title>{hover}</title>
              <text x={0} y={mid + 4} fontSize={11} fill="currentColor" fontFamily="monospace">{c.call_id.length > 20 ? `${c.call_id.slice(0, 19)}…` : c.call_id}</text>
              {c.effect !== null && <rect x={Math.min(x(0), x(c.effect))} y={y + 6} width={Math.max(2, Math.abs(x(c.effect) - x(0)))} height={ROW - 12} fill={colour} fillOpacity={0.8} />}
              {c.low !== null && c.high !== null && (
                <g stroke="currentColor" strokeWidth={1.2}>
                  <line x1={x(c.low)} x2={x(c.high)} y1={mid} y2={mid} />
                  <line x1={x(c.low)} x2={x(c.low)} y1={mid - 5} y2={mid + 5} />
                  <line x1={x(c.high)} x2={x(c.high)} y1={mid - 5} y2={mid + 5} />
                </g>
              )}
            </g>
          );
        })}
      </svg>
      <ul className="space-y-0 text-xs" data-testid="effects-list">
        {calls.map((c) => (
          <li key={c.call_id} style={{ height: ROW }} className="flex items-center gap-2" data-testid="effect-row" data-call-id={c.call_id}>
            <span className="font-mono">{c.effect === null ? "no measured fork yet" : `${c.effect > 0 ? "+" : ""}${formatValue(c.effect)}`}</span>
            {c.low !== null && c.high !== null && <span className="text-slate-600">[{formatValue(c.low)}, {formatValue(c.high)}]</span>}
            <span className="text-slate-600">n = {c.samples}{c.divergences ? `, ${c.divergences} diverged` : ""}{c.pending ? `, ${c.pending} pending` : ""}</span>
            {c.interventions.some((i) => i.intent !== "correct") && <span className="text-slate-600">({[...new Set(c.interventions.map((i) => i.intent))].join(", ")})</span>}
            {c.confirmed_by_replay === true && <span className="rounded bg-emerald-100 px-1 text-emerald-900" data-testid="confirmed-by-replay">confirmed by replay</span>}
            {c.confirmed_by_replay === false && <span className="rounded bg-slate-100 px-1 text-slate-700">not confirmed by replay</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Why a method's agreement is null, as a person reads it. */
function nullReason(data: EffectsResponse, calls: number): string {
  const measured = data.calls.filter((c) => c.signed_effect !== null).length;
  if (measured < 3) return `needs 3 measured calls (${measured} so far)`;
  if (calls < measured) return "no credit (needs a group)";
  return "undefined (credit or effects constant)";
}

function AgreementTable({ data }: { data: EffectsResponse }) {
  const measured = data.calls.filter((c) => c.signed_effect !== null);
  return (
    <table className="text-left text-xs" data-testid="agreement-table">
      <caption className="caption-top pb-1 text-left text-xs font-semibold text-slate-700">
        Credit vs measured effect <span className="font-normal text-slate-600">(credit: sum of C(v) over the call&apos;s events, preset {data.preset}; agreement: Spearman of credit and signed effect)</span>
      </caption>
      <thead className="text-slate-500">
        <tr>
          <th className="pr-3 font-normal">method</th>
          {measured.map((c) => <th key={c.call_id} className="pr-3 font-mono font-normal">{c.call_id}</th>)}
          <th className="font-normal">agreement</th>
        </tr>
      </thead>
      <tbody>
        <tr className="text-slate-600">
          <td className="pr-3">signed effect</td>
          {measured.map((c) => <td key={c.call_id} className="pr-3 font-mono">{formatValue(c.signed_effect)}</td>)}
          <td />
        </tr>
        {CREDIT_METHODS.map((method) => [method, data.agreement[method]] as const).map(([method, a]) => (
          <tr key={method} data-testid="agreement-row" data-method={method} data-spearman={a.spearman ?? ""}>
            <td className="pr-3 font-semibold">{method}</td>
            {measured.map((c) => <td key={c.call_id} className="pr-3 font-mono">{formatValue(c.credit[method])}</td>)}
            <td className="font-mono">{a.spearman === null ? <span className="font-sans text-slate-500">{nullReason(data, a.calls)}</span> : formatValue(a.spearman)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
