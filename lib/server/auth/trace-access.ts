import "server-only";
import { isStorableId } from "@/lib/api/text";
import { findTraceRowOrNull, traceNotFound, type findTraceRow, type TraceRef } from "../queries/traces";
import { authorizeInProject, identifyAlong, type Action, type Actor } from "./access";

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

/**
 * authorizeTrace for the label write and read paths: the same policy and
 * answers, with only the trace's key, row id and project read, in the same
 * round trip as the request's mode (identifyAlong).
 */
export async function authorizeTraceRef(request: Request, traceId: string, action: Action): Promise<{ row: TraceRef; actor: Actor }> {
  const found = await identifyAlong<{ trace_db_id: number | null; trace_id: string | null; project: string | null }>(
    request,
    "auth.mode+traces.ref",
    (mode) => `SELECT mode.*, t.id AS trace_db_id, t.trace_id, p.name AS project FROM ${mode} LEFT JOIN (traces t JOIN projects p ON p.id = t.project_id) ON t.trace_id = $2`,
    // an id no trace can have (say, with a NUL) is looked up as none rather than sent to PostgreSQL
    [isStorableId(traceId) ? traceId : null],
  );
  const row: TraceRef | null = found.trace_db_id === null ? null : { id: found.trace_db_id, traceId: found.trace_id!, project: { name: found.project! } };
  const actor = await authorizeInProject(request, row?.project.name ?? null, action, () => traceNotFound(traceId));
  return { row: row!, actor };
}

/** Read access to the trace and ingest rights in its project: a replay serves the trace's recorded replies back, and its forks are stored and spend the project's upstream (docs/replay.md). */
export async function authorizeReplay(request: Request, traceId: string): Promise<{ row: TraceRow; actor: Actor }> {
  const { row, actor } = await authorizeTrace(request, traceId, "read");
  await authorizeTrace(request, traceId, "ingest");
  return { row, actor };
}
