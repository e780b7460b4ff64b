import "server-only";
import { pool, prisma } from "../db/client";
import { randomToken, sha256 } from "./tokens";
import { USER_COLUMNS_SQL, userRowOf, type UserColumns, type UserRow } from "./users";

/**
 * Sign-in sessions, kept in the database: the cookie holds a random token,
 * the `sessions` table its SHA-256 (a leaked table opens no session), the
 * session's CSRF token and its expiry. Server-side sessions (rather than a
 * signed cookie) make sign-out, password resets and deleted users take
 * effect at once.
 */
export const SESSION_TTL_MS = 7 * 24 * 3600_000;

export interface NewSession {
  token: string;
  csrfToken: string;
  expiresAt: Date;
}

export async function createSession(userId: number, now = new Date()): Promise<NewSession> {
  const token = randomToken();
  const csrfToken = randomToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await prisma().session.deleteMany({ where: { userId, expiresAt: { lte: now } } });
  await prisma().session.create({ data: { tokenHash: sha256(token), userId, csrfToken, expiresAt } });
  return { token, csrfToken, expiresAt };
}

export interface LiveSession {
  csrfToken: string;
  expiresAt: Date;
  user: UserRow;
}

/** The unexpired session of a cookie token, else null (an expired one is deleted). */
export async function findSession(token: string, now = new Date()): Promise<LiveSession | null> {
  const tokenHash = sha256(token);
  // every signed-in request asks: one named statement, not Prisma's nested include (which halved a
  // signed-in server's throughput: bench:annotate --signed-in). It gives the same UserRow as `userInclude`.
  const { rows } = await pool().query<SessionRow>({ name: "auth.session", text: SESSION_SQL, values: [tokenHash] });
  const row = rows[0];
  if (!row) return null;
  if (row.expires_at <= now) {
    await prisma().session.deleteMany({ where: { tokenHash } });
    return null;
  }
  return { csrfToken: row.csrf_token, expiresAt: row.expires_at, user: userRowOf(row) };
}

interface SessionRow extends UserColumns {
  csrf_token: string;
  expires_at: Date;
}

/** A session and its user (as `userInclude` reads it), by token hash. */
const SESSION_SQL = `SELECT s.csrf_token, s.expires_at, ${USER_COLUMNS_SQL}
FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1`;

export async function deleteSession(token: string): Promise<void> {
  await prisma().session.deleteMany({ where: { tokenHash: sha256(token) } });
}
