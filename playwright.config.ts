import { existsSync } from "node:fs";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { e2eDistDir } from "./e2e/lib/dist-dir";
import { port, privatePort } from "./e2e/lib/servers";
import { sharedDataExclusions } from "./scripts/lib/shared-data.mjs";

/**
 * End-to-end tests in a real Chromium against `npm start` (production build,
 * real PostgreSQL: embedded in .baton-test/e2e, or DATABASE_URL).
 * Debian's chromium is used when present (CHROMIUM_PATH, default /usr/bin/chromium),
 * else Playwright's own browser.
 */

// without ../shared (a clone elsewhere) the specs that read it are left out, and said so; in CI its absence throws here
const needShared = sharedDataExclusions(process.cwd(), ["e2e"], (f) => f.endsWith(".spec.ts"));
if (needShared.length > 0) console.log(`Skipped ${needShared.length} e2e spec files: they read ../shared/data or ../shared/trace-schema, which is absent here (${needShared.join(", ")})`);
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** `npm start` of this checkout's e2e build on one port, on the e2e database. */
function server(on: number, readyPath: string, env: Record<string, string>) {
  return {
    command: "npm start",
    url: `http://127.0.0.1:${on}${readyPath}`,
    timeout: 600_000,
    reuseExistingServer: !process.env.CI,
    stdout: "pipe" as const,
    env: {
      PORT: String(on),
      BATON_DATA_DIR: process.env.BATON_E2E_DATA_DIR ?? ".baton-test/e2e",
      BATON_PG_PORT: process.env.BATON_E2E_PG_PORT ?? "24332",
      BATON_DIST_DIR: e2eDistDir,
      NEXT_TELEMETRY_DISABLED: "1",
      // the judges' scripted model server listens on 127.0.0.1
      BATON_ALLOW_LOOPBACK: "1",
      ...env,
    },
  };
}

export default defineConfig({
  testDir: "e2e",
  testIgnore: needShared.map((f) => path.resolve(f)),
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  timeout: 60_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      ...(existsSync(chromium) && { executablePath: chromium }),
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: [
    // the e2e server runs two app processes (e2e/processes.spec.ts kills one)
    // a registered replay runner (e2e/replay.spec.ts): the planted-failure program, graded by its exit code
    server(port, "/api/traces?limit=1", {
      BATON_PROCESSES: process.env.BATON_E2E_PROCESSES ?? "2",
      BATON_REPLAY_RUNNERS: JSON.stringify({ planted: { argv: [process.execPath, "scripts/replay/planted-agents.mjs"], cwd: process.cwd(), env: ["PATH"], time_limit_s: 60, outcome: "exit_code" } }),
      BATON_REPLAY_BASE_URL: `http://127.0.0.1:${port}`,
    }),
    // the same build and database served a second time with BATON_PUBLIC_READ=0, where a trace can be private
    // (e2e/page-access.spec.ts): it reuses the embedded PostgreSQL the first one started
    server(privatePort, "/api/status", { BATON_PROCESSES: "1", BATON_PUBLIC_READ: "0", BATON_DEMO: "0" }),
  ],
});
