import Link from "next/link";
import { notFound } from "next/navigation";
import { QueueWork } from "@/components/queues/queue-work";
import { prisma } from "@/lib/server/db/client";

export const dynamic = "force-dynamic";

export default async function QueueWorkPage({ params }: { params: Promise<{ id: string }> }) {
  const id = Number((await params).id);
  const queue = Number.isInteger(id) ? await prisma().queue.findUnique({ where: { id } }) : null;
  if (!queue) notFound();
  return (
    <div className="space-y-3">
      <Link href={`/queues/${id}`} className="text-sm text-blue-700 hover:underline">← {queue.name}</Link>
      <h1 className="text-2xl font-semibold">Label: {queue.name}</h1>
      <QueueWork queueId={id} families={queue.families} />
    </div>
  );
}
