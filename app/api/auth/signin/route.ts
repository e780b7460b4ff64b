import { signIn } from "@/lib/api/contracts/auth";
import { readCookie } from "@/lib/api/csrf";
import { isOpenMode } from "@/lib/server/auth/access";
import { isHttps, jsonWithCookies, SESSION_COOKIE, sessionCookies } from "@/lib/server/auth/cookies";
import { burnVerification, verifyPassword } from "@/lib/server/auth/password";
import { clientAddress, signInLimiter } from "@/lib/server/auth/rate-limit";
import { createSession, deleteSession } from "@/lib/server/auth/sessions";
import { findUserByEmail, toApiUser } from "@/lib/server/auth/users";
import { ApiError } from "@/lib/server/errors";
import { endpoint } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";

/**
 * POST /api/auth/signin `{email, password}`: sets the session cookies and
 * answers `{user, csrf_token}`. One answer for an unknown email and a wrong
 * password; after 5 failures per email and address in 15 minutes, 429.
 */
export const POST = endpoint(signIn, {
  handle: async ({ request, body: { email, password } }) => {
    if (await isOpenMode()) throw new ApiError(409, "open_mode", "Baton is in open local mode: there is no admin yet, and no sign-in is needed");
    const address = clientAddress(request);
    const waitMs = await signInLimiter.retryAfterMs(email, address);
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      const error = new ApiError(429, "rate_limited", `too many failed sign-ins: try again in ${Math.ceil(seconds / 60)} minute(s)`);
      return Response.json(error.toJSON(), { status: 429, headers: { "retry-after": String(seconds) } });
    }
    const user = await findUserByEmail(email);
    const ok = user && !user.local && user.passwordHash ? await verifyPassword(password, user.passwordHash) : await burnVerification(password);
    if (!ok || !user) {
      await signInLimiter.fail(email, address);
      throw new ApiError(401, "invalid_credentials", "wrong email or password");
    }
    await signInLimiter.succeed(email, address);
    // a fresh token at each sign-in (no session fixation); the old session ends
    const previous = readCookie(request.headers.get("cookie"), SESSION_COOKIE);
    if (previous) await deleteSession(previous);
    const session = await createSession(user.id);
    return jsonWithCookies({ user: toApiUser(user), csrf_token: session.csrfToken }, sessionCookies(session, isHttps(request)));
  },
});
