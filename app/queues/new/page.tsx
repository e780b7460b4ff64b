import Link from "next/link";
import { NewQueueForm } from "@/components/queues/new-queue-form";
import { prisma } from "@/lib/server/db/client";

export const dynamic = "force-dynamic";

/** `?trace_ids=a,b` (the trace list's "Add to queue") fills in the traces. */
export default async function NewQueuePage({ searchParams }: { searchParams: Promise<{ trace_ids?: string | string[] }> }) {
  const given = (await searchParams).trace_ids;
  const traceIds = (Array.isArray(given) ? given[0] : given) ?? "";
  const [projects, users] = await Promise.all([
    prisma().project.findMany({ select: { name: true }, orderBy: { name: "asc" } }),
    prisma().user.findMany({ where: { local: false }, select: { email: true, name: true }, orderBy: { name: "asc" } }),
  ]);
  return (
    <div className="space-y-4">
      <Link href="/queues" className="text-sm text-blue-700 hover:underline">← Queues</Link>
      <h1 className="text-2xl font-semibold">New labeling queue</h1>
      <NewQueueForm projects={projects.map((p) => p.name)} users={users} traceIds={traceIds.slice(0, 20000)} />
    </div>
  );
}
