import Link from "next/link";
import { NewQueueForm } from "@/components/queues/new-queue-form";
import { requirePageProjectAdmin } from "@/lib/server/auth/page-access";
import { isOpenMode, localUser } from "@/lib/server/auth/access";
import { prisma } from "@/lib/server/db/client";

export const dynamic = "force-dynamic";

/** Project admins only: the form lists every project and person. `?trace_ids=a,b` (the trace list's "Add to queue") fills in the traces. */
export default async function NewQueuePage({ searchParams }: { searchParams: Promise<{ trace_ids?: string | string[] }> }) {
  await requirePageProjectAdmin("/queues/new");
  const given = (await searchParams).trace_ids;
  const traceIds = (Array.isArray(given) ? given[0] : given) ?? "";
  // in open local mode the local user is the one annotator (and must exist to be assigned)
  const openMode = await isOpenMode();
  if (openMode) await localUser();
  const [projects, users] = await Promise.all([
    prisma().project.findMany({ select: { name: true }, orderBy: { name: "asc" } }),
    prisma().user.findMany({ where: openMode ? { local: true } : { local: false }, select: { email: true, name: true }, orderBy: { name: "asc" } }),
  ]);
  return (
    <div className="space-y-4">
      <Link href="/queues" className="text-sm text-blue-700 hover:underline">← Queues</Link>
      <h1 className="text-2xl font-semibold">New labeling queue</h1>
      <NewQueueForm projects={projects.map((p) => p.name)} users={users} openMode={openMode} traceIds={traceIds.slice(0, 20000)} />
    </div>
  );
}
