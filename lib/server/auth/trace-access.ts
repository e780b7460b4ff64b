import "server-only";
import { findTraceRow } from "../queries/traces";
import { authorize, type Action, type Actor } from "./access";

/** The trace's row and the actor, when the request may do `action` in the trace's project (404 first for unknown traces). */
export async function authorizeTrace(request: Request, traceId: string, action: Action): Promise<{ row: Awaited<ReturnType<typeof findTraceRow>>; actor: Actor }> {
  const row = await findTraceRow(traceId);
  const actor = await authorize(request, action, row.project.name);
  return { row, actor };
}
