import "server-only";
import type { z } from "zod";
import type { queuePatchInput } from "@/lib/api/queue-edit";
import { DECISIVE_ERROR_TARGET, DECISIVE_NEEDS_TRACE_UNITS, queueFilter, type QueueFilter, type QueueOrder } from "@/lib/api/queues";
import { prisma } from "../db/client";
import { stored } from "../db/stored";
import { ApiError } from "../errors";
import { checkTraceIds, countUnits } from "./create";
import { reorderItems } from "./order";

/** Items a filter would give in a project (the create form's preview). */
export async function previewQueue(projectName: string, filter: QueueFilter): Promise<number> {
  const project = await prisma().project.findUnique({ where: { name: projectName } });
  if (!project) throw new ApiError(400, "invalid_input", `no project "${projectName}"`, [{ path: "$.project", message: "unknown project" }]);
  await checkTraceIds(project.id, filter);
  return countUnits(project.id, filter);
}

/** Renames, changes families / N / blindness, closes or reopens a queue; items stay as they were built. */
export async function editQueue(queueId: number, input: z.infer<typeof queuePatchInput>) {
  const queue = await prisma().queue.findUniqueOrThrow({ where: { id: queueId }, include: { assignees: true } });
  if (input.name !== undefined && input.name !== queue.name && (await prisma().queue.findUnique({ where: { projectId_name: { projectId: queue.projectId, name: input.name } } }))) {
    throw new ApiError(409, "conflict", `a queue named "${input.name}" exists`, [{ path: "$.name", message: "taken" }]);
  }
  if (input.annotators_per_item !== undefined && input.annotators_per_item > queue.assignees.length) {
    throw new ApiError(400, "invalid_input", "more annotators per item than assignees", [{ path: "$.annotators_per_item", message: `at most ${queue.assignees.length}` }]);
  }
  if (input.families?.includes(DECISIVE_ERROR_TARGET) && stored(queueFilter, queue.filter, `queue ${queue.id}: its filter`).unit !== "trace") {
    throw new ApiError(400, "invalid_input", DECISIVE_NEEDS_TRACE_UNITS, [{ path: "$.families", message: "this queue's items are events" }]);
  }
  const families = input.families ?? queue.families;
  const order = input.order ?? (queue.itemOrder as QueueOrder);
  // a new order, or new families under the judges' order, re-numbers the items
  const reorder = (input.order !== undefined && input.order !== queue.itemOrder) || (order === "judge_disagreement" && input.families !== undefined);
  const [updated] = await prisma().$transaction([
    prisma().queue.update({
      where: { id: queueId },
      data: {
        ...(input.name !== undefined && { name: input.name }),
        ...(input.families !== undefined && { families: input.families }),
        ...(input.annotators_per_item !== undefined && { annotatorsPerItem: input.annotators_per_item }),
        ...(input.blind !== undefined && { blind: input.blind }),
        ...(input.closed !== undefined && { closedAt: input.closed ? (queue.closedAt ?? new Date()) : null }),
        ...(input.order !== undefined && { itemOrder: input.order }),
      },
    }),
    ...(reorder ? [reorderItems(prisma(), queueId, queue.projectId, families, order)] : []),
  ]);
  return updated;
}
