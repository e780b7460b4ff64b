import "server-only";
import type { Score, SystemAccuracy } from "@/lib/blame/scores";
import { prisma } from "../db/client";
import { keyOf, type BlameEvaluationResponse } from "./evaluation";
import type { LabelledFilter } from "./labelled";

export type KeptAccuracy = SystemAccuracy;

/**
 * The kept scores of a system's labelled runs (what the Attribution page shows), read without scoring anything:
 * null when they were never computed for this scope.
 */
export async function keptAccuracy(system: string | null, readable: readonly string[] | null): Promise<KeptAccuracy | null> {
  if (system === null) return null;
  const f: LabelledFilter = { system, ...(readable !== null && { readable }) };
  const kept = await prisma().blameEvaluation.findUnique({ where: { key: keyOf(f) }, select: { result: true } });
  const result = kept?.result as unknown as BlameEvaluationResponse | null | undefined;
  if (!result || result.traces === 0) return null;
  const step_top1: Record<string, Score> = {};
  for (const m of result.methods) if (m.scores) step_top1[m.method] = m.scores.step.top1;
  return { system, best: result.best, step_top1 };
}
