import { CSRF_COOKIE, CSRF_HEADER } from "./auth";

/**
 * Headers for a write from the browser: once accounts exist, every
 * cookie-authenticated POST/PUT/PATCH/DELETE needs the session's CSRF token
 * (docs/api.md "Accounts and access"). Sign-in puts it in the readable
 * `baton_csrf` cookie; in open local mode there is none and none is needed.
 */
export function csrfHeaders(cookie: string = typeof document === "undefined" ? "" : document.cookie): Record<string, string> {
  const token = readCookie(cookie, CSRF_COOKIE);
  return token ? { [CSRF_HEADER]: token } : {};
}

/** One cookie's value from a `Cookie` header (or `document.cookie`), else null. */
export function readCookie(header: string | null | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}
