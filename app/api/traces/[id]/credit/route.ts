import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { parseCreditQuery, traceCredit } from "@/lib/server/compute/credit";
import { route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/** GET /api/traces/{id}/credit?method=&preset=&normalize=&w.<family>=: credit per event (SPEC.md section 3). */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  await authorizeTrace(request, id, "read");
  return Response.json(await traceCredit(id, parseCreditQuery(new URL(request.url).searchParams)));
});
