import Link from "next/link";
import { AdjudicateForm } from "@/components/queues/adjudicate-form";
import { DecisiveAdjudicateForm } from "@/components/queues/decisive-adjudicate-form";
import { formatValue } from "@/lib/format";
import { requirePageRead } from "@/lib/server/auth/page-access";
import { findQueue } from "@/lib/server/queues/route-helpers";
import { decisiveDisagreements, disagreements } from "@/lib/server/queues/stats";

export const dynamic = "force-dynamic";

interface Props {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ threshold?: string }>;
}

/** Units where annotators disagree, values side by side, with the event a click away; an admin sets the final value. */
export default async function AdjudicatePage({ params, searchParams }: Props) {
  const raw = (await params).id;
  const found = await findQueue(raw);
  await requirePageRead(`/queues/${raw}/adjudicate`, found?.project ?? null);
  const { queue } = found!;
  const id = queue.id;
  const threshold = Math.min(2, Math.max(0, Number((await searchParams).threshold ?? "0.5") || 0));
  const [units, decisive] = await Promise.all([disagreements(id, threshold), decisiveDisagreements(id)]);
  return (
    <div className="space-y-4">
      <Link href={`/queues/${id}`} className="text-sm text-blue-700 hover:underline">← {queue.name}</Link>
      <h1 className="text-2xl font-semibold">Disagreements</h1>
      <form className="flex items-center gap-2 text-sm" method="get">
        <label>Spread above <input name="threshold" defaultValue={threshold} className="w-16 rounded border border-slate-300 px-1" /></label>
        <button className="rounded border border-slate-300 px-2 py-0.5">Show</button>
      </form>
      {units.length === 0 && <p className="text-slate-500">No unit with a spread above {threshold}.</p>}
      <table className="w-full text-sm" data-testid="disagreements">
        <thead className="text-left text-xs uppercase text-slate-500">
          <tr><th>Unit</th><th>Family</th><th>Values</th><th>Spread</th><th>Final value</th></tr>
        </thead>
        <tbody>
          {units.map((u) => (
            <tr key={`${u.trace_id}/${u.event_id}/${u.family}`} className="border-t border-slate-100" data-testid="disagreement">
              <td className="py-1.5">
                <Link className="font-mono text-blue-700 underline" href={`/traces/${encodeURIComponent(u.trace_id)}/graph${u.event_id ? `?selected=${encodeURIComponent(u.event_id)}` : ""}`}>
                  {u.trace_id}{u.event_id ? ` / ${u.event_id}` : ""}
                </Link>
              </td>
              <td>{u.family}</td>
              <td>{u.values.map((v) => `${v.annotator}: ${formatValue(v.value)}`).join(" · ")}</td>
              <td className="font-mono">{formatValue(u.spread)}</td>
              <td><AdjudicateForm traceId={u.trace_id} eventId={u.event_id} family={u.family} current={u.adjudicated} /></td>
            </tr>
          ))}
        </tbody>
      </table>
      {(decisive.length > 0 || queue.families.includes("decisive_error")) && (
        <section className="space-y-2">
          <h2 className="text-lg font-semibold">Decisive errors</h2>
          <p className="text-sm text-slate-600">Traces whose annotators name different decisive events; pick the one that stands (it wins on export and in attribution scores).</p>
          {decisive.length === 0 && <p className="text-slate-500">No trace on which people name different decisive events.</p>}
          <table className="w-full text-sm" data-testid="decisive-disagreements">
            <thead className="text-left text-xs uppercase text-slate-500">
              <tr><th>Trace</th><th>Named</th><th>Final event</th></tr>
            </thead>
            <tbody>
              {decisive.map((d) => (
                <tr key={d.trace_id} className="border-t border-slate-100 align-top" data-testid="decisive-disagreement" data-trace-id={d.trace_id}>
                  <td className="py-1.5">
                    <Link className="font-mono text-blue-700 underline" href={`/traces/${encodeURIComponent(d.trace_id)}/label`}>{d.trace_id}</Link>
                  </td>
                  <td>
                    <ul>
                      {d.labels.map((l) => (
                        <li key={`${l.annotator}|${l.imported}`}>
                          {l.annotator}{l.imported ? " (imported)" : ""}: <span className="font-mono">{l.event_id}</span> ({l.agent}){l.reason ? <span className="text-slate-600"> — {l.reason.length > 120 ? `${l.reason.slice(0, 120)}…` : l.reason}</span> : null}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td><DecisiveAdjudicateForm traceId={d.trace_id} events={d.events} current={d.adjudicated?.event_id ?? null} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}
