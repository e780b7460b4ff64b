import "server-only";
import { cookies } from "next/headers";
import type { ApiSession } from "@/lib/api/auth";
import { SESSION_COOKIE } from "./cookies";
import { describeSession } from "./session-view";

/**
 * The signed-in user as server components see it (the layout's header, the
 * sign-in and admin pages): the same answer as `GET /api/auth/session`.
 */
export async function currentSession(): Promise<ApiSession> {
  return describeSession((await cookies()).get(SESSION_COOKIE)?.value);
}
