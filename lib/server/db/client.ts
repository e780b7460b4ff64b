import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "@/lib/generated/prisma/client";

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
}

const cache = globalThis as unknown as { batonDb?: Db };

export function database(): Db {
  if (cache.batonDb) return cache.batonDb;
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set (npm start sets it for the embedded database)");
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.BATON_DB_POOL ?? 10) });
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  cache.batonDb = { pool, prisma };
  return cache.batonDb;
}

export const prisma = (): PrismaClient => database().prisma;
export const pool = (): pg.Pool => database().pool;

/** Closes the pool (scripts and tests). */
export async function closeDatabase(): Promise<void> {
  const db = cache.batonDb;
  cache.batonDb = undefined;
  if (db) {
    await db.prisma.$disconnect();
    await db.pool.end().catch(() => {});
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
