import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import type { HeadSample } from "./staleness";
import { setting } from "../config";

/**
 * One pg pool per process, shared by Prisma (through @prisma/adapter-pg) and
 * the raw-SQL bulk paths (COPY), cached on globalThis so that Next's dev
 * reloads do not open a new pool each time.
 *
 * The per-request hot path (the mode and trace lookup, label writes and
 * reads, loading a trace for a recompute) uses raw named statements
 * (`pool().query({ name, text, values })`): each pooled connection parses
 * and plans them once (bench:annotate measures the label path). A name
 * always stands for one text.
 * Behind a transaction-pooling PgBouncer this needs its prepared-statement
 * support (max_prepared_statements, PgBouncer 1.21+).
 */
interface Db {
  pool: pg.Pool;
  prisma: PrismaClient;
  /** read-only standbys from DATABASE_READ_URL (lib/server/db/read.ts decides when a read may use one) */
  replicas: Replica[];
}

/** A streaming standby: its own pool, and what this process last learnt of it. */
export interface Replica {
  name: string;
  pool: pg.Pool;
  prisma: PrismaClient;
  /** a query on the standby itself, never falling back (probes) */
  direct: (text: string) => Promise<pg.QueryResult>;
  /** marks it down for REPLICA_RETRY_MS */
  failed: () => void;
  /** not asked again before this time (ms) after it failed */
  downUntil: number;
  /** its last probe: replay position (null: not in recovery) and when */
  probed: { replayed: bigint | null; lagBytes: bigint; at: number } | null;
  /** the primary's WAL head at each probe, oldest first (lib/server/db/staleness.ts) */
  heads: HeadSample[];
  probing: Promise<unknown> | null;
}

/** Failures that say nothing of the query (refused, reset, the server shutting down or not accepting yet, a read cancelled by a conflict with recovery): on a standby, the read is answered by the primary instead. */
export function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return error instanceof Error && /Connection terminated|connection timeout|timeout exceeded when trying to connect/i.test(error.message);
  return ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE", "57P01", "57P02", "57P03", "40001"].includes(code) || code.startsWith("08");
}

/**
 * A standby's pool: a query that fails because the standby went away is
 * marked down and answered by the primary instead (a read that was allowed on
 * a standby is always allowed on the primary), so a stopped replica costs a
 * retry, never a 5xx. Prisma's adapter runs its queries through `query`.
 */
function replicaPool(config: pg.PoolConfig, primary: pg.Pool, onFailure: () => void): { pool: pg.Pool; direct: (text: string) => Promise<pg.QueryResult> } {
  const replica = new pg.Pool(config);
  // an idle client whose server went away errors on the pool: without a listener that would end the process
  replica.on("error", () => {});
  const query = replica.query.bind(replica) as (...args: unknown[]) => unknown;
  replica.query = ((...args: unknown[]) => {
    const first = args[0] as { submit?: unknown } | undefined;
    // callback calls and streams (Submittables) pass through as they are
    if (typeof args[args.length - 1] === "function" || typeof first?.submit === "function") return query(...args);
    return (query(...args) as Promise<pg.QueryResult>).catch((error: unknown) => {
      if (!isConnectionFailure(error)) throw error;
      onFailure();
      return (primary.query as (...a: unknown[]) => Promise<pg.QueryResult>)(...args);
    });
  }) as pg.Pool["query"];
  return { pool: replica, direct: (text) => query({ text, query_timeout: 2000 }) as Promise<pg.QueryResult> };
}

const cache = globalThis as unknown as { batonDb?: Db };

export function database(): Db {
  if (cache.batonDb) return cache.batonDb;
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set (npm start sets it for the embedded database)");
  const max = setting("BATON_DB_POOL");
  const pool = new pg.Pool({ connectionString: url, max });
  // an idle connection the server closed (a restart, a failover, an administrator) leaves the pool by itself; unheard, it would end the process
  pool.on("error", (error) => console.error("[baton] an idle database connection was closed:", error.message));
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const replicas = readUrls(process.env.DATABASE_READ_URL).map((connectionString, i): Replica => {
    const failed = () => {
      replica.downUntil = Date.now() + REPLICA_RETRY_MS;
      replica.probed = null;
    };
    const { pool: standby, direct } = replicaPool({ connectionString, max, connectionTimeoutMillis: 2000 }, pool, failed);
    const replica: Replica = { name: `replica-${i + 1}`, pool: standby, prisma: new PrismaClient({ adapter: new PrismaPg(standby) }), direct, failed, downUntil: 0, probed: null, probing: null, heads: [] };
    return replica;
  });
  cache.batonDb = { pool, prisma, replicas };
  return cache.batonDb;
}

/** A replica that failed is not asked again for this long. */
export const REPLICA_RETRY_MS = 5000;

/** DATABASE_READ_URL: one or more connection strings, comma-separated. */
export function readUrls(value: string | undefined): string[] {
  return (value ?? "").split(",").map((u) => u.trim()).filter((u) => u.length > 0);
}

export const prisma = (): PrismaClient => database().prisma;
export const pool = (): pg.Pool => database().pool;

/** On globalThis like the pool: a bundle or loader may hold two copies of this module, and the one that closes must see every registration. */
const stopping = globalThis as unknown as { batonBeforeClose?: Set<() => Promise<void>> };
const beforeClose = (stopping.batonBeforeClose ??= new Set());

/** Runs `stop` when the pool is closed, before it is (a user of the pool that keeps timers, e.g. the job queue): `closeDatabase` then ends the process's work on the database. */
export function stopBeforeClose(stop: () => Promise<void>): void {
  beforeClose.add(stop);
}

/** Closes the pool (scripts and tests), after stopping what registered with `stopBeforeClose`. */
export async function closeDatabase(): Promise<void> {
  const stops = [...beforeClose];
  beforeClose.clear();
  for (const stop of stops) await stop().catch((error: unknown) => console.error("[baton] stopping before the pool closes:", error instanceof Error ? error.message : error));
  const db = cache.batonDb;
  cache.batonDb = undefined;
  if (db) {
    await db.prisma.$disconnect();
    await db.pool.end().catch(() => {});
    for (const replica of db.replicas) {
      await replica.prisma.$disconnect();
      await replica.pool.end().catch(() => {});
    }
  }
}

/** Runs `work` in one transaction on a pooled client: COMMIT when it returns, ROLLBACK when it throws (the error is rethrown as it is). */
export async function transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool().connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
