import { createUser as createContract, listUsers as listContract } from "@/lib/api/contracts/admin";
import { authorizeSiteAdmin } from "@/lib/server/auth/access";
import { createUser, listUsers } from "@/lib/server/auth/users";
import { endpoint, reply } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";

/** GET /api/admin/users: every account with its roles (site admins only). */
export const GET = endpoint(listContract, {
  access: (request) => authorizeSiteAdmin(request),
  handle: async () => ({ users: await listUsers() }),
});

/** POST /api/admin/users `{email, name, password, is_admin?, memberships?: [{project, role}]}`. */
export const POST = endpoint(createContract, {
  access: (request) => authorizeSiteAdmin(request),
  handle: async ({ body }) => reply({ user: await createUser(body) }, { status: 201 }),
});
