import { createQueue as createContract, listQueues } from "@/lib/api/contracts/queues";
import { authorize, readableProjects } from "@/lib/server/auth/access";
import { prisma } from "@/lib/server/db/client";
import { endpoint, reply } from "@/lib/server/endpoint";
import { createQueue } from "@/lib/server/queues/create";
import { queueProgress } from "@/lib/server/queues/stats";

export const dynamic = "force-dynamic";

/** GET /api/queues: the queues of the projects the caller may read, with their progress. */
export const GET = endpoint(listQueues, {
  access: (request) => readableProjects(request),
  handle: async ({ access: readable }) => {
    const where = readable === null ? {} : { projectId: { in: (await prisma().project.findMany({ where: { name: { in: readable } }, select: { id: true } })).map((p) => p.id) } };
    const queues = await prisma().queue.findMany({ where, orderBy: { id: "desc" }, select: { id: true } });
    const out = await Promise.all(queues.map(async ({ id }) => {
      const p = await queueProgress(id);
      return { id, name: p.queue.name, families: p.queue.families, annotators_per_item: p.queue.annotatorsPerItem, blind: p.queue.blind, items: p.items, complete: p.complete, skipped: p.skipped, pending: p.pending };
    }));
    return { queues: out };
  },
});

/** POST /api/queues (project admin): builds a queue from a filter. */
export const POST = endpoint(createContract, {
  // an admin somewhere before the body is read; of the body's project after
  access: (request) => authorize(request, "admin"),
  handle: async ({ request, body: input }) => {
    const actor = await authorize(request, "admin", input.project);
    const queue = await createQueue(actor, input);
    return reply({ queue: { id: queue.id, name: queue.name, items: queue.items } }, { status: 201 });
  },
});
