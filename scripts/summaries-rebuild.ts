/**
 * `npm run summaries:rebuild`: recomputes the metric and decision summaries (docs/scale.md, "Summaries") from the
 * stored traces of the configured database (DATABASE_URL, else the embedded one), e.g. after rows were
 * written with the triggers disabled.
 */
import { parseArgs } from "node:util";
import { readConfig } from "@/lib/server/config";
import { readyDatabase } from "@/lib/server/db/bootstrap";
import { closeDatabase } from "@/lib/server/db/client";
import { rebuildSummaries } from "@/lib/server/summaries/rebuild";

async function main(): Promise<number> {
  parseArgs({ options: {} });
  const config = readConfig();
  const db = await readyDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.BATON_DATA_DIR, pgPort: config.BATON_PG_PORT });
  process.env.DATABASE_URL = db.url;
  try {
    const { cells, tallies, seconds } = await rebuildSummaries();
    console.log(`summaries rebuilt: ${cells} metric cells, ${tallies} decision tallies in ${seconds.toFixed(1)} s`);
    return 0;
  } finally {
    await closeDatabase();
    if (db.embedded && !db.embedded.reused) await db.embedded.stop();
  }
}

main().then((code) => process.exit(code), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
