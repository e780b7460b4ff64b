import "server-only";
import { ApiError } from "../errors";
import { prisma } from "../db/client";

/** A queue id from the URL, 404 when it is not a queue. Returns the queue with its project's name. */
export async function queueFromParam(raw: string) {
  const id = Number(raw);
  const queue = Number.isInteger(id) && id > 0 ? await prisma().queue.findUnique({ where: { id }, include: { assignees: true } }) : null;
  if (!queue) throw new ApiError(404, "not_found", `queue ${raw} not found`);
  const project = await prisma().project.findUniqueOrThrow({ where: { id: queue.projectId } });
  return { queue, project: project.name };
}

export function itemIdFromParam(raw: string): number {
  const id = Number(raw);
  if (!Number.isInteger(id) || id <= 0) throw new ApiError(404, "not_found", `item ${raw} not found`);
  return id;
}
