import "server-only";
import { findTraceRefOrNull, findTraceRowOrNull, traceNotFound, type findTraceRow, type TraceRef } from "../queries/traces";
import { authorizeInProject, type Action, type Actor } from "./access";

type TraceRow = Awaited<ReturnType<typeof findTraceRow>>;

/**
 * The trace's row and the actor, when the request may do `action` in the
 * trace's project. Unknown traces and traces the caller may not read give
 * the same 404 (no existence oracle); readers without the role 403.
 */
export async function authorizeTrace(request: Request, traceId: string, action: Action): Promise<{ row: TraceRow; actor: Actor }> {
  const row = await findTraceRowOrNull(traceId);
  const actor = await authorizeInProject(request, row?.project.name ?? null, action, () => traceNotFound(traceId));
  return { row: row!, actor };
}

/** authorizeTrace for the label write path: the same policy and answers, with only the trace's key, row id and project read. */
export async function authorizeTraceRef(request: Request, traceId: string, action: Action): Promise<{ row: TraceRef; actor: Actor }> {
  const row = await findTraceRefOrNull(traceId);
  const actor = await authorizeInProject(request, row?.project.name ?? null, action, () => traceNotFound(traceId));
  return { row: row!, actor };
}
