import { setupInput } from "@/lib/api/auth";
import { completeSetup } from "@/lib/server/auth/bootstrap";
import { isHttps, jsonWithCookies, sessionCookies } from "@/lib/server/auth/cookies";
import { createSession } from "@/lib/server/auth/sessions";
import { toApiUser } from "@/lib/server/auth/users";
import { parseJsonRequest, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/**
 * POST /api/auth/setup `{token, email, name, password}`: consumes the
 * one-time setup token printed at start, creates the first site admin (Baton
 * leaves open local mode) and signs them in.
 */
export const POST = route(async (request: Request) => {
  const input = await parseJsonRequest(request, setupInput);
  const user = await completeSetup(input);
  const session = await createSession(user.id);
  return jsonWithCookies({ user: toApiUser(user), csrf_token: session.csrfToken }, sessionCookies(session, isHttps(request)), 201);
});
