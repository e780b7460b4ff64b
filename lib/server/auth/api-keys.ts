import "server-only";
import { SCOPES, type ApiKeyInfo, type CreateKeyInput, type Scope } from "@/lib/api/auth";
import type { ApiKey } from "@/lib/generated/prisma/client";
import { prisma } from "../db/client";
import { ApiError, notFound } from "../errors";
import { newApiKey, sha256 } from "./tokens";
import { userInclude, type UserRow } from "./users";

/**
 * API keys for scripts and ingestion (`Authorization: Bearer baton_…`):
 * created by site admins, shown once, stored as SHA-256 plus a short prefix
 * to recognise them, with scopes; revoked keys are kept (revoked_at) so the
 * list still says what existed.
 */
function toInfo(row: ApiKey, email: string | null): ApiKeyInfo {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes.filter((s): s is Scope => (SCOPES as readonly string[]).includes(s)),
    user_id: row.userId,
    user_email: email,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}

export async function listApiKeys(): Promise<ApiKeyInfo[]> {
  const rows = await prisma().apiKey.findMany({ orderBy: { id: "desc" } });
  const users = await prisma().user.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.userId))] } }, select: { id: true, email: true } });
  const emailOf = new Map(users.map((u) => [u.id, u.email]));
  return rows.map((r) => toInfo(r, emailOf.get(r.userId) ?? null));
}

/** Creates a key acting as `input.user_id` (default `creatorId`); the key itself is in the answer only. */
export async function createApiKey(input: CreateKeyInput, creatorId: number): Promise<{ key: string; api_key: ApiKeyInfo }> {
  const userId = input.user_id ?? creatorId;
  const user = await prisma().user.findUnique({ where: { id: userId } });
  if (!user || user.local) throw new ApiError(400, "invalid_input", "no such user", [{ path: "$.user_id", message: `no user ${userId}` }]);
  const { key, prefix, hash } = newApiKey();
  const row = await prisma().apiKey.create({ data: { name: input.name, prefix, keyHash: hash, scopes: [...input.scopes], userId } });
  return { key, api_key: toInfo(row, user.email) };
}

export async function revokeApiKey(id: number): Promise<ApiKeyInfo> {
  const row = await prisma().apiKey.findUnique({ where: { id } });
  if (!row) throw notFound(`API key ${id}`);
  const revoked = row.revokedAt ? row : await prisma().apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
  const user = await prisma().user.findUnique({ where: { id: row.userId }, select: { email: true } });
  return toInfo(revoked, user?.email ?? null);
}

export interface LiveKey {
  id: number;
  scopes: Scope[];
  user: UserRow;
}

const TOUCH_EVERY_MS = 60_000;

/** The unrevoked key whose user still exists, else null. Notes its last use (at most once a minute). */
export async function findApiKey(key: string, now = new Date()): Promise<LiveKey | null> {
  const row = await prisma().apiKey.findUnique({ where: { keyHash: sha256(key) } });
  if (!row || row.revokedAt) return null;
  const user = await prisma().user.findUnique({ where: { id: row.userId }, include: userInclude });
  if (!user || user.local) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    await prisma().apiKey.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  return { id: row.id, scopes: toInfo(row, null).scopes, user };
}
