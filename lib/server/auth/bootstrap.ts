import "server-only";
import { readConfig, type Config } from "../config";
import { prisma } from "../db/client";
import { ApiError } from "../errors";
import { hashPassword, verifyPassword } from "./password";
import { isOpenMode } from "./access";
import { randomToken, sha256 } from "./tokens";
import { userInclude, type UserRow } from "./users";

/**
 * The first site admin: from BATON_ADMIN_EMAIL / BATON_ADMIN_PASSWORD at
 * start, or through the one-time setup link printed at start while there is
 * no admin. Until then Baton stays in open local mode.
 */
export const SETUP_TOKEN_TTL_MS = 24 * 3600_000;

export type EnvAdminOutcome = "not_configured" | "created" | "updated" | "unchanged";

/**
 * Makes sure the account of BATON_ADMIN_EMAIL exists, is a site admin and
 * has BATON_ADMIN_PASSWORD (a changed password replaces the old one and ends
 * that account's sessions: the environment is the way to reset it).
 */
export async function ensureAdminFromEnv(config: Config = readConfig()): Promise<EnvAdminOutcome> {
  const email = config.BATON_ADMIN_EMAIL;
  const password = config.BATON_ADMIN_PASSWORD;
  if (!email || !password) return "not_configured";
  const existing = await prisma().user.findUnique({ where: { email } });
  if (!existing) {
    await prisma().user.create({ data: { email, name: email.split("@")[0]!, passwordHash: await hashPassword(password), isAdmin: true } });
    return "created";
  }
  if (existing.local) throw new Error(`BATON_ADMIN_EMAIL ${email} is the reserved local user`);
  const samePassword = existing.passwordHash !== null && (await verifyPassword(password, existing.passwordHash));
  if (samePassword && existing.isAdmin) return "unchanged";
  await prisma().$transaction([
    prisma().user.update({ where: { id: existing.id }, data: { isAdmin: true, ...(!samePassword && { passwordHash: await hashPassword(password) }) } }),
    ...(samePassword ? [] : [prisma().session.deleteMany({ where: { userId: existing.id } })]),
  ]);
  return "updated";
}

/**
 * While no admin exists: a new one-time setup token (older unused ones stop
 * working) and the URL to print; null once an admin exists.
 */
export async function setupLinkIfNeeded(baseUrl: string): Promise<string | null> {
  if (!(await isOpenMode())) return null;
  const token = randomToken();
  await prisma().$transaction([prisma().setupToken.deleteMany({ where: { usedAt: null } }), prisma().setupToken.create({ data: { tokenHash: sha256(token) } })]);
  return `${baseUrl.replace(/\/+$/, "")}/setup?token=${token}`;
}

function usableWhere(token: string, now: Date) {
  return { tokenHash: sha256(token), usedAt: null, createdAt: { gt: new Date(now.getTime() - SETUP_TOKEN_TTL_MS) } };
}

/** True when `token` is an unused, unexpired setup token and no admin exists yet (for the setup page). */
export async function setupTokenUsable(token: string, now = new Date()): Promise<boolean> {
  if (!(await isOpenMode())) return false;
  return (await prisma().setupToken.count({ where: usableWhere(token, now) })) === 1;
}

/** Consumes the setup token and creates the first site admin, all or nothing. */
export async function completeSetup(input: { token: string; email: string; name: string; password: string }, now = new Date()): Promise<UserRow> {
  const passwordHash = await hashPassword(input.password);
  return prisma().$transaction(async (tx) => {
    // the conditional update is the lock: of two requests with one token, one updates a row
    const consumed = await tx.setupToken.updateMany({ where: usableWhere(input.token, now), data: { usedAt: now } });
    if (consumed.count !== 1) throw new ApiError(403, "forbidden", "this setup link is invalid, expired or already used (a new one is printed at each start)");
    // one setup at a time, so that two links (say, printed by two starts) cannot make two first admins
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('baton:setup'))`;
    if ((await tx.user.count({ where: { isAdmin: true } })) > 0) throw new ApiError(409, "conflict", "an admin exists already: sign in instead");
    const taken = await tx.user.findUnique({ where: { email: input.email } });
    if (taken) throw new ApiError(409, "conflict", `an account with email "${input.email}" exists`, [{ path: "$.email", message: "taken" }]);
    const user = await tx.user.create({ data: { email: input.email, name: input.name, passwordHash, isAdmin: true }, include: userInclude });
    await tx.setupToken.deleteMany({ where: { usedAt: null } });
    return user;
  });
}
