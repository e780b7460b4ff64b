import Link from "next/link";
import { QueueWork } from "@/components/queues/queue-work";
import { resolvePreset } from "@/lib/rewards";
import { labelingViewer } from "@/lib/server/annotate/viewer";
import { requirePageRead } from "@/lib/server/auth/page-access";
import { prisma } from "@/lib/server/db/client";
import { projectRubrics } from "@/lib/server/queries/rubrics";
import { findQueue } from "@/lib/server/queues/route-helpers";

export const dynamic = "force-dynamic";

/** Working through a queue; a viewer (or someone not assigned) is told they can read but not label, never left waiting. */
export default async function QueueWorkPage({ params }: { params: Promise<{ id: string }> }) {
  const raw = (await params).id;
  const found = await findQueue(raw);
  await requirePageRead(`/queues/${raw}/work`, found?.project ?? null);
  const { queue, project } = found!;
  const id = queue.id;
  const [{ rubrics }, viewer, items] = await Promise.all([projectRubrics(project), labelingViewer(project), prisma().queueItem.count({ where: { queueId: id } })]);
  const assigned = viewer.me === null || viewer.me.key === "local" || queue.assignees.some((a) => String(a.userId) === viewer.me!.key);
  const cannotLabel = viewer.cannotLabel ?? (assigned ? null : "You can read this queue but not label in it: you are not one of its annotators.");
  return (
    <div className="space-y-3">
      <Link href={`/queues/${id}`} className="text-sm text-blue-700 hover:underline">← {queue.name}</Link>
      <h1 className="text-2xl font-semibold">Label: {queue.name}</h1>
      <QueueWork queueId={id} rubrics={rubrics} weights={resolvePreset("uniform")!.weights} total={items} cannotLabel={cannotLabel} me={viewer.me?.name ?? null} blind={queue.blind} />
    </div>
  );
}
