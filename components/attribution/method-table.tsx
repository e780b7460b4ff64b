import type { BlameScores, MethodEvaluation, NestedResult, Score } from "@/lib/blame";
import type { LeadingEstimate } from "@/lib/blame/report";
import { formatPercent } from "@/lib/format";

/**
 * Every attribution method's scores over a set of labelled runs (SPEC.md
 * section 10): a bar per accuracy with its Wilson 95 % interval as a band,
 * so that a room sees at once which method finds the decisive error; the
 * figures are printed beside each bar. The best method is marked.
 */
export function MethodTable({ methods, best, testId }: { methods: readonly MethodEvaluation[]; best: string | null; testId: string }) {
  const ranked = [...methods].sort((a, b) => (b.scores?.step.top1.value ?? -1) - (a.scores?.step.top1.value ?? -1) || (b.scores?.agent.top1.value ?? -1) - (a.scores?.agent.top1.value ?? -1));
  return (
    <table className="w-full text-left text-sm" data-testid={testId}>
      <thead className="text-xs text-slate-500">
        <tr>
          <th className="py-1 pr-3 font-medium">method</th>
          <th className="py-1 pr-3 font-medium">step found (top-1)</th>
          <th className="py-1 pr-3 font-medium">step in top 3</th>
          <th className="py-1 pr-3 font-medium">agent found (top-1)</th>
          <th className="py-1 pr-3 font-medium">agent in top 3</th>
          <th className="py-1 pr-3 font-medium">MRR step / agent</th>
          <th className="py-1 font-medium">scored</th>
        </tr>
      </thead>
      <tbody>
        {ranked.map((m) => (
          <tr key={m.method} className={`border-t border-slate-100 ${m.method === best ? "bg-emerald-50" : ""}`} data-testid="method-row" data-method={m.method}>
            <td className="py-1 pr-3 font-mono">{m.method}{m.method === best && <span className="ml-2 rounded bg-emerald-700 px-1.5 py-0.5 font-sans text-xs text-emerald-50">best</span>}</td>
            {m.scores ? (
              <>
                <td className="py-1 pr-3"><Bar score={m.scores.step.top1} /></td>
                <td className="py-1 pr-3 text-slate-600">{formatPercent(m.scores.step.top3.value, 1)}</td>
                <td className="py-1 pr-3"><Bar score={m.scores.agent.top1} /></td>
                <td className="py-1 pr-3 text-slate-600">{formatPercent(m.scores.agent.top3.value, 1)}</td>
                <td className="py-1 pr-3 text-slate-600">{m.scores.step.mrr.value.toFixed(2)} / {m.scores.agent.mrr.value.toFixed(2)}</td>
                <td className="py-1 text-xs text-slate-500">{m.scores.n} runs{m.cv ? `, ${m.cv.k}-fold CV` : ""}{m.not_applicable > 0 ? `; ${m.not_applicable} not applicable` : ""}</td>
              </>
            ) : (
              <td colSpan={6} className="py-1 text-xs text-slate-500">not applicable to these runs ({m.not_applicable}: it needs a group of rollouts)</td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The nested cross-validation: each family's scores when its settings and
 * (for `best (nested)`) the choice of method are made without the runs
 * scored, and what the outer folds kept.
 */
export function NestedTable({ nested, testId }: { nested: readonly NestedResult[]; testId: string }) {
  return (
    <table className="w-full text-left text-sm" data-testid={testId}>
      <thead className="text-xs text-slate-500">
        <tr>
          <th className="py-1 pr-3 font-medium">family</th>
          <th className="py-1 pr-3 font-medium">step found (top-1)</th>
          <th className="py-1 pr-3 font-medium">agent found (top-1)</th>
          <th className="py-1 font-medium">kept by the outer folds</th>
        </tr>
      </thead>
      <tbody>
        {nested.map((r) => (
          <tr key={r.family} className="border-t border-slate-100" data-testid="nested-row" data-family={r.family}>
            <td className="py-1 pr-3 font-mono">{r.family}</td>
            <td className="py-1 pr-3"><Bar score={r.scores.step.top1} /></td>
            <td className="py-1 pr-3"><Bar score={r.scores.agent.top1} /></td>
            <td className="py-1 font-mono text-xs text-slate-600">{tally(r.chosen)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The estimate to expect on runs not labelled yet (nested CV by task of `best (nested)`): all runs, then each system,
 * with what the pick trained on the other systems scores on it beside. Step top-1 and top-3, agent top-1, each with
 * its 95 % interval.
 */
export function EstimateTable({ estimate, testId }: { estimate: LeadingEstimate; testId: string }) {
  const rows: { key: string; label: string; scores: BlameScores | null; note: string }[] = [
    { key: "all", label: "all runs", scores: estimate.scores, note: "nested CV by task" },
    ...estimate.by_system.flatMap((s) => [
      { key: `system:${s.system ?? ""}`, label: s.system ?? "(no system)", scores: s.scores, note: "nested CV by task" },
      { key: `cross:${s.system ?? ""}`, label: `${s.system ?? "(no system)"}, trained on the other systems`, scores: s.cross_system, note: "cross-system" },
    ]),
  ];
  return (
    <table className="w-full text-left text-sm" data-testid={testId}>
      <thead className="text-xs text-slate-500">
        <tr>
          <th className="py-1 pr-3 font-medium">runs</th>
          <th className="py-1 pr-3 font-medium">step found (top-1)</th>
          <th className="py-1 pr-3 font-medium">step in top 3</th>
          <th className="py-1 pr-3 font-medium">agent found (top-1)</th>
          <th className="py-1 font-medium">how</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} className="border-t border-slate-100" data-testid="estimate-row" data-key={r.key}>
            <td className="py-1 pr-3">{r.label}</td>
            {r.scores ? (
              <>
                <td className="py-1 pr-3"><Bar score={r.scores.step.top1} /></td>
                <td className="py-1 pr-3"><Bar score={r.scores.step.top3} /></td>
                <td className="py-1 pr-3"><Bar score={r.scores.agent.top1} /></td>
                <td className="py-1 text-xs text-slate-500">{r.scores.n} runs, {r.note}</td>
              </>
            ) : (
              <td colSpan={4} className="py-1 text-xs text-slate-500">too few labelled runs for this estimate</td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** "a x3, b x2" in the order first kept. */
function tally(chosen: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const c of chosen) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts].map(([c, n]) => (n > 1 ? `${c} ×${n}` : c)).join(", ");
}

/** A share as a bar with its 95 % interval as a lighter band behind it. */
function Bar({ score }: { score: Score }) {
  const title = `${formatPercent(score.value, 1)} (95% ${formatPercent(score.low, 1)}–${formatPercent(score.high, 1)}, n = ${score.n})`;
  return (
    <span className="flex items-center gap-2" title={title} data-value={score.value}>
      <span className="relative inline-block h-3 w-32 rounded-sm bg-slate-100 dark:bg-slate-800" aria-hidden="true">
        <span className="absolute inset-y-0 rounded-sm bg-sky-200" style={{ left: `${score.low * 100}%`, width: `${(score.high - score.low) * 100}%` }} />
        <span className="absolute inset-y-0.5 left-0 rounded-sm bg-sky-700" style={{ width: `${score.value * 100}%` }} />
      </span>
      <span className="tabular-nums">{formatPercent(score.value, 1)}</span>
      <span className="text-xs text-slate-500 tabular-nums">{formatPercent(score.low, 0)}–{formatPercent(score.high, 0)}</span>
    </span>
  );
}
