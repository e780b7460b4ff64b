import { readCookie } from "@/lib/api/csrf";
import { SESSION_COOKIE } from "@/lib/server/auth/cookies";
import { describeSession } from "@/lib/server/auth/session-view";
import { route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/** GET /api/auth/session: `{user | null, open_mode, csrf_token}` for the session cookie. */
export const GET = route(async (request: Request) => {
  const session = await describeSession(readCookie(request.headers.get("cookie"), SESSION_COOKIE));
  return Response.json(session, { headers: { "cache-control": "no-store" } });
});
