import type { Metadata } from "next";
import Link from "next/link";
import { decodeSegment } from "@/lib/api/text";
import { notFound } from "next/navigation";
import { GroupLanes, TypeLegend } from "@/components/decisions/group-lanes";
import { RTotal } from "@/components/r-total";
import { E1Badge } from "@/components/e1-badge";
import { filterText } from "@/lib/api/params";
import { counted, formatPercent, formatValue } from "@/lib/format";
import { pageReadableProjects } from "@/lib/server/auth/page-access";
import { groupView, MAX_ROLLOUTS } from "@/lib/server/decisions/group";
import { ApiError } from "@/lib/server/errors";

export const dynamic = "force-dynamic";

/**
 * A GRPO group: its rollouts side by side on one time axis with E1, R_total
 * and GRPO advantage, the step where successful and failed rollouts part
 * ways, and the choices only one side made (docs/metrics.md, "Decision
 * analytics and group divergence").
 */
export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  return { title: `Group ${decodeSegment(id) ?? id}` };
}

export default async function GroupPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const groupId = filterText.safeParse(decodeURIComponent(id));
  const readable = await pageReadableProjects(`/groups/${id}`);
  if (!groupId.success) notFound();
  const view = await groupView(groupId.data, readable).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) notFound();
    throw error;
  });
  const d = view.divergence;
  const types = [...new Set(view.rollouts.flatMap((r) => r.events.map((e) => e.type)))].sort();
  const tasks = [...new Set(view.rollouts.map((r) => r.task_id))];
  return (
    <div className="space-y-6">
      <div>
        <Link href={`/?group_id=${encodeURIComponent(view.group_id)}`} className="text-sm text-blue-700 hover:underline">← Traces of this group</Link>
        <h1 className="mt-1 break-all text-xl font-semibold">Group <span className="font-mono" data-testid="group-title">{view.group_id}</span></h1>
        <p className="text-sm text-slate-600">
          {counted(view.rollouts.length, "rollout")}{view.rollouts_total > view.rollouts.length && ` of ${view.rollouts_total} (the first ${MAX_ROLLOUTS} shown)`} · task {tasks.join(", ")} ·
          E1 {formatPercent(view.e1.rate)} (Wilson 95% {formatPercent(view.e1.low)}–{formatPercent(view.e1.high)}, n = {view.e1.n}) · R_total under the {view.preset} preset
        </p>
        <nav className="mt-1 flex gap-4 text-sm">
          <Link href={`/decisions?group_id=${encodeURIComponent(view.group_id)}`} className="text-blue-700 hover:underline">Decision analytics of this group</Link>
          <a href={`/api/groups/${encodeURIComponent(view.group_id)}`} className="text-blue-700 hover:underline">JSON</a>
        </nav>
      </div>

      <section className="space-y-2">
        <h2 className="font-medium" data-testid="group-axis-title">{view.clock === "steps" ? "Rollouts on one step axis (steps since each rollout\u2019s first step)" : "Rollouts on one time axis (seconds since each rollout\u2019s start)"}</h2>
        <div className="overflow-x-auto rounded border border-slate-200 bg-white p-2"><GroupLanes view={view} /></div>
        <TypeLegend types={types} />
      </section>

      <section className="space-y-2" data-testid="divergence">
        <h2 className="font-medium">Where the rollouts part ways</h2>
        {d === null ? (
          <p className="text-sm text-slate-600">
            {view.rollouts.some((r) => r.e1 === 1) && view.rollouts.some((r) => r.e1 === 0)
              ? "The successful and the failed rollouts take the same steps (GiGPO keys) at every position."
              : "No divergence: it needs at least one successful and one failed rollout."}
          </p>
        ) : (
          <div className="space-y-2 text-sm">
            <p data-testid="divergence-step">
              First difference at <strong>step {d.step}</strong> (event order, from 0): successful rollouts take{" "}
              <KeyList keys={d.success_keys} />, failed ones <KeyList keys={d.failure_keys} />. Ringed in the lanes (red: a step the other side never took there).
            </p>
            <table className="text-left text-xs">
              <thead className="text-slate-500"><tr><th className="pr-4">rollout</th><th className="pr-4">side</th><th className="pr-4">event at step {d.step}</th><th>key</th></tr></thead>
              <tbody>
                {d.marks.map((m) => (
                  <tr key={m.trace_id} className={m.distinct ? "font-semibold text-rose-800" : ""}>
                    <td className="pr-4 font-mono"><Link className="text-blue-700 hover:underline" href={`/traces/${encodeURIComponent(m.trace_id)}${m.event_id ? `#event-${encodeURIComponent(m.event_id)}` : ""}`}>{m.trace_id}</Link></td>
                    <td className="pr-4">{m.side}</td>
                    <td className="pr-4 font-mono">{m.event_id ?? "—"}</td>
                    <td className="font-mono">{m.key}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="grid gap-4 sm:grid-cols-2" data-testid="group-choices">
        <ChoiceList title="Only successful rollouts chose" items={view.decisions.success_only} />
        <ChoiceList title="Only failed rollouts chose" items={view.decisions.failure_only} />
      </section>

      <section>
        <h2 className="mb-2 font-medium">Rollouts</h2>
        <table className="w-full text-left text-sm">
          <thead className="text-xs text-slate-500"><tr><th>trace</th><th>E1</th><th title="hover a value for what each family adds">R_total</th><th>GRPO advantage</th><th>events</th><th>checkpoint</th></tr></thead>
          <tbody>
            {view.rollouts.map((r) => (
              <tr key={r.trace_id} className="border-t border-slate-100" data-testid="group-rollout">
                <td className="py-1 font-mono text-xs"><Link className="text-blue-700 hover:underline" href={`/traces/${encodeURIComponent(r.trace_id)}`}>{r.trace_id}</Link></td>
                <td><E1Badge value={r.e1} /></td>
                <td><RTotal value={r.r_total} parts={r.r_total_parts} label="" /></td>
                <td>{formatValue(r.advantage)}</td>
                <td>{r.events.length}</td>
                <td className="font-mono text-xs">{r.policy_version ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

function KeyList({ keys }: { keys: string[] }) {
  return <>{keys.map((k, i) => <span key={k}>{i > 0 && " or "}<code className="rounded bg-slate-100 px-1">{k}</code></span>)}</>;
}

function ChoiceList({ title, items }: { title: string; items: { choice: string; rollouts: number }[] }) {
  return (
    <div className="rounded border border-slate-200 p-3">
      <h3 className="mb-1 text-sm font-medium">{title}</h3>
      {items.length === 0 ? <p className="text-sm text-slate-500">nothing</p> : (
        <ul className="space-y-0.5 text-sm">{items.map((c) => <li key={c.choice}><code>{c.choice}</code> <span className="text-slate-500">({c.rollouts} rollout{c.rollouts === 1 ? "" : "s"})</span></li>)}</ul>
      )}
    </div>
  );
}
