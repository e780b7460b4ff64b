import Link from "next/link";
import { ProgressBar } from "@/components/progress-bar";
import { QueueSettings } from "@/components/queues/queue-settings";
import { counted, formatValue } from "@/lib/format";
import { requirePageRead } from "@/lib/server/auth/page-access";
import { findQueue } from "@/lib/server/queues/route-helpers";
import { queueAgreement, queueProgress } from "@/lib/server/queues/stats";

export const dynamic = "force-dynamic";

export default async function QueuePage({ params }: { params: Promise<{ id: string }> }) {
  const raw = (await params).id;
  const found = await findQueue(raw);
  await requirePageRead(`/queues/${raw}`, found?.project ?? null);
  const id = found!.queue.id;
  const progress = await queueProgress(id);
  const agreement = await queueAgreement(id, progress.queue.families);
  const q = progress.queue;
  return (
    <div className="space-y-5">
      <div>
        <Link href="/queues" className="text-sm text-blue-700 hover:underline">← Queues</Link>
        <h1 className="mt-1 text-2xl font-semibold" data-testid="queue-title">{q.name}{q.closedAt && <span className="ml-2 rounded bg-slate-200 px-2 text-sm" data-testid="queue-closed-badge">closed</span>}</h1>
        <p className="text-sm text-slate-600">
          Families: {q.families.join(", ")} · {counted(q.annotatorsPerItem, "annotator")} per item · {q.blind ? "blind" : "annotators see each other's values"}
        </p>
        <div className="mt-2 flex gap-3">
          <Link href={`/queues/${id}/work`} className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white hover:bg-slate-700">Start labeling</Link>
          <Link href={`/queues/${id}/adjudicate`} className="rounded border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100">Disagreements</Link>
        </div>
      </div>
      <QueueSettings queueId={id} name={q.name} families={q.families} blind={q.blind} closed={q.closedAt !== null} order={q.itemOrder} />
      <section className="space-y-1">
        <h2 className="text-lg font-semibold">Progress</h2>
        <p className="text-sm text-slate-600" data-testid="queue-counts">
          <span data-testid="count-complete">{progress.complete.toLocaleString("en")}</span> complete ·{" "}
          <span data-testid="count-skipped">{progress.skipped.toLocaleString("en")}</span> skipped (not complete, skipped by someone; another annotator may still take them) ·{" "}
          <span data-testid="count-pending">{progress.pending.toLocaleString("en")}</span> pending, of {progress.items.toLocaleString("en")} items
        </p>
        <ProgressBar done={progress.complete} total={progress.items} skipped={progress.skipped} label="items complete" />
        {progress.people.map((p) => (
          <ProgressBar key={p.user_id} done={p.done} total={progress.items} skipped={p.skipped} label={p.name} />
        ))}
      </section>
      <section>
        <h2 className="mb-1 text-lg font-semibold">Agreement</h2>
        <p className="mb-2 text-sm text-slate-600">Krippendorff&apos;s alpha (interval) per family over items with at least two annotators; — when fewer than two such items or no spread at all.</p>
        <table className="text-sm" data-testid="agreement">
          <thead className="text-left text-xs uppercase text-slate-500">
            <tr><th className="pr-6">Family</th><th className="pr-6">alpha</th><th>items</th></tr>
          </thead>
          <tbody>
            {agreement.filter((a) => !("same_event" in a)).map((a) => (
              <tr key={a.family} data-testid={`alpha-${a.family}`}>
                <td className="pr-6">{a.family}</td>
                <td className="pr-6 font-mono tabular-nums">{formatValue(a.alpha)}</td>
                <td className="tabular-nums">{a.units}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {agreement.map((a) => "same_event" in a && (
          <div key={a.family} className="mt-3 text-sm" data-testid="agreement-decisive" data-traces={a.units}>
            <h3 className="font-semibold">Decisive error</h3>
            <p className="text-slate-600">Of the traces whose decisive error at least two people named, the share on which all name the same event, and apart the same agent; — when there is none.</p>
            <p>
              same event: <span className="font-mono tabular-nums" data-testid="decisive-same-event">{a.same_event === null ? "—" : `${formatValue(a.same_event * 100)} %`}</span> ·
              same agent: <span className="font-mono tabular-nums" data-testid="decisive-same-agent">{a.same_agent === null ? "—" : `${formatValue(a.same_agent * 100)} %`}</span> ·
              over <span className="tabular-nums" data-testid="decisive-traces">{a.units}</span> trace{a.units === 1 ? "" : "s"}
            </p>
          </div>
        ))}
      </section>
    </div>
  );
}
