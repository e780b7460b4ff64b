import Link from "next/link";
import { QueueWork } from "@/components/queues/queue-work";
import { requirePageRead } from "@/lib/server/auth/page-access";
import { findQueue } from "@/lib/server/queues/route-helpers";

export const dynamic = "force-dynamic";

export default async function QueueWorkPage({ params }: { params: Promise<{ id: string }> }) {
  const raw = (await params).id;
  const found = await findQueue(raw);
  await requirePageRead(`/queues/${raw}/work`, found?.project ?? null);
  const { queue } = found!;
  const id = queue.id;
  return (
    <div className="space-y-3">
      <Link href={`/queues/${id}`} className="text-sm text-blue-700 hover:underline">← {queue.name}</Link>
      <h1 className="text-2xl font-semibold">Label: {queue.name}</h1>
      <QueueWork queueId={id} families={queue.families} />
    </div>
  );
}
