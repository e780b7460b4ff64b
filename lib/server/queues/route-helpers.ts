import "server-only";
import { authorizeInProject, type Action, type Actor } from "../auth/access";
import { ApiError } from "../errors";
import { prisma } from "../db/client";

const queueNotFound = (raw: string) => new ApiError(404, "not_found", `queue ${JSON.stringify(raw.slice(0, 40))} not found`);

/** A queue id from the URL: decimal, 1..2^31-1; anything else names no queue. */
export function queueIdFromParam(raw: string): number | null {
  const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : NaN;
  return Number.isSafeInteger(id) && id <= 2147483647 ? id : null;
}

/** The queue with its project's name, or null when the id names no queue. */
export async function findQueue(raw: string) {
  const id = queueIdFromParam(raw);
  const queue = id === null ? null : await prisma().queue.findUnique({ where: { id }, include: { assignees: true } });
  if (!queue) return null;
  const project = await prisma().project.findUniqueOrThrow({ where: { id: queue.projectId }, select: { name: true } });
  return { queue, project: project.name };
}

/**
 * The queue named in the path and the actor allowed `action` in its project.
 * Unknown queues and queues of projects the caller may not read are the same
 * 404 (the read policy of lib/server/auth/access.ts).
 */
export async function authorizeQueue(request: Request, raw: string, action: Action): Promise<{ queue: NonNullable<Awaited<ReturnType<typeof findQueue>>>["queue"]; project: string; actor: Actor }> {
  const found = await findQueue(raw);
  const actor = await authorizeInProject(request, found?.project ?? null, action, () => queueNotFound(raw));
  return { ...found!, actor };
}

export function itemIdFromParam(raw: string): number {
  const id = queueIdFromParam(raw);
  if (id === null) throw new ApiError(404, "not_found", `item ${JSON.stringify(raw.slice(0, 40))} not found`);
  return id;
}
