import { judgePatch } from "@/lib/judges/config";
import { parseJsonRequest, route } from "@/lib/server/http";
import { authorizeJudge } from "@/lib/server/judges/access";
import { deleteJudge, findJudge, toApiJudge, updateJudge } from "@/lib/server/judges/store";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string }> };

/** GET /api/judges/{id} (project admin). */
export const GET = route(async (request: Request, { params }: Ctx) => {
  const { judgeId } = await authorizeJudge(request, (await params).id);
  return Response.json({ judge: toApiJudge(await findJudge(judgeId)) });
});

/** PATCH /api/judges/{id}: any field; `api_key: null` removes the key, absent keeps it. */
export const PATCH = route(async (request: Request, { params }: Ctx) => {
  const { judgeId } = await authorizeJudge(request, (await params).id);
  const patch = await parseJsonRequest(request, judgePatch);
  return Response.json({ judge: await updateJudge(judgeId, patch) });
});

/** DELETE /api/judges/{id}: the judge, its runs and its values. */
export const DELETE = route(async (request: Request, { params }: Ctx) => {
  const { judgeId } = await authorizeJudge(request, (await params).id);
  await deleteJudge(judgeId);
  return new Response(null, { status: 204 });
});
