import { startEmbeddedPostgres, type EmbeddedServer } from "./embedded";
import { applyMigrations } from "./migrate";

/**
 * Gets a migrated database: the server in DATABASE_URL, or else Baton's
 * embedded PostgreSQL in `<dataDir>/pg`. Used by the start script, the CLI
 * and the test setup.
 */
export interface ReadyDatabase {
  url: string;
  embedded: EmbeddedServer | null;
  migrationsApplied: string[];
}

export async function readyDatabase(opts: { databaseUrl?: string; dataDir: string; pgPort: number; database?: string }): Promise<ReadyDatabase> {
  const embedded = opts.databaseUrl
    ? null
    : await startEmbeddedPostgres({ dataDir: opts.dataDir, port: opts.pgPort, database: opts.database ?? "baton" });
  const url = opts.databaseUrl ?? embedded!.url;
  try {
    const report = await applyMigrations(url);
    return { url, embedded, migrationsApplied: report.applied };
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
}
