import { createKeyInput } from "@/lib/api/auth";
import { authorizeSiteAdmin } from "@/lib/server/auth/access";
import { createApiKey, listApiKeys } from "@/lib/server/auth/api-keys";
import { parseJsonRequest, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/** GET /api/admin/keys: every API key (prefix, scopes, user, last use, revocation), never the key itself. */
export const GET = route(async (request: Request) => {
  await authorizeSiteAdmin(request);
  return Response.json({ keys: await listApiKeys() });
});

/** POST /api/admin/keys `{name, scopes, user_id?}`: the key is in this answer and nowhere else, ever. */
export const POST = route(async (request: Request) => {
  const { actor } = await authorizeSiteAdmin(request);
  const input = await parseJsonRequest(request, createKeyInput);
  const created = await createApiKey(input, actor.userId);
  return Response.json(created, { status: 201, headers: { "cache-control": "no-store" } });
});
