import type { Metadata } from "next";
import Link from "next/link";
import { ProgressBar } from "@/components/progress-bar";
import { formatValue } from "@/lib/format";
import { requirePageProjectAdminOf } from "@/lib/server/auth/page-access";
import { prisma } from "@/lib/server/db/client";
import { runStatus } from "@/lib/server/judges/runs";
import { runUnits, UNIT_STATES, type UnitState } from "@/lib/server/judges/units";

export const dynamic = "force-dynamic";

const PAGE = 100;

interface Props {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  return { title: `Judge run ${/^\d{1,9}$/.test(id) ? id : ""}` };
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * One judge run, unit by unit: which failed and why, with the reply the
 * model actually sent, and the value and reason of every answered unit.
 * For the admins of the judge's project. Replies are untrusted text.
 */
export default async function JudgeRunPage({ params, searchParams }: Props) {
  const { id } = await params;
  const runId = /^\d{1,9}$/.test(id) ? Number(id) : null;
  const found = runId === null ? null : await prisma().judgeRun.findUnique({ where: { id: runId }, select: { judge: { select: { name: true, model: true, project: { select: { name: true } } } } } });
  await requirePageProjectAdminOf(`/judges/runs/${id}`, found?.judge.project.name ?? null);
  const query = await searchParams;
  const rawState = one(query.state);
  const state = (UNIT_STATES as readonly string[]).includes(rawState ?? "") ? (rawState as UnitState) : undefined;
  const offset = Math.max(0, Math.min(1_000_000_000, Number.parseInt(one(query.offset) ?? "0", 10) || 0));
  const [run, page] = await Promise.all([runStatus(runId!), runUnits(runId!, { state, offset, limit: PAGE })]);
  const judge = found!.judge;
  const href = (s: UnitState | undefined, at = 0) => {
    const p = new URLSearchParams();
    if (s) p.set("state", s);
    if (at > 0) p.set("offset", String(at));
    const q = p.toString();
    return `/judges/runs/${run.id}${q ? `?${q}` : ""}`;
  };
  const tab = (active: boolean) => `rounded px-2 py-0.5 ${active ? "bg-slate-900 text-white" : "border border-slate-300 bg-white hover:bg-slate-100"}`;
  return (
    <div className="space-y-4">
      <div>
        <Link href="/judges" className="text-sm text-blue-700 hover:underline">← Judges</Link>
        <h1 className="text-2xl font-semibold" data-testid="judge-run-title">Run {run.id} of {judge.name}</h1>
        <p className="text-sm text-slate-600">
          {judge.model} · project {judge.project.name} · {run.state} · {run.done} done, {run.failed} failed, {run.pending} to go · {(run.tokens_in + run.tokens_out).toLocaleString("en")} tokens
        </p>
        <ProgressBar done={run.done + run.failed} total={run.total} label="units" />
      </div>
      <nav className="flex flex-wrap gap-2 text-sm" aria-label="Units by state" data-testid="unit-states">
        <Link href={href(undefined)} className={tab(state === undefined)}>all {run.total.toLocaleString("en")}</Link>
        {UNIT_STATES.map((s) => (
          <Link key={s} href={href(s)} className={tab(state === s)} data-testid={`unit-state-${s}`}>{s} {page.counts[s].toLocaleString("en")}</Link>
        ))}
      </nav>
      {page.units.length === 0 ? <p className="rounded border border-dashed border-slate-300 p-6 text-center text-slate-500">No units here.</p> : (
        <table className="w-full table-fixed text-left text-sm">
          <thead className="text-xs text-slate-500">
            <tr><th className="w-48 py-1">trace</th><th className="w-24">event</th><th className="w-40">family</th><th className="w-16">state</th><th className="w-14">value</th><th>reason, or why it failed</th></tr>
          </thead>
          <tbody>
            {page.units.map((u) => (
              <tr key={`${u.trace_id}\u0000${u.event_id ?? ""}\u0000${u.family}`} className="border-t border-slate-100 align-top" data-testid="judge-unit" data-state={u.state}>
                <td className="break-all py-1 font-mono text-xs"><Link className="text-blue-700 hover:underline" href={`/traces/${encodeURIComponent(u.trace_id)}/label`}>{u.trace_id}</Link></td>
                <td className="break-all font-mono text-xs">{u.event_id ?? "trace"}</td>
                <td>{u.family}</td>
                <td className={u.state === "failed" ? "text-rose-700" : undefined}>{u.state}</td>
                <td className="tabular-nums">{formatValue(u.value)}</td>
                <td className="space-y-1 break-words">
                  {u.reason && <p data-testid="unit-reason">{u.reason}</p>}
                  {u.error && <p className="text-rose-800" data-testid="unit-error">{u.error}</p>}
                  {u.raw !== null && (
                    <details>
                      <summary className="cursor-pointer text-xs text-slate-500">the model&apos;s reply ({u.raw.length.toLocaleString("en")} characters)</summary>
                      <pre className="max-h-64 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 text-xs" data-testid="unit-raw">{u.raw}</pre>
                    </details>
                  )}
                  {u.latency_ms !== null && <p className="text-xs text-slate-500">{u.model} · {u.latency_ms.toLocaleString("en")} ms{u.tokens_in !== null ? ` · ${u.tokens_in} + ${u.tokens_out ?? 0} tokens` : ""}</p>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav className="flex gap-4 text-sm" aria-label="Pages">
        {offset > 0 && <Link className="text-blue-700 hover:underline" href={href(state, Math.max(0, offset - PAGE))}>Previous {PAGE}</Link>}
        {offset + PAGE < page.total && <Link className="text-blue-700 hover:underline" href={href(state, offset + PAGE)} data-testid="units-next">Next {PAGE}</Link>}
      </nav>
    </div>
  );
}
