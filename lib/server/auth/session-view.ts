import "server-only";
import type { ApiSession } from "@/lib/api/auth";
import { isOpenMode } from "./access";
import { findSession } from "./sessions";
import { toApiUser } from "./users";

/** What `GET /api/auth/session` answers for a session cookie token (or none). */
export async function describeSession(token: string | null | undefined): Promise<ApiSession> {
  if (await isOpenMode()) return { user: null, open_mode: true, csrf_token: null };
  const session = token ? await findSession(token) : null;
  return session ? { user: toApiUser(session.user), open_mode: false, csrf_token: session.csrfToken } : { user: null, open_mode: false, csrf_token: null };
}
