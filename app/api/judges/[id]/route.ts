import { deleteJudge as deleteContract, getJudge, updateJudge as updateContract } from "@/lib/api/contracts/judges";
import { endpoint } from "@/lib/server/endpoint";
import { authorizeJudge } from "@/lib/server/judges/access";
import { deleteJudge, findJudge, toApiJudge, updateJudge } from "@/lib/server/judges/store";

export const dynamic = "force-dynamic";
/** GET /api/judges/{id} (project admin). */
export const GET = endpoint(getJudge, {
  access: (request, { id }) => authorizeJudge(request, id),
  handle: async ({ access: { judgeId } }) => ({ judge: toApiJudge(await findJudge(judgeId)) }),
});

/** PATCH /api/judges/{id}: any field; `api_key: null` removes the key, absent keeps it. */
export const PATCH = endpoint(updateContract, {
  access: (request, { id }) => authorizeJudge(request, id),
  handle: async ({ body: patch, access: { judgeId } }) => ({ judge: await updateJudge(judgeId, patch) }),
});

/** DELETE /api/judges/{id}: the judge, its runs and its values. */
export const DELETE = endpoint(deleteContract, {
  access: (request, { id }) => authorizeJudge(request, id),
  handle: async ({ access: { judgeId } }) => {
    await deleteJudge(judgeId);
    return new Response(null, { status: 204 });
  },
});
