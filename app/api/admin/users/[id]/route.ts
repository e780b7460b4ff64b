import { deleteUser as deleteContract, updateUser as updateContract } from "@/lib/api/contracts/admin";
import { authorizeSiteAdmin } from "@/lib/server/auth/access";
import { clearedSessionCookies, isHttps, jsonWithCookies } from "@/lib/server/auth/cookies";
import { numericId } from "@/lib/server/auth/routes";
import { deleteUser, updateUser } from "@/lib/server/auth/users";
import { endpoint } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";

/** A site admin, and the user id of the path (404 when it names no user, before any body is read). */
async function adminAndUser(request: Request, raw: string) {
  const { actor } = await authorizeSiteAdmin(request);
  return { actor, id: numericId(raw, "user") };
}

/** PATCH /api/admin/users/{id} `{name?, password?, is_admin?, memberships?}` (memberships replace the old set). */
export const PATCH = endpoint(updateContract, {
  access: (request, { id }) => adminAndUser(request, id),
  handle: async ({ body, access: { id } }) => ({ user: await updateUser(id, body) }),
});

/** DELETE /api/admin/users/{id}: deleting the last site admin puts Baton back in open local mode. */
export const DELETE = endpoint(deleteContract, {
  access: (request, { id }) => adminAndUser(request, id),
  handle: async ({ request, access: { actor, id } }) => {
    const { open_mode } = await deleteUser(id);
    const body = { deleted: id, open_mode };
    // deleting oneself signs out
    return actor.userId === id ? jsonWithCookies(body, clearedSessionCookies(isHttps(request))) : body;
  },
});
