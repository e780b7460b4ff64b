// Test helper: starts an embedded PostgreSQL, prints READY, then waits to be killed (see embedded.int.test.ts).
import { startEmbeddedPostgres } from "../../lib/server/db/embedded";

const [dataDir, port] = process.argv.slice(2);
void startEmbeddedPostgres({ dataDir: dataDir!, port: Number(port), database: "reuse" }).then((server) => {
  console.log(`READY ${server.url}`);
  setInterval(() => {}, 1000);
});
