import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import type pg from "pg";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { database, pool, type Replica } from "./client";
import { formatLsn, parseLsn } from "./lsn";
import { remember, stalenessMs } from "./staleness";
import { setting } from "../config";

/**
 * Where a read goes: the primary, or a streaming standby from
 * DATABASE_READ_URL (docs/deployment.md "Read replicas").
 *
 * Only the read-only queries ask through `reader()` (lists, search,
 * metrics, dashboard, decisions, heatmaps, graph, exports), and only inside
 * a read scope: a GET or HEAD through `route()` (lib/server/http.ts) or a
 * page's render. Everything else (writes, and the reads a write makes) uses
 * the primary, as does any code outside a scope (scripts, jobs).
 *
 * Read-your-writes: a successful write answers with the primary's WAL
 * position after it committed (`Baton-LSN`, and the `baton_lsn` cookie for
 * the app's own pages). A read that carries it (`Baton-Min-LSN`, or the
 * cookie) goes to a standby only once that standby's
 * `pg_last_wal_replay_lsn()` has passed it; else to the primary. A standby
 * that does not answer, lags the primary by more than
 * BATON_REPLICA_MAX_LAG_MB, or whose data is more than
 * BATON_REPLICA_MAX_LAG_S seconds old (its replay stuck a few bytes behind),
 * is skipped.
 */
export interface Reader {
  name: string;
  pool: pg.Pool;
  prisma: PrismaClient;
}

export const LSN_HEADER = "Baton-LSN";
export const MIN_LSN_HEADER = "Baton-Min-LSN";
export const LSN_COOKIE = "baton_lsn";
export const DATABASE_HEADER = "Baton-Database";

interface Scope {
  /** may this request's reads use a standby? */
  replicas: boolean;
  /** the position the caller has seen written */
  minLsn: bigint | null;
  chosen?: Promise<Reader>;
  /** the database that served it, once chosen */
  served?: string;
}

const scopes = new AsyncLocalStorage<Scope>();
/** how long a probe of a standby's replay position is trusted */
const PROBE_MS = 200;
// on globalThis: route handlers and server components are separate bundles of a production build
const counters = ((globalThis as unknown as { batonReads?: { served: Map<string, number>; turn: number } }).batonReads ??= { served: new Map<string, number>(), turn: 0 });
const served = counters.served;

/** Runs `work` with the request's reads routed as above. */
export function inReadScope<T>(request: Request, work: () => Promise<T>): { scope: Scope; result: Promise<T> } {
  const reading = request.method === "GET" || request.method === "HEAD";
  const scope: Scope = { replicas: reading && database().replicas.length > 0, minLsn: reading ? minLsnOf(request.headers.get(MIN_LSN_HEADER), cookieValue(request.headers.get("cookie"), LSN_COOKIE)) : null };
  return { scope, result: scopes.run(scope, work) };
}

/**
 * Runs background work (a job, a sweep) on the primary: a worker started
 * lazily by a request would otherwise go on in that request's scope.
 */
export function onPrimary<T>(work: () => Promise<T>): Promise<T> {
  return scopes.run({ replicas: false, minLsn: null }, work);
}

/** The database for a read-only query. */
export async function reader(): Promise<Reader> {
  const scope = scopes.getStore() ?? (await pageScope());
  if (!scope?.replicas) return primary();
  scope.chosen ??= choose(scope.minLsn).then((chosen) => {
    scope.served = chosen.name;
    served.set(chosen.name, (served.get(chosen.name) ?? 0) + 1);
    return chosen;
  });
  return scope.chosen;
}

/** The database that served the scope's reads, if any read was made. */
export const servedBy = (scope: Scope): string | undefined => scope.served;

function primary(): Reader {
  const db = database();
  return { name: "primary", pool: db.pool, prisma: db.prisma };
}

/** A page's render has no `route()`: its scope comes from the request's cookie (server components only; elsewhere there is no request and so no scope). */
async function pageScope(): Promise<Scope | null> {
  if (database().replicas.length === 0) return null;
  let lsnCookie: string | undefined;
  try {
    const { cookies } = await import("next/headers");
    lsnCookie = (await cookies()).get(LSN_COOKIE)?.value;
  } catch {
    return null;
  }
  return { replicas: true, minLsn: minLsnOf(null, lsnCookie ?? null) };
}

function minLsnOf(header: string | null, cookie: string | null): bigint | null {
  const a = parseLsn(header);
  const b = parseLsn(cookie);
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}

