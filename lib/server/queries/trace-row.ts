import "server-only";
import { isStorableId } from "@/lib/api/text";
import { reader } from "@/lib/server/db/read";
import { notFound } from "../errors";

/** A trace's row by its id (traces.ts and load-trace.ts both read it; neither imports the other for it). */
export async function findTraceRow(traceId: string) {
  const row = await findTraceRowOrNull(traceId);
  if (!row) throw traceNotFound(traceId);
  return row;
}

/**
 * The row, or null. An id no trace can have (over 512 characters, U+0000 or
 * a lone surrogate, which PostgreSQL cannot even compare) is simply not
 * found, without asking the database.
 */
export async function findTraceRowOrNull(traceId: string) {
  if (!isStorableId(traceId)) return null;
  return (await reader()).prisma.trace.findUnique({ where: { traceId }, include: { project: { select: { name: true } } } });
}

export const traceNotFound = (traceId: string) => notFound(`trace ${JSON.stringify(traceId.slice(0, 200))}`);
