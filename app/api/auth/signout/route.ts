import { readCookie } from "@/lib/api/csrf";
import { checkCsrf } from "@/lib/server/auth/access";
import { clearedSessionCookies, isHttps, jsonWithCookies, SESSION_COOKIE } from "@/lib/server/auth/cookies";
import { deleteSession, findSession } from "@/lib/server/auth/sessions";
import { signOut } from "@/lib/api/contracts/auth";
import { endpoint } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";

/** POST /api/auth/signout: ends the session (CSRF token required, as on every cookie-authenticated write). */
export const POST = endpoint(signOut, {
  handle: async ({ request }) => {
    const token = readCookie(request.headers.get("cookie"), SESSION_COOKIE);
    const session = token ? await findSession(token) : null;
    if (token && session) {
      checkCsrf(request, { kind: "session", user: session.user, csrfToken: session.csrfToken });
      await deleteSession(token);
    }
    return jsonWithCookies({ signed_out: true }, clearedSessionCookies(isHttps(request)));
  },
});
