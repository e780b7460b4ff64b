// Test helper: starts an embedded PostgreSQL, prints READY, then waits to be killed (see embedded.int.test.ts).
import { startEmbeddedPostgres } from "../../lib/server/db/embedded";

const [dataDir, port] = process.argv.slice(2);
startEmbeddedPostgres({ dataDir: dataDir!, port: Number(port), database: "reuse" }).then(
  (server) => {
    console.log(`READY ${server.url}`);
    setInterval(() => {}, 1000);
  },
  (error: unknown) => {
    console.error(`embedded-child: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
