import type { Metadata } from "next";
import Link from "next/link";
import { ProgressBar } from "@/components/progress-bar";
import { currentSession } from "@/lib/server/auth/current";
import { requirePageProjectAdmin } from "@/lib/server/auth/page-access";
import { prisma } from "@/lib/server/db/client";
import { collusion } from "@/lib/server/hacking/queries";
import { agreement } from "@/lib/server/judges/labels";
import { listRuns } from "@/lib/server/judges/runs";
import { listJudges } from "@/lib/server/judges/store";
import { AgreementScatter } from "./_components/agreement-scatter";
import { CollusionTable } from "./_components/collusion-table";
import { JudgeForm } from "./_components/judge-form";
import { PromptEditor } from "./_components/prompt-editor";
import { RunControls } from "./_components/run-controls";

export const dynamic = "force-dynamic";

/**
 * Judges (SPEC.md section 9) of the projects the visitor administers: their
 * settings (the API key only as "set"), runs with progress, cancel and
 * resume, and agreement with people per family.
 */
export const metadata: Metadata = { title: "Judges" };

export default async function JudgesPage() {
  await requirePageProjectAdmin("/judges");
  const session = await currentSession();
  const admin = session.open_mode || session.user!.is_admin;
  const projects = admin ? null : session.user!.memberships.filter((m) => m.role === "admin").map((m) => m.project);
  const judges = await listJudges(projects);
  const allProjects = (await prisma().project.findMany({ select: { name: true }, orderBy: { name: "asc" } })).map((p) => p.name).filter((p) => projects === null || projects.includes(p));
  const runs = new Map(await Promise.all(judges.map(async (j) => [j.id, await listRuns(j.id)] as const)));
  const [trust, drift] = await Promise.all([agreement({}, projects), collusion({}, projects)]);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Judges</h1>
      <p className="max-w-3xl text-sm text-slate-600">
        A judge is a model Baton asks for reward values through an OpenAI-compatible endpoint. Its values stay apart from people&apos;s: credit and
        metrics use them only when asked (<code>judges=</code>, the &ldquo;with judges&rdquo; toggle), and only where no person labelled.{" "}
        <Link href="/docs/judges" className="text-blue-700 underline" data-testid="judges-guide">The judges guide</Link> says how to point one at OpenAI, vLLM or Ollama.
      </p>
      {allProjects.length === 0 ? <p className="text-sm text-slate-600">You administer no project.</p> : <JudgeForm projects={allProjects} />}
      {judges.length === 0 && <p className="rounded border border-dashed border-slate-300 p-6 text-center text-slate-500">No judges yet.</p>}
      <ul className="space-y-3">
        {judges.map((j) => (
          <li key={j.id} className="space-y-2 rounded border border-slate-200 bg-white p-3" data-testid="judge-row">
            <div>
              <span className="font-medium">{j.name}</span>
              <span className="ml-2 text-xs text-slate-500">
                {j.project} · {j.model} at {j.base_url} · key {j.has_api_key ? "set" : "none"} · {j.families.join(", ")}
                {j.event_types.length > 0 ? ` · only ${j.event_types.join(", ")}` : ""} · temperature {j.temperature} · max {j.max_tokens} tokens
              </span>
            </div>
            <PromptEditor judgeId={j.id} families={j.families} prompts={j.prompts} />
            <RunControls judgeId={j.id} runs={runs.get(j.id) ?? []} />
            <ul className="space-y-1">
              {(runs.get(j.id) ?? []).slice(0, 5).map((r) => (
                <li key={r.id} className="text-xs text-slate-600" data-testid="judge-run" data-state={r.state}>
                  <Link href={`/judges/runs/${r.id}`} className="text-blue-700 underline" data-testid="judge-run-link">run {r.id}</Link> · {r.state} · {r.failed} failed · {r.tokens_in + r.tokens_out} tokens
                  <ProgressBar done={r.done + r.failed} total={r.total} label="units" />
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      <section className="space-y-2" data-testid="agreement">
        <h2 className="text-lg font-semibold">Agreement with people</h2>
        <p className="text-xs text-slate-600">Krippendorff&apos;s alpha (interval) of each judge against the people&apos;s mean, over units both labelled; difference = judge − people.</p>
        {trust.length === 0 ? <p className="text-sm text-slate-500">No unit is labelled by both a judge and a person yet.</p> : (
          <table className="text-sm">
            <thead><tr className="text-left text-slate-500"><th className="pr-4">judge</th><th className="pr-4">project</th><th className="pr-4">family</th><th className="pr-4">units</th><th className="pr-4">alpha</th><th className="pr-4">mean difference</th><th>judge vs people</th></tr></thead>
            <tbody>
              {trust.map((g) => (
                <tr key={`${g.project}/${g.judge}/${g.family}`} data-testid="agreement-row">
                  <td className="pr-4">{g.judge}</td><td className="pr-4">{g.project}</td><td className="pr-4">{g.family}</td>
                  <td className="pr-4 tabular-nums">{g.units}</td>
                  <td className="pr-4 tabular-nums">{g.alpha === null ? "—" : g.alpha.toFixed(3)}</td>
                  <td className="pr-4 tabular-nums">{g.mean_signed_difference === null ? "—" : g.mean_signed_difference.toFixed(3)}</td>
                  <td><AgreementScatter points={g.points} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <CollusionTable rows={drift.rows} threshold={drift.threshold} minUnits={drift.min_units} />
    </div>
  );
}
