import { createUserInput } from "@/lib/api/auth";
import { authorizeSiteAdmin } from "@/lib/server/auth/access";
import { createUser, listUsers } from "@/lib/server/auth/users";
import { parseJsonRequest, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/** GET /api/admin/users: every account with its roles (site admins only). */
export const GET = route(async (request: Request) => {
  await authorizeSiteAdmin(request);
  return Response.json({ users: await listUsers() });
});

/** POST /api/admin/users `{email, name, password, is_admin?, memberships?: [{project, role}]}`. */
export const POST = route(async (request: Request) => {
  await authorizeSiteAdmin(request);
  const input = await parseJsonRequest(request, createUserInput);
  return Response.json({ user: await createUser(input) }, { status: 201 });
});
