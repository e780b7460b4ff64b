import { NextResponse, type NextRequest } from "next/server";
import { parseAllowedHosts, refusal } from "@/lib/api/request-origin";

/**
 * Runs before every page and API route (Next's proxy, formerly middleware):
 * requests under a host name Baton is not served as (DNS rebinding), writes
 * from other sites, and API writes with a body type that skips CORS's
 * preflight are refused here, once for all routes (lib/api/request-origin.ts).
 */
export function proxy(request: NextRequest): NextResponse {
  const h = request.headers;
  // a path whose %-escapes do not decode names nothing; Next's own decoding would answer a bare text/plain 500
  if (!decodes(request.nextUrl.pathname)) {
    return refuse(400, "invalid_path", "the path has malformed %-escapes");
  }
  const refused = refusal(
    {
      method: request.method,
      path: request.nextUrl.pathname,
      host: h.get("host"),
      forwardedHost: h.get("x-forwarded-host"),
      origin: h.get("origin"),
      secFetchSite: h.get("sec-fetch-site"),
      contentType: h.get("content-type"),
      hasBody: Number(h.get("content-length") ?? "0") > 0 || h.has("transfer-encoding"),
    },
    parseAllowedHosts(process.env.BATON_ALLOWED_HOSTS),
  );
  if (refused === null) return NextResponse.next();
  return refuse(refused.status, refused.code, refused.message);
}

function refuse(status: number, code: string, message: string): NextResponse {
  return NextResponse.json(
    { error: { code, message, details: [{ path: "$", message }] } },
    { status, headers: { "x-content-type-options": "nosniff", "content-security-policy": "default-src 'none'; frame-ancestors 'none'", "x-frame-options": "DENY" } },
  );
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
  // static assets carry no data and no writes
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
