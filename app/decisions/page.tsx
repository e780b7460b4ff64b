import type { Metadata } from "next";
import Link from "next/link";
import { OutcomeTable } from "@/components/decisions/outcome-table";
import { searchParamsObject } from "@/lib/api/filters";
import { decisionFilter } from "@/lib/decisions/query";
import type { DecisionBlock } from "@/lib/decisions/analytics";
import { formatPercent, formatValue } from "@/lib/format";
import { withoutPresent } from "@/lib/meeting/agenda";
import { AddToAgenda } from "@/components/meeting/add-to-agenda";
import { pageReadableProjects } from "@/lib/server/auth/page-access";
import { decisionAnalytics } from "@/lib/server/decisions/analytics";
import { traceFacets } from "@/lib/server/queries/traces";
import { DecisionFilters } from "./_components/decision-filters";

export const dynamic = "force-dynamic";

/**
 * Decision analytics: for each orchestration sub-decision O1-O5, how often it
 * is taken and what follows, by bucket and by checkpoint, with the
 * within-group difference where GRPO groups cover both branches. Every
 * number comes from the server (lib/decisions, SQL over stored columns).
 */
export const metadata: Metadata = { title: "Decisions" };

export default async function DecisionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const values = searchParamsObject(await searchParams);
  const parsed = decisionFilter.safeParse(withoutPresent(values));
  const readable = await pageReadableProjects("/decisions");
  const [report, facets] = await Promise.all([decisionAnalytics(parsed.success ? parsed.data : {}, readable), traceFacets(readable)]);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-baseline gap-4">
        <h1 className="text-2xl font-semibold">Decision analytics</h1>
        <span className="text-sm text-slate-600" data-testid="decisions-scope">{report.traces.toLocaleString("en")} traces · success {formatPercent(report.overall.e1.rate, 1)} · mean R_total {formatValue(report.overall.mean_r_total)}</span>
        <span className="ml-auto"><AddToAgenda title="Decision analytics" /></span>
      </div>
      <p role="note" className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-testid="observational-caveat">{report.caveat}</p>
      <div className="hide-when-presenting"><DecisionFilters values={values} facets={facets} /></div>
      {!parsed.success && (
        <p role="alert" className="text-sm text-rose-700">Ignored invalid filters: {parsed.error.issues.map((i) => `${i.path.join(".") || "$"}: ${i.message}`).join("; ")}</p>
      )}
      {report.decisions.map((d) => <DecisionSection key={d.key} block={d} />)}
      <section className="space-y-2">
        <h2 className="text-lg font-medium">By checkpoint (metadata.policy_version)</h2>
        <OutcomeTable head="checkpoint" testId="checkpoints" rows={report.checkpoints.map((c) => ({ label: c.policy_version ?? "(none)", outcome: c }))} />
        <table className="text-left text-xs text-slate-600">
          <thead><tr><th className="pr-3">checkpoint</th>{report.decisions.map((d) => <th key={d.key} className="pr-3">{d.label} taken</th>)}</tr></thead>
          <tbody>
            {report.checkpoints.map((c) => (
              <tr key={c.policy_version ?? ""}><td className="pr-3 font-mono">{c.policy_version ?? "(none)"}</td>{report.decisions.map((d) => <td key={d.key} className="pr-3">{formatPercent(c.traces > 0 ? c.taken[d.key] / c.traces : null)}</td>)}</tr>
            ))}
          </tbody>
        </table>
      </section>
      <p className="text-xs text-slate-500">Definitions: <Link className="text-blue-700 hover:underline" href="/docs/metrics">docs/metrics.md, “Decision analytics and group divergence”</Link>. JSON: <a className="text-blue-700 hover:underline" href={`/api/decisions?${new URLSearchParams(values).toString()}`}>/api/decisions</a></p>
    </div>
  );
}

function DecisionSection({ block }: { block: DecisionBlock }) {
  const w = block.within_group;
  return (
    <section className="space-y-3 rounded border border-slate-200 bg-white p-4" data-testid={`decision-${block.key}`}>
      <h2 className="text-lg font-medium">{block.label} <span className="text-sm font-normal text-slate-500">— {block.question}</span></h2>
      <OutcomeTable head="decision" rows={[{ label: "taken", outcome: block.taken }, { label: "not taken", outcome: block.not_taken }]} />
      <p className="text-sm" data-testid="within-group">
        Within-group difference (success with minus without, Mantel–Haenszel over {w.groups} group{w.groups === 1 ? "" : "s"} holding both, {w.with} with / {w.without} without):{" "}
        {w.estimate === null ? <span className="text-slate-500">no group holds rollouts with and without it</span> : <strong>{formatSigned(w.estimate)} (95% {formatSigned(w.low)} to {formatSigned(w.high)})</strong>}
      </p>
      {block.buckets.map((b) => (
        <details key={b.by} open className="text-sm">
          <summary className="cursor-pointer text-slate-700">by {b.label}</summary>
          <OutcomeTable head={b.label} testId={`buckets-${b.by}`} rows={b.rows.map((r) => ({ label: r.bucket, outcome: r }))} />
        </details>
      ))}
    </section>
  );
}

const formatSigned = (v: number | null) => (v === null ? "—" : `${v > 0 ? "+" : ""}${(v * 100).toFixed(1)} pp`);
