import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";
import { prisma } from "../db/client";
import { notFound } from "../errors";

/**
 * Deletes a trace with everything hanging off it, in one transaction: its
 * events, edges and content (cascade), and the annotations and
 * adjudications and decisive errors keyed by its trace_id (which outlive an upsert, not a delete),
 * and its queue items. A label written meanwhile holds the trace row
 * (saveLabel's FOR KEY SHARE), so the delete waits for it and removes it too.
 */
export async function deleteTrace(traceId: string): Promise<{ trace_id: string; annotations: number }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await deleteOnce(traceId);
    } catch (error) {
      // the cascade met a recompute writing the trace's diagnostics or decision row: PostgreSQL's foreign-key
      // check refuses it even under READ COMMITTED ("could not serialize access"); the delete is retried
      if (attempt >= MAX_ATTEMPTS || !isWriteConflict(error)) throw error;
    }
  }
}

const MAX_ATTEMPTS = 5;
const isWriteConflict = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && (error.code === "P2034" || /TransactionWriteConflict|40001/.test(error.message + JSON.stringify(error.meta ?? {})));

function deleteOnce(traceId: string): Promise<{ trace_id: string; annotations: number }> {
  return prisma().$transaction(async (tx) => {
    const deleted = await tx.trace.deleteMany({ where: { traceId } });
    if (deleted.count === 0) throw notFound(`trace "${traceId}"`);
    const annotations = await tx.annotation.deleteMany({ where: { traceKey: traceId } });
    await tx.adjudication.deleteMany({ where: { traceKey: traceId } });
    await tx.decisiveError.deleteMany({ where: { traceKey: traceId } });
    await tx.decisiveErrorAdjudication.deleteMany({ where: { traceKey: traceId } });
    // queue items of the trace (their work cascades): a queue never hands out a deleted trace
    await tx.queueItem.deleteMany({ where: { traceKey: traceId } });
    return { trace_id: traceId, annotations: annotations.count };
  });
}
