import "server-only";
import { unitValues, type FamilyValues } from "@/lib/judges/unit-values";
import { prisma } from "../db/client";

/**
 * One unit's people's labels, adjudications and the current values of the
 * judges of the trace's project (lib/judges/unit-values.ts), three indexed
 * reads by (trace, event).
 */
export async function storedUnitValues(trace: { traceId: string; projectId: number }, eventId: string | null): Promise<FamilyValues[]> {
  const unit = { traceKey: trace.traceId, eventId: eventId ?? "" };
  const [people, adjudications, judged] = await Promise.all([
    prisma().annotation.findMany({ where: unit, select: { family: true, value: true } }),
    prisma().adjudication.findMany({ where: unit, select: { family: true, value: true } }),
    prisma().judgeLabel.findMany({
      where: { ...unit, current: true, value: { not: null }, judge: { projectId: trace.projectId } },
      select: { family: true, value: true, reason: true, model: true, createdAt: true, judge: { select: { name: true } } },
    }),
  ]);
  return unitValues([], people, adjudications, judged.map((j) => ({ judge: j.judge.name, family: j.family, value: j.value!, reason: j.reason, model: j.model, at: j.createdAt.toISOString() })));
}
