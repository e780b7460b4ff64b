import { revokeKey } from "@/lib/api/contracts/admin";
import { authorizeSiteAdmin } from "@/lib/server/auth/access";
import { revokeApiKey } from "@/lib/server/auth/api-keys";
import { numericId } from "@/lib/server/auth/routes";
import { endpoint } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";

/** DELETE /api/admin/keys/{id}: revokes the key at once (kept in the list, with revoked_at). */
export const DELETE = endpoint(revokeKey, {
  access: (request) => authorizeSiteAdmin(request),
  handle: async ({ params }) => ({ api_key: await revokeApiKey(numericId(params.id, "API key")) }),
});
