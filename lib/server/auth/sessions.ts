import "server-only";
import { prisma } from "../db/client";
import { randomToken, sha256 } from "./tokens";
import { userInclude, type UserRow } from "./users";

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
  const row = await prisma().session.findUnique({ where: { tokenHash }, include: { user: { include: userInclude } } });
  if (!row) return null;
  if (row.expiresAt <= now) {
    await prisma().session.deleteMany({ where: { tokenHash } });
    return null;
  }
  return { csrfToken: row.csrfToken, expiresAt: row.expiresAt, user: row.user };
}

export async function deleteSession(token: string): Promise<void> {
  await prisma().session.deleteMany({ where: { tokenHash: sha256(token) } });
}
