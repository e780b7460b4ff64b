import "server-only";
import { prisma } from "../db/client";
import { notFound } from "../errors";

/**
 * Deletes a trace with everything hanging off it, in one transaction: its
 * events, edges and content (cascade), and the annotations and
 * adjudications and decisive errors keyed by its trace_id (which outlive an upsert, not a delete).
 */
export async function deleteTrace(traceId: string): Promise<{ trace_id: string; annotations: number }> {
  return prisma().$transaction(async (tx) => {
    const deleted = await tx.trace.deleteMany({ where: { traceId } });
    if (deleted.count === 0) throw notFound(`trace "${traceId}"`);
    const annotations = await tx.annotation.deleteMany({ where: { traceKey: traceId } });
    await tx.adjudication.deleteMany({ where: { traceKey: traceId } });
    await tx.decisiveError.deleteMany({ where: { traceKey: traceId } });
    await tx.decisiveErrorAdjudication.deleteMany({ where: { traceKey: traceId } });
    return { trace_id: traceId, annotations: annotations.count };
  });
}
