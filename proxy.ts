import { NextResponse, type NextRequest } from "next/server";
import { bodyLimitFor, declaredLength, MIB, tooLargeMessage } from "@/lib/api/body-limits";
import { parseAllowedHosts, refusal, requestFacts } from "@/lib/api/request-origin";
import { setting } from "@/lib/server/config";

/**
 * Runs before every page and API route (Next's proxy, formerly middleware):
 * requests under a host name Baton is not served as (DNS rebinding), writes
 * from other sites, and API writes with a body type that skips CORS's
 * preflight are refused here, once for all routes (lib/api/request-origin.ts).
 * So is a body whose Content-Length announces more than its route reads
 * (lib/api/body-limits.ts): answered at once, before the upload, where the
 * route would only see it after Next has read it all.
 */
export function proxy(request: NextRequest): NextResponse {
  const h = request.headers;
  // a path whose %-escapes do not decode names nothing; Next's own decoding would answer a bare text/plain 500
  if (!decodes(request.nextUrl.pathname)) {
    return refuse(400, "invalid_path", "the path has malformed %-escapes");
  }
  // U+0000 names nothing Baton stores (PostgreSQL cannot hold it): a 400 here, never a database error in a page or route
  if (holdsNul(request.nextUrl)) {
    return refuse(400, "invalid_parameter", "the URL holds U+0000 (%00), which no stored name or value contains");
  }
  const refused = refusal(requestFacts(request.method, request.nextUrl.pathname, h), parseAllowedHosts(setting("BATON_ALLOWED_HOSTS")));
  if (refused !== null) return refuse(refused.status, refused.code, refused.message);
  const declared = declaredLength(h.get("content-length"));
  if (declared !== null && declared > 0) {
    const max = setting("BATON_MAX_BODY_MB") * MIB;
    const limit = bodyLimitFor(request.nextUrl.pathname, max);
    if (declared > limit) return refuse(413, "payload_too_large", tooLargeMessage(limit, max), { connection: "close" });
  }
  return NextResponse.next();
}

function refuse(status: number, code: string, message: string, extra: Record<string, string> = {}): NextResponse {
  return NextResponse.json(
    { error: { code, message, details: [{ path: "$", message }] } },
    { status, headers: { "x-content-type-options": "nosniff", "content-security-policy": "default-src 'none'; frame-ancestors 'none'", "x-frame-options": "DENY", ...extra } },
  );
}

function holdsNul(url: URL): boolean {
  if (decodeURIComponent(url.pathname).includes("\u0000")) return true;
  for (const [key, value] of url.searchParams) if (key.includes("\u0000") || value.includes("\u0000")) return true;
  return false;
}

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

export const config = {
  // static assets carry no data and no writes. The routes that take files and batches (lib/api/body-limits.ts,
  // LARGE_BODY_ROUTES) are left out too: Next copies the body of every request its proxy sees and answers only once
  // the whole upload is in, so there their own handler applies the same rules (lib/server/http.ts, requestRefusal),
  // reads the body as it streams, and refuses one announced over the limit before it is sent.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|api/traces/?$|api/import/?$|api/otel/v1/traces/?$|api/llm/v1/).*)"],
};
