/**
 * Vitest global setup for integration tests: a real PostgreSQL (the server in
 * DATABASE_URL, else an embedded one in .baton-test/), a fresh database
 * `baton_test` with all migrations applied. Tests read its URL with inject("databaseUrl").
 * DATABASE_READ_URL (standbys of that server) is pointed at the same database: inject("databaseReadUrl").
 */
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres, type EmbeddedServer } from "../lib/server/db/embedded";
import { applyMigrations } from "../lib/server/db/migrate";

const TEST_DB = process.env.BATON_TEST_DB ?? "baton_test";

let embedded: EmbeddedServer | null = null;

export async function setup(project: TestProject) {
  let adminUrl: string;
  if (process.env.DATABASE_URL) {
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = "/postgres";
    adminUrl = url.toString();
  } else {
    embedded = await startEmbeddedPostgres({ dataDir: process.env.BATON_TEST_DATA_DIR ?? ".baton-test/vitest", port: Number(process.env.BATON_TEST_PG_PORT ?? 24330), database: "postgres" });
    adminUrl = embedded.url;
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEST_DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${TEST_DB}`);
  await admin.end();
  const testUrl = new URL(adminUrl);
  testUrl.pathname = `/${TEST_DB}`;
  await applyMigrations(testUrl.toString());
  project.provide("databaseUrl", testUrl.toString());
  const readUrls = (process.env.DATABASE_READ_URL ?? "").split(",").map((u) => u.trim()).filter((u) => u.length > 0);
  project.provide("databaseReadUrl", readUrls.map((u) => Object.assign(new URL(u), { pathname: `/${TEST_DB}` }).toString()).join(","));
}

export async function teardown() {
  await embedded?.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    databaseReadUrl: string;
  }
}
