import pg from "pg";
import { readConfig } from "@/lib/server/config";
import { startEmbeddedPostgres, type EmbeddedServer } from "@/lib/server/db/embedded";
import { applyMigrations } from "@/lib/server/db/migrate";

/**
 * A fresh, migrated database `<name>` for a benchmark (embedded unless DATABASE_URL is set);
 * `embedded` gives a benchmark its own data dir and port instead of the shared .baton-bench.
 */
export async function benchDatabase(name: string, embeddedAt: { dataDir: string; port: number } = { dataDir: ".baton-bench", port: Number(process.env.BATON_BENCH_PG_PORT ?? 54333) }, opts: { reuse?: boolean } = {}): Promise<{ url: string; close: () => Promise<void> }> {
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
  // `reuse` keeps a database an earlier run filled (a benchmark checks that it holds what it needs)
  const exists = (await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1;
  if (!opts.reuse || !exists) {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  }
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await applyMigrations(url.toString());
  // a server another benchmark started (reused) is left for that one to stop
  return { url: url.toString(), close: async () => { if (embedded && !embedded.reused) await embedded.stop(); } };
}

export function fmt(n: number, digits = 0): string {
  return n.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
