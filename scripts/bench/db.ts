import pg from "pg";
import { readConfig } from "@/lib/server/config";
import { startEmbeddedPostgres, type EmbeddedServer } from "@/lib/server/db/embedded";
import { applyMigrations } from "@/lib/server/db/migrate";

/**
 * A fresh, migrated database `<name>` for a benchmark (embedded unless DATABASE_URL is set);
 * with `reuse`, an existing one is kept (given only the migrations written since; a benchmark that fills for many minutes can
 * then be measured again, e.g. on a quieter machine); `embedded` gives a benchmark its own data
 * dir and port instead of the shared .baton-bench.
 */
export async function benchDatabase(
  name: string,
  opts: { reuse?: boolean; embedded?: { dataDir: string; port: number } } = {},
): Promise<{ url: string; reused: boolean; close: () => Promise<void> }> {
  const embeddedAt = opts.embedded ?? { dataDir: ".baton-bench", port: Number(process.env.BATON_BENCH_PG_PORT ?? 24333) };
  const config = readConfig();
  let embedded: EmbeddedServer | null = null;
  let adminUrl: string;
  if (config.DATABASE_URL) {
    const u = new URL(config.DATABASE_URL);
    u.pathname = "/postgres";
    adminUrl = u.toString();
  } else {
    embedded = await startEmbeddedPostgres({ ...embeddedAt, database: "postgres" });
    adminUrl = embedded.url;
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const exists = (await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1;
  const reused = opts.reuse === true && exists;
  if (!reused) {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  }
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // a reused database gets the migrations written since it was filled (the code's schema and triggers)
  const { applied } = await applyMigrations(url.toString());
  if (reused && applied.length > 0) console.log(`migrations applied to the reused database: ${applied.join(", ")}`);
  // a server another benchmark started (reused) is left for that one to stop
  return { url: url.toString(), reused, close: async () => { if (embedded && !embedded.reused) await embedded.stop(); } };
}

export function fmt(n: number, digits = 0): string {
  return n.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
