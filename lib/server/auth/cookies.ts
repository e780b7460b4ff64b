import "server-only";
import { CSRF_COOKIE } from "@/lib/api/auth";

/**
 * The session cookies. `baton_session` is the credential: httpOnly (page
 * scripts never see it), SameSite=Lax (not sent on cross-site POSTs or
 * sub-requests), Secure when the request came over https. `baton_csrf`
 * carries the session's CSRF token to the page's scripts, so it is readable;
 * on its own it grants nothing.
 */
export const SESSION_COOKIE = "baton_session";

/** True when the request reached us over https (directly, or as a proxy in front says). */
export function isHttps(request: Request): boolean {
  const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return forwarded ? forwarded === "https" : new URL(request.url).protocol === "https:";
}

function cookie(name: string, value: string, opts: { maxAgeSeconds: number; secure: boolean; httpOnly: boolean }): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, "Path=/", `Max-Age=${Math.max(0, Math.round(opts.maxAgeSeconds))}`, "SameSite=Lax"];
  if (opts.httpOnly) parts.push("HttpOnly");
  if (opts.secure) parts.push("Secure");
  return parts.join("; ");
}

/** Set-Cookie values that start a session. */
export function sessionCookies(session: { token: string; csrfToken: string; expiresAt: Date }, secure: boolean, now = Date.now()): string[] {
  const maxAgeSeconds = (session.expiresAt.getTime() - now) / 1000;
  return [
    cookie(SESSION_COOKIE, session.token, { maxAgeSeconds, secure, httpOnly: true }),
    cookie(CSRF_COOKIE, session.csrfToken, { maxAgeSeconds, secure, httpOnly: false }),
  ];
}

/** Set-Cookie values that end a session in the browser. */
export function clearedSessionCookies(secure: boolean): string[] {
  return [cookie(SESSION_COOKIE, "", { maxAgeSeconds: 0, secure, httpOnly: true }), cookie(CSRF_COOKIE, "", { maxAgeSeconds: 0, secure, httpOnly: false })];
}

/** A JSON response with cookies set. */
export function jsonWithCookies(body: unknown, cookies: string[], status = 200): Response {
  const headers = new Headers({ "cache-control": "no-store" });
  for (const c of cookies) headers.append("set-cookie", c);
  return Response.json(body, { status, headers });
}
