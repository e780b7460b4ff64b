import "server-only";
import { pool } from "../db/client";
import { sha256 } from "./tokens";

/**
 * Failed sign-ins, counted in the database (table `sign_in_failures`), so
 * that several Baton processes behind one load balancer share one count: a
 * sliding window per bucket. Two buckets: per email + client address (5 per
 * 15 minutes), and per email alone with a higher cap, because the client
 * address comes from X-Forwarded-For, which a client can forge when no
 * proxy sets it. Buckets are stored as SHA-256 hashes (fixed size whatever
 * the header holds, and no addresses kept in clear).
 */
export interface LimitRule {
  max: number;
  windowMs: number;
}

export const SIGN_IN_RULES = {
  perEmailAndAddress: { max: 5, windowMs: 15 * 60_000 },
  perEmail: { max: 30, windowMs: 15 * 60_000 },
} as const;

const buckets = (email: string, address: string) => [
  { key: sha256(`addr|${email}|${address}`), rule: SIGN_IN_RULES.perEmailAndAddress },
  { key: sha256(`email|${email}`), rule: SIGN_IN_RULES.perEmail },
];

/** The client's address as the request reports it (first X-Forwarded-For entry), else "unknown". */
export function clientAddress(request: Request): string {
  return (request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || request.headers.get("x-real-ip")?.trim() || "unknown").slice(0, 100);
}

/** Milliseconds until the bucket may try again: the max-th most recent failure in the window, plus the window, minus now. */
async function retryAfter(key: string, rule: LimitRule): Promise<number> {
  const { rows } = await pool().query<{ wait_ms: number }>(
    `SELECT (extract(epoch FROM failed_at + make_interval(secs => $2::float8 / 1000) - clock_timestamp()) * 1000)::float8 AS wait_ms
     FROM sign_in_failures WHERE key = $1 AND failed_at > clock_timestamp() - make_interval(secs => $2::float8 / 1000)
     ORDER BY failed_at DESC OFFSET $3 LIMIT 1`,
    [key, rule.windowMs, rule.max - 1],
  );
  return Math.max(0, Math.ceil(rows[0]?.wait_ms ?? 0));
}

export const signInLimiter = {
  async retryAfterMs(email: string, address: string): Promise<number> {
    const waits = await Promise.all(buckets(email, address).map((b) => retryAfter(b.key, b.rule)));
    return Math.max(...waits);
  },
  async fail(email: string, address: string): Promise<void> {
    const all = buckets(email, address);
    await pool().query("INSERT INTO sign_in_failures (key, failed_at) SELECT unnest($1::text[]), clock_timestamp()", [all.map((b) => b.key)]);
    // failures older than the window count for nothing: drop this bucket's (cheap: the index on key, failed_at)
    await pool().query("DELETE FROM sign_in_failures WHERE key = ANY($1::text[]) AND failed_at < clock_timestamp() - make_interval(secs => $2::float8 / 1000)", [all.map((b) => b.key), SIGN_IN_RULES.perEmail.windowMs]);
  },
  async succeed(email: string, address: string): Promise<void> {
    await pool().query("DELETE FROM sign_in_failures WHERE key = $1", [buckets(email, address)[0]!.key]);
  },
};
