// Setup file of the integration project: points the app's database client at the test database.
import { afterAll, inject } from "vitest";
import { closeDatabase } from "../lib/server/db/client";

process.env.DATABASE_URL = inject("databaseUrl");
if (inject("databaseReadUrl")) process.env.DATABASE_READ_URL = inject("databaseReadUrl");

afterAll(async () => {
  await closeDatabase();
});
