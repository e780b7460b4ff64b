import { AddToAgenda } from "@/components/meeting/add-to-agenda";
import { ProgressBar } from "@/components/progress-bar";
import { RefreshEvery } from "@/components/refresh-every";
import type { Metadata } from "next";
import Link from "next/link";
import { EstimateTable, MethodTable, NestedTable } from "@/components/attribution/method-table";
import { counted, formatPercent } from "@/lib/format";
import { pageReadableProjects } from "@/lib/server/auth/page-access";
import { blameEvaluation, type ScoringStatus } from "@/lib/server/blame/evaluation";
import { formatDuration } from "@/lib/format";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Attribution" };

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

/**
 * Which attribution method to trust on a team's own runs: every method
 * scored against the decisive errors its labelled runs hold (SPEC.md
 * section 10), overall and by system, and the guided mode's questions per
 * run. Computed on the server, kept until the labels change.
 */
export default async function AttributionPage({ searchParams }: { searchParams: Promise<{ project?: string | string[]; system?: string | string[] }> }) {
  const query = await searchParams;
  const project = first(query.project);
  const system = first(query.system);
  const readable = await pageReadableProjects("/attribution");
  const { result: report, fresh, scoring } = await blameEvaluation({ ...(project && { project }), ...(system && { system }), ...(readable !== null && { readable }) });
  const scope = [project && `project ${project}`, system && `system ${system}`].filter(Boolean).join(" · ") || "all projects you can read";
  return (
    <div className="space-y-6">
      <div>
        <div className="flex flex-wrap items-baseline gap-4">
          <h1 className="text-2xl font-semibold">Failure attribution</h1>
          <span className="ml-auto"><AddToAgenda title={`Failure attribution${scope === "all projects you can read" ? "" : ` · ${scope}`}`} /></span>
        </div>
        <p className="text-sm text-slate-600" data-testid="attribution-scope">
          {scope}: {report ? `${report.traces === 0 ? "no run" : report.traces === 1 ? "1 run" : `${report.traces.toLocaleString("en")} runs`} with a decisive error.` : "scoring…"} Each method names one step (and one agent) as the one that broke the run; a share is how often that is the labelled one. Methods that learn are scored only on runs they were not trained on ({report?.estimate ? "the estimate at the top by nested cross-validation over whole tasks, the tables below by 5-fold cross-validation by run" : "5-fold cross-validation by run"}).
        </p>
      </div>
      <form className="flex flex-wrap items-end gap-3 text-sm hide-when-presenting" action="/attribution">
        <label className="flex flex-col">project<input name="project" defaultValue={project ?? ""} className="rounded border border-slate-300 px-2 py-1" /></label>
        <label className="flex flex-col">system<input name="system" defaultValue={system ?? ""} className="rounded border border-slate-300 px-2 py-1" /></label>
        <button type="submit" className="rounded bg-slate-900 px-3 py-1 text-white hover:bg-slate-700">Apply</button>
      </form>
      {!fresh && <ScoringNotice scoring={scoring} since={report?.computed_at ?? null} />}
      {!report ? null : report.traces === 0 ? (
        <p className="rounded border border-slate-300 bg-slate-50 p-4 text-sm" data-testid="attribution-empty">
          No run here has a decisive error yet. Name one on a run&apos;s label page (<kbd>w</kbd>, or the guided questions), or import a dataset that carries them (Who&amp;When runs do).
        </p>
      ) : (
        <>
          {report.estimate && (
            <section className="space-y-2" data-testid="estimate-section">
              <h2 className="text-lg font-medium">What to expect on runs not labelled yet <span className="text-sm font-normal text-slate-600">— <span className="font-mono">method=best</span> under nested cross-validation by task</span></h2>
              <p className="text-sm text-slate-600">
                Every choice (the method and its settings) is made on other runs, and the folds are made of whole tasks ({report.estimate.tasks} among these {report.traces} runs): no run is ranked by a model, or a choice, that saw another run of its question. With each system, what the same choice trained on the other systems alone scores on it: what a system with no labels of its own can expect. The bands are 95 % intervals; a few dozen runs leave them wide.
              </p>
              <EstimateTable estimate={report.estimate} testId="estimate" />
            </section>
          )}
          <section className="space-y-2">
            <h2 className="text-lg font-medium">All {report.traces} runs {report.best && <span className="text-sm font-normal text-slate-600">— best: <span className="font-mono">{report.best}</span> (what <span className="font-mono">method=best</span> uses)</span>}</h2>
            <MethodTable methods={report.methods} best={report.best} testId="methods-all" />
          </section>
          {report.nested.length > 0 && (
            <section className="space-y-2" data-testid="nested-section">
              <h2 className="text-lg font-medium">With nothing tuned on the runs scored <span className="text-sm font-normal text-slate-600">— nested cross-validation by run</span></h2>
              <p className="text-sm text-slate-600">
                The scores above choose among methods on the same runs they score, so the best of them is flattered. Here each outer fold&apos;s choice (settings, and for <span className="font-mono">best (nested)</span> the method, as <span className="font-mono">method=best</span> makes it) is made on the other folds alone. Folds are made of runs, so runs of one question can sit on both sides; the estimate at the top keeps them apart.
              </p>
              <NestedTable nested={report.nested} testId="nested-all" />
              {report.nested_by_task && report.nested_by_task.length > 0 && JSON.stringify(report.nested_by_task) !== JSON.stringify(report.nested) && (
                <>
                  <p className="text-sm text-slate-600">The same with folds made of whole tasks (what the estimate at the top leads with), every family:</p>
                  <NestedTable nested={report.nested_by_task} testId="nested-by-task" />
                </>
              )}
            </section>
          )}
          {report.by_system.map((s) => (
            <section key={s.system ?? ""} className="space-y-2" data-testid="system-section" data-system={s.system ?? ""}>
              <h2 className="text-lg font-medium">{s.system ?? "(no system)"} <span className="text-sm font-normal text-slate-600">— {s.traces} runs{s.best ? <>, best: <span className="font-mono">{s.best}</span> (what <span className="font-mono">method=best</span> uses for these runs)</> : ", too few for a choice of their own: the best of all runs applies"}</span></h2>
              <MethodTable methods={s.methods} best={s.best} testId={`methods-${s.system ?? "none"}`} />
            </section>
          ))}
          <section className="space-y-2" data-testid="guided-section">
            <h2 className="text-lg font-medium">Guided mode: questions per run</h2>
            <p className="text-sm text-slate-600">
              &ldquo;Is the run still on track after step k?&rdquo;, answered truthfully from each run&apos;s decisive error, with {report.guided.method ? <span className="font-mono">{report.guided.method}</span> : "no method"}&apos;s ranking as the prior: <strong data-testid="guided-mean">{report.guided.mean_answers?.toFixed(2)}</strong> answers per run on average, against {report.guided.plain_mean_answers?.toFixed(2)} for plain bisection.
            </p>
            <details className="text-sm">
              <summary className="cursor-pointer">every run&apos;s questions</summary>
              <table className="mt-2 text-left text-xs">
                <thead className="text-slate-500"><tr><th className="pr-3">run</th><th className="pr-3">events</th><th className="pr-3">questions (✓ on track, ✗ off track)</th><th>found</th></tr></thead>
                <tbody>
                  {report.guided.runs.map((r) => (
                    <tr key={r.trace_id} className="border-t border-slate-100" data-testid="guided-run">
                      <td className="pr-3 font-mono"><Link className="text-blue-700 hover:underline" href={`/traces/${encodeURIComponent(r.trace_id)}/label`}>{r.trace_id}</Link></td>
                      <td className="pr-3">{r.events}</td>
                      <td className="pr-3 font-mono">{r.questions.map((q) => `${q.event_id} ${q.on_track ? "✓" : "✗"}`).join(" · ")}</td>
                      <td>{r.found ? "yes" : "no"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          </section>
          <p className="text-sm text-slate-600" data-testid="decisive-agreement">
            Agreement between annotators on the decisive error: {report.agreement.traces === 0 ? "no run has two annotators' decisive errors yet" : `${counted(report.agreement.traces, "run")} with two or more; the same step on ${formatPercent(report.agreement.same_event, 0)}, the same agent on ${formatPercent(report.agreement.same_agent, 0)}`}.
          </p>
        </>
      )}
      <p className="text-xs text-slate-500">
        Definitions: <Link className="text-blue-700 hover:underline" href="/docs/metrics#failure-attribution">docs/metrics.md, “Failure attribution”</Link>. JSON: <a className="text-blue-700 hover:underline" href={`/api/blame/evaluation?${new URLSearchParams({ ...(project && { project }), ...(system && { system }) }).toString()}`}>/api/blame/evaluation</a>
      </p>
    </div>
  );
}

/** Where the scoring of the labelled runs as they are now stands: progress and the time left, refreshed while it runs. */
function ScoringNotice({ scoring, since }: { scoring: ScoringStatus; since: string | null }) {
  const waiting = scoring.state === "queued" || scoring.state === "running";
  return (
    <div role="status" className="space-y-2 rounded border border-sky-300 bg-sky-50 p-3 text-sm text-sky-900" data-testid="attribution-scoring" data-state={scoring.state} data-progress={scoring.progress}>
      <p>
        {since ? `The labels changed since these scores (${since.slice(0, 16).replace("T", " ")} UTC): ` : ""}
        {scoring.state === "queued" && `Baton will score every method on these ${scoring.traces} runs in the background, after the scorings ahead of it (about ${formatDuration(scoring.estimate_seconds ?? 0)} of work); this page refreshes itself.`}
        {scoring.state === "running" && `Baton is scoring every method on these ${scoring.traces} runs in the background: about ${formatDuration(scoring.estimate_seconds ?? 0)} left; this page refreshes itself.`}
        {scoring.state === "failed" && `Scoring these runs failed: ${scoring.error ?? "no reason given"}.`}
        {scoring.state === "cancelled" && `The scoring of these runs stopped (${scoring.error ?? "cancelled"}); opening this page again starts it.`}
      </p>
      {waiting && <ProgressBar done={Math.round(scoring.progress * 100)} total={100} label="scored (%)" />}
      {waiting && <RefreshEvery seconds={3} />}
    </div>
  );
}
