import { createKey, listKeys } from "@/lib/api/contracts/admin";
import { authorizeSiteAdmin } from "@/lib/server/auth/access";
import { createApiKey, listApiKeys } from "@/lib/server/auth/api-keys";
import { endpoint, reply } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";

/** GET /api/admin/keys: every API key (prefix, scopes, user, last use, revocation), never the key itself. */
export const GET = endpoint(listKeys, {
  access: (request) => authorizeSiteAdmin(request),
  handle: async () => ({ keys: await listApiKeys() }),
});

/** POST /api/admin/keys `{name, scopes, user_id?}`: the key is in this answer and nowhere else, ever. */
export const POST = endpoint(createKey, {
  access: (request) => authorizeSiteAdmin(request),
  handle: async ({ body, access: { actor } }) => reply(await createApiKey(body, actor.userId), { status: 201, headers: { "cache-control": "no-store" } }),
});
