import "server-only";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** Random secrets and their stored form. Tokens are stored as SHA-256 only: a leaked table grants nothing. */

/** 256 random bits, base64url (43 characters). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** Hex SHA-256: how sessions, API keys and setup tokens are stored and looked up. */
export function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** Constant-time string equality (both sides hashed first, so lengths leak nothing either). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}

export const API_KEY_PREFIX = "baton_";
const API_KEY_SHOWN = 12;

/** A new API key (`baton_` + 256 random bits) and the prefix kept in clear to recognise it. */
export function newApiKey(): { key: string; prefix: string; hash: string } {
  const key = `${API_KEY_PREFIX}${randomToken()}`;
  return { key, prefix: key.slice(0, API_KEY_SHOWN), hash: sha256(key) };
}

export function looksLikeApiKey(text: string): boolean {
  return /^baton_[A-Za-z0-9_-]{43}$/.test(text);
}
