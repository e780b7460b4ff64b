import "server-only";
import type { z } from "zod";
import type { adjudicationInput } from "@/lib/api/queues";
import { storedValuesChangedBy } from "@/lib/annotate/recompute";
import type { Actor } from "../auth/access";
import { recomputeAfterLabel } from "../compute/persist";
import { prisma } from "../db/client";
import { ApiError } from "../errors";

/** An admin's final value for a unit and family; it replaces the annotators' mean everywhere (SPEC.md sections 2, 5). */
export async function adjudicate(actor: Actor, input: z.infer<typeof adjudicationInput>) {
  const trace = await prisma().trace.findUnique({ where: { traceId: input.trace_id } });
  if (!trace) throw new ApiError(404, "not_found", `trace "${input.trace_id}" not found`);
  const eventId = input.event_id ?? "";
  if (eventId && !(await prisma().event.findUnique({ where: { traceId_eventId: { traceId: trace.id, eventId } } }))) {
    throw new ApiError(400, "invalid_input", `no event "${eventId}"`, [{ path: "$.event_id", message: "no such event in the trace" }]);
  }
  const row = await prisma().adjudication.upsert({
    where: { traceKey_eventId_family: { traceKey: trace.traceId, eventId, family: input.family } },
    create: { traceKey: trace.traceId, eventId, family: input.family, value: input.value, adjudicatorId: actor.userId },
    update: { value: input.value, adjudicatorId: actor.userId, updatedAt: new Date() },
  });
  await recomputeAfterLabel(trace, storedValuesChangedBy(input));
  return { trace_id: row.traceKey, event_id: row.eventId || null, family: row.family, value: row.value, updated_at: row.updatedAt.toISOString() };
}