function cookieValue(header: string | null, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

async function choose(minLsn: bigint | null): Promise<Reader> {
  const replicas = database().replicas;
  const start = counters.turn++ % replicas.length;
  for (let k = 0; k < replicas.length; k++) {
    const replica = replicas[(start + k) % replicas.length]!;
    if (await usable(replica, minLsn)) return replica;
  }
  return primary();
}

async function usable(replica: Replica, minLsn: bigint | null): Promise<boolean> {
  if (Date.now() < replica.downUntil) return false;
  let probed = await probe(replica, false);
  // a probe up to PROBE_MS old may predate the write: ask again before giving up on this standby
  if (probed && minLsn !== null && probed.replayed !== null && probed.replayed < minLsn) probed = await probe(replica, true);
  if (!probed) return false;
  if (probed.lagBytes > maxLagBytes()) return false;
  if (stalenessMs(replica.heads, probed.replayed, Date.now()) > maxLagMs()) return false;
  return minLsn === null || probed.replayed === null || probed.replayed >= minLsn;
}

/** The standby's replay position and its distance behind the primary, asked at most every PROBE_MS (null: it did not answer). */
async function probe(replica: Replica, fresh: boolean): Promise<Replica["probed"]> {
  if (!fresh && replica.probed && Date.now() - replica.probed.at < PROBE_MS) return replica.probed;
  replica.probing ??= (async () => {
    try {
      const [standby, head] = await Promise.all([replica.direct("SELECT pg_last_wal_replay_lsn()::text AS lsn"), pool().query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn")]);
      const replayed = parseLsn((standby.rows[0] as { lsn: string | null }).lsn);
      const current = parseLsn(head.rows[0]?.lsn) ?? 0n;
      const at = Date.now();
      remember(replica.heads, { lsn: current, at });
      replica.probed = { replayed, lagBytes: replayed === null || replayed >= current ? 0n : current - replayed, at };
    } catch {
      replica.failed();
    } finally {
      replica.probing = null;
    }
  })();
  await replica.probing;
  return replica.probed;
}

function maxLagMs(): number {
  return setting("BATON_REPLICA_MAX_LAG_S") * 1000;
}

function maxLagBytes(): bigint {
  return BigInt(Math.round(setting("BATON_REPLICA_MAX_LAG_MB") * 1024 * 1024));
}

/**
 * After a successful write: the primary's WAL position (at or past the
 * write's commit), as `Baton-LSN` and as the `baton_lsn` cookie, so that
 * this caller's next reads wait for a standby to have replayed it. Only
 * when standbys are configured.
 */
export async function stampWrite(request: Request, response: Response): Promise<void> {
  if (database().replicas.length === 0) return;
  const { rows } = await pool().query<{ lsn: string }>({ name: "baton-current-lsn", text: "SELECT pg_current_wal_lsn()::text AS lsn" });
  const written = parseLsn(rows[0]?.lsn);
  if (written === null) return;
  // the head as of this write, with its time: a standby that has not replayed it grows stale from now (lib/server/db/staleness.ts)
  const now = Date.now();
  for (const replica of database().replicas) remember(replica.heads, { lsn: written, at: now });
  const seen = minLsnOf(null, cookieValue(request.headers.get("cookie"), LSN_COOKIE));
  const lsn = formatLsn(seen !== null && seen > written ? seen : written);
  try {
    response.headers.set(LSN_HEADER, lsn);
    const secure = (request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() ?? new URL(request.url).protocol.replace(":", "")) === "https";
    response.headers.append("Set-Cookie", `${LSN_COOKIE}=${encodeURIComponent(lsn)}; Path=/; Max-Age=600; SameSite=Lax; HttpOnly${secure ? "; Secure" : ""}`);
  } catch {
    // a response with immutable headers (a redirect) keeps its own
  }
}

/** What this process's reads were served by, and what it knows of each standby (GET /api/status). */
export function databaseStatus(): { name: string; role: "primary" | "replica"; served: number; state?: "up" | "down" | "unknown"; replayed?: string | null; lag_bytes?: number | null }[] {
  const db = database();
  return [
    { name: "primary", role: "primary", served: served.get("primary") ?? 0 },
    ...db.replicas.map((r) => ({
      name: r.name,
      role: "replica" as const,
      served: served.get(r.name) ?? 0,
      state: Date.now() < r.downUntil ? ("down" as const) : r.probed ? ("up" as const) : ("unknown" as const),
      replayed: r.probed?.replayed != null ? formatLsn(r.probed.replayed) : null,
      lag_bytes: r.probed ? Number(r.probed.lagBytes) : null,
    })),
  ];
}
