import "server-only";
import { SCOPES, type ApiKeyInfo, type CreateKeyInput, type Scope } from "@/lib/api/auth";
import type { ApiKey } from "@/lib/generated/prisma/client";
import { pool, prisma } from "../db/client";
import { ApiError, notFound } from "../errors";
import { newApiKey, sha256 } from "./tokens";
import { USER_COLUMNS_SQL, userRowOf, type UserColumns, type UserRow } from "./users";

/**
 * API keys for scripts and ingestion (`Authorization: Bearer baton_…`):
 * created by site admins, shown once, stored as SHA-256 plus a short prefix
 * to recognise them, with scopes; revoked keys are kept (revoked_at) so the
 * list still says what existed.
 */
const knownScopes = (scopes: string[]): Scope[] => scopes.filter((s): s is Scope => (SCOPES as readonly string[]).includes(s));

function toInfo(row: ApiKey, email: string | null): ApiKeyInfo {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: knownScopes(row.scopes),
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
  // every keyed request asks: one named statement for the key and its user (as `userInclude` reads it), not two Prisma calls
  const { rows } = await pool().query<KeyRow>({ name: "auth.api_key", text: KEY_SQL, values: [sha256(key)] });
  const row = rows[0];
  if (!row || row.revoked_at || row.local) return null;
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() > TOUCH_EVERY_MS) {
    await prisma().apiKey.update({ where: { id: row.key_id }, data: { lastUsedAt: now } });
  }
  return { id: row.key_id, scopes: knownScopes(row.scopes), user: userRowOf(row) };
}

interface KeyRow extends UserColumns {
  key_id: number;
  scopes: string[];
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** A key and the user it acts as, by key hash (no row when that user is gone: api_keys.user_id is no foreign key). */
const KEY_SQL = `SELECT k.id AS key_id, k.scopes, k.last_used_at, k.revoked_at, ${USER_COLUMNS_SQL}
FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_hash = $1`;
