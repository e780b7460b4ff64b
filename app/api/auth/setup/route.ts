import { completeSetup } from "@/lib/server/auth/bootstrap";
import { isHttps, jsonWithCookies, sessionCookies } from "@/lib/server/auth/cookies";
import { createSession } from "@/lib/server/auth/sessions";
import { toApiUser } from "@/lib/server/auth/users";
import { setup } from "@/lib/api/contracts/auth";
import { endpoint } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";

/**
 * POST /api/auth/setup `{token, email, name, password}`: consumes the
 * one-time setup token printed at start, creates the first site admin (Baton
 * leaves open local mode) and signs them in.
 */
export const POST = endpoint(setup, {
  handle: async ({ request, body: input }) => {
    const user = await completeSetup(input);
    const session = await createSession(user.id);
    return jsonWithCookies({ user: toApiUser(user), csrf_token: session.csrfToken }, sessionCookies(session, isHttps(request)), 201);
  },
});
