import { route } from "@/lib/server/http";
import { getTrace } from "@/lib/server/queries/traces";

export const dynamic = "force-dynamic";

/** GET /api/traces/{id}: the trace in extended form; event content with ?content=1. */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const content = new URL(request.url).searchParams.get("content") === "1";
  return Response.json(await getTrace(id, { content }));
});
