import { updateUserInput } from "@/lib/api/auth";
import { authorizeSiteAdmin } from "@/lib/server/auth/access";
import { clearedSessionCookies, isHttps, jsonWithCookies } from "@/lib/server/auth/cookies";
import { numericId } from "@/lib/server/auth/routes";
import { deleteUser, updateUser } from "@/lib/server/auth/users";
import { parseJsonRequest, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** PATCH /api/admin/users/{id} `{name?, password?, is_admin?, memberships?}` (memberships replace the old set). */
export const PATCH = route(async (request: Request, { params }: Context) => {
  await authorizeSiteAdmin(request);
  const id = numericId((await params).id, "user");
  const input = await parseJsonRequest(request, updateUserInput);
  return Response.json({ user: await updateUser(id, input) });
});

/** DELETE /api/admin/users/{id}: deleting the last site admin puts Baton back in open local mode. */
export const DELETE = route(async (request: Request, { params }: Context) => {
  const { actor } = await authorizeSiteAdmin(request);
  const id = numericId((await params).id, "user");
  const { open_mode } = await deleteUser(id);
  const body = { deleted: id, open_mode };
  return actor.userId === id ? jsonWithCookies(body, clearedSessionCookies(isHttps(request))) : Response.json(body);
});
