import { authorizeSiteAdmin } from "@/lib/server/auth/access";
import { revokeApiKey } from "@/lib/server/auth/api-keys";
import { numericId } from "@/lib/server/auth/routes";
import { route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/** DELETE /api/admin/keys/{id}: revokes the key at once (kept in the list, with revoked_at). */
export const DELETE = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  await authorizeSiteAdmin(request);
  return Response.json({ api_key: await revokeApiKey(numericId((await params).id, "API key")) });
});
