import { readCookie } from "@/lib/api/csrf";
import { SESSION_COOKIE } from "@/lib/server/auth/cookies";
import { describeSession } from "@/lib/server/auth/session-view";
import { getSession } from "@/lib/api/contracts/auth";
import { endpoint, reply } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";

/** GET /api/auth/session: `{user | null, open_mode, csrf_token}` for the session cookie. */
export const GET = endpoint(getSession, {
  handle: async ({ request }) => reply(await describeSession(readCookie(request.headers.get("cookie"), SESSION_COOKIE)), { headers: { "cache-control": "no-store" } }),
});
