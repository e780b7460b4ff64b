/**
 * `npx tsx --conditions=react-server scripts/setup-link.ts`: prints a fresh
 * one-time setup link while Baton has no admin (when the one printed at
 * start was lost or has expired; older links stop working). Uses the same
 * database as `npm start` (DATABASE_URL, else the embedded one in
 * BATON_DATA_DIR, which may be running).
 */
import { readConfig } from "@/lib/server/config";
import { readyDatabase } from "@/lib/server/db/bootstrap";
import { closeDatabase } from "@/lib/server/db/client";
import { setupLinkIfNeeded } from "@/lib/server/auth/bootstrap";

async function main(): Promise<number> {
  const config = readConfig();
  const db = await readyDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.BATON_DATA_DIR, pgPort: config.BATON_PG_PORT });
  process.env.DATABASE_URL = db.url;
  try {
    const link = await setupLinkIfNeeded(`http://localhost:${config.PORT}`);
    if (!link) {
      console.error("Baton has an admin already: sign in, or ask a site admin for an account.");
      return 1;
    }
    console.log(link);
    return 0;
  } finally {
    await closeDatabase();
    // a server Baton is running keeps running
    if (db.embedded && !db.embedded.reused) await db.embedded.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`setup-link failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
