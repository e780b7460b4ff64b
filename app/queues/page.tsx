import Link from "next/link";
import { ProgressBar } from "@/components/progress-bar";
import { pageReadableProjects } from "@/lib/server/auth/page-access";
import { prisma } from "@/lib/server/db/client";
import { queueProgress } from "@/lib/server/queues/stats";

export const dynamic = "force-dynamic";

export default async function QueuesPage() {
  const readable = await pageReadableProjects("/queues");
  const projectIds = readable && (await prisma().project.findMany({ where: { name: { in: readable } }, select: { id: true } })).map((p) => p.id);
  const where = projectIds === null ? {} : { projectId: { in: projectIds } };
  const ids = await prisma().queue.findMany({ where, orderBy: { id: "desc" }, select: { id: true } });
  const queues = await Promise.all(ids.map(({ id }) => queueProgress(id)));
  return (
    <div className="space-y-4">
      <div className="flex items-baseline justify-between">
        <h1 className="text-2xl font-semibold">Labeling queues</h1>
        <Link href="/queues/new" className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white hover:bg-slate-700">New queue</Link>
      </div>
      {queues.length === 0 && <p className="rounded border border-dashed border-slate-300 p-6 text-center text-slate-500">No queues yet.</p>}
      <ul className="space-y-2">
        {queues.map((q) => (
          <li key={q.queue.id} className="rounded border border-slate-200 bg-white p-3" data-testid="queue-row">
            <Link href={`/queues/${q.queue.id}`} className="font-medium text-blue-700 hover:underline">{q.queue.name}</Link>
            <span className="ml-2 text-xs text-slate-500">{q.queue.families.join(", ")} · {q.queue.annotatorsPerItem} per item{q.queue.blind ? " · blind" : ""}</span>
            <div className="mt-1"><ProgressBar done={q.complete} total={q.items} skipped={q.skipped} label="complete" /></div>
          </li>
        ))}
      </ul>
    </div>
  );
}
