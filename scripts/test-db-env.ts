// Setup file of the integration project: points the app's database client at the test database.
import { afterAll, inject } from "vitest";
import { closeDatabase } from "../lib/server/db/client";

process.env.DATABASE_URL = inject("databaseUrl");
// the scripted model servers of the judge and gateway tests listen on 127.0.0.1 (the default refusal has its own tests)
process.env.BATON_ALLOW_LOOPBACK ??= "1";
// no background builds of graph pages unless a test asks (lib/server/graph-pages/jobs.int.test.ts): the others' big traces stay out of the queue
process.env.BATON_GRAPH_PREBUILD_EVENTS ??= "0";
if (inject("databaseReadUrl")) process.env.DATABASE_READ_URL = inject("databaseReadUrl");

afterAll(async () => {
  await closeDatabase();
});
