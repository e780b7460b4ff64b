import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";

/**
 * Applies the migrations in prisma/migrations (Prisma's standard layout) with
 * plain `pg`, keeping Prisma's `_prisma_migrations` table exactly as
 * `prisma migrate deploy` does, so either tool accepts the other's history.
 * Prisma's own migrate needs a native engine that cannot be downloaded offline.
 */
const PRISMA_ADVISORY_LOCK = 72707369;

export interface MigrationReport {
  applied: string[];
  alreadyApplied: number;
}

export async function applyMigrations(databaseUrl: string, migrationsDir = path.resolve("prisma/migrations")): Promise<MigrationReport> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_ADVISORY_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`);
    const done = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
    );
    const byName = new Map(done.rows.map((r) => [r.migration_name, r]));
    const names = (await readdir(migrationsDir, { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    const applied: string[] = [];
    for (const name of names) {
      const sql = await readFile(path.join(migrationsDir, name, "migration.sql"));
      const checksum = createHash("sha256").update(sql).digest("hex");
      const previous = byName.get(name);
      if (previous) {
        if (!previous.finished_at) throw new Error(`migration ${name} failed earlier; fix the database and mark it rolled back`);
        if (previous.checksum !== checksum) throw new Error(`migration ${name} was changed after it was applied`);
        continue;
      }
      const id = randomUUID();
      await client.query(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name) VALUES ($1, $2, $3)`, [id, checksum, name]);
      try {
        await client.query("BEGIN");
        await client.query(sql.toString("utf8"));
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        await client.query(`UPDATE "_prisma_migrations" SET logs = $2 WHERE id = $1`, [id, String(error)]);
        throw new Error(`migration ${name} failed: ${String(error)}`, { cause: error });
      }
      await client.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
      applied.push(name);
    }
    return { applied, alreadyApplied: names.length - applied.length };
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_ADVISORY_LOCK]).catch(() => {});
    await client.end();
  }
}
