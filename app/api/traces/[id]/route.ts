import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { route } from "@/lib/server/http";
import { deleteTrace } from "@/lib/server/queries/delete-trace";
import { getTrace } from "@/lib/server/queries/traces";

export const dynamic = "force-dynamic";

/** GET /api/traces/{id}: the trace in extended form; event content with ?content=1. */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  await authorizeTrace(request, id, "read");
  const content = new URL(request.url).searchParams.get("content") === "1";
  return Response.json(await getTrace(id, { content }));
});

/**
 * DELETE /api/traces/{id}: the trace, its annotations and adjudications
 * (admin of its project). Unknown ids and traces the caller may not read
 * are the same 404, so that the answer does not reveal which ids exist.
 */
export const DELETE = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  await authorizeTrace(request, id, "admin");
  return Response.json({ deleted: await deleteTrace(id) });
});
