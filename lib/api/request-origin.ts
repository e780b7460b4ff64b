/**
 * Which requests come from where Baton serves (proxy.ts applies it to every
 * request, pages and API). Two attacks it closes on an open local Baton,
 * whose API needs no credentials:
 *
 * - DNS rebinding: a page on `evil.example` whose name is made to resolve to
 *   127.0.0.1 reaches Baton same-origin, but its requests carry
 *   `Host: evil.example`. A host is accepted when it is an IP address (an
 *   attacker cannot rebind an address), `localhost` or `*.localhost`, or one
 *   of BATON_ALLOWED_HOSTS (the names Baton is served under; `*` for any).
 * - Cross-site writes: a page elsewhere can post without a preflight as long
 *   as the request is "simple" (text/plain, a form, or no type). A write
 *   (POST, PUT, PATCH, DELETE) whose Origin is another site (or `null`), or
 *   that the browser marks `Sec-Fetch-Site: cross-site`, is refused; and the
 *   API refuses simple-request bodies outright (415), so that no write can
 *   skip CORS's preflight. Scripts and exporters send no Origin and are not
 *   affected. The session's CSRF token rule (lib/server/auth) stays.
 */

export interface RequestFacts {
  method: string;
  /** the URL path */
  path: string;
  host: string | null;
  /** X-Forwarded-Host, set by a reverse proxy that rewrites Host (a browser cannot send it cross-site without a preflight) */
  forwardedHost: string | null;
  origin: string | null;
  secFetchSite: string | null;
  contentType: string | null;
  /** whether the request has a body (Content-Length > 0 or chunked) */
  hasBody: boolean;
}

/** The facts of a request as its method, path and headers give them (proxy.ts and the route handlers outside it). */
export function requestFacts(method: string, path: string, h: Headers): RequestFacts {
  return {
    method,
    path,
    host: h.get("host"),
    forwardedHost: h.get("x-forwarded-host"),
    origin: h.get("origin"),
    secFetchSite: h.get("sec-fetch-site"),
    contentType: h.get("content-type"),
    hasBody: Number(h.get("content-length") ?? "0") > 0 || h.has("transfer-encoding"),
  };
}

export interface Refusal {
  status: 403 | 415;
  code: "forbidden_host" | "cross_site" | "unsupported_media_type";
  message: string;
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** Media types a page on another site can send without a CORS preflight (the Fetch standard's CORS-safelisted ones). */
const SIMPLE_TYPES = new Set(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]);

/** The host name of a Host header or an origin's authority, lower-case, without the port and the IPv6 brackets. */
export function hostName(authority: string): string {
  const a = authority.trim().toLowerCase();
  if (a.startsWith("[")) return a.slice(1, a.indexOf("]") === -1 ? undefined : a.indexOf("]"));
  const colon = a.lastIndexOf(":");
  return colon === -1 ? a : a.slice(0, colon);
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const isIpLiteral = (name: string) => IPV4.test(name) || (name.includes(":") && /^[0-9a-f:.]+$/.test(name));

/** Whether a Host header names where Baton serves (see above); `allowed` is BATON_ALLOWED_HOSTS, parsed. */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  if (allowed.includes("*")) return true;
  const name = hostName(host);
  if (name === "") return false;
  return isIpLiteral(name) || name === "localhost" || name.endsWith(".localhost") || allowed.includes(name);
}

export function parseAllowedHosts(setting: string | undefined): string[] {
  return (setting ?? "").split(",").map((h) => h.trim().toLowerCase()).filter((h) => h !== "");
}

/** Whether a Content-Type is one a page on another site may send without a preflight (or none, with a body). */
export function isSimpleBodyType(contentType: string | null, hasBody: boolean): boolean {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  return SIMPLE_TYPES.has(type) || (type === "" && hasBody);
}

/** Null when the request may go on; else the refusal. */
export function refusal(facts: RequestFacts, allowedHosts: readonly string[]): Refusal | null {
  // HTTP/1.1 requires Host; a request without one is not a browser's
  if (facts.host !== null && !hostAllowed(facts.host, allowedHosts)) {
    return { status: 403, code: "forbidden_host", message: `Baton is not served as "${hostName(facts.host)}": add the name to BATON_ALLOWED_HOSTS to serve it there` };
  }
  if (!UNSAFE.has(facts.method.toUpperCase())) return null;
  const crossSite = facts.secFetchSite?.toLowerCase() === "cross-site";
  if (crossSite || (facts.origin !== null && !sameAuthority(facts.origin, [facts.host, facts.forwardedHost]))) {
    return { status: 403, code: "cross_site", message: "a write from another site is refused (its Origin is not where Baton serves)" };
  }
  if (facts.path.startsWith("/api/") && isSimpleBodyType(facts.contentType, facts.hasBody)) {
    const type = (facts.contentType ?? "").split(";")[0]!.trim().toLowerCase();
    return { status: 415, code: "unsupported_media_type", message: `send application/json (or the route's own type), not "${type || "no content type"}"` };
  }
  return null;
}

/** Whether the Origin is one of the hosts the request was sent to (default ports compared as the origin's scheme has them). */
function sameAuthority(origin: string, hosts: readonly (string | null)[]): boolean {
  if (origin === "null") return false;
  try {
    const from = new URL(origin);
    return hosts.some((h) => h !== null && new URL(`${from.protocol}//${h.split(",")[0]!.trim()}`).host === from.host);
  } catch {
    return false;
  }
}
