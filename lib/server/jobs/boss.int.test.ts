import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * A script that used the job queue (a CLI ingest of a big trace queues a
 * graph-pages job) ends when it closes the database: closeDatabase stops the
 * queue's timers before it ends the pool, so the process has nothing left
 * to wait for.
 */
describe("the job queue in a script", () => {
  it("stops with closeDatabase, and the process exits on its own", () => {
    const script = [
      `import { boss } from ${JSON.stringify(path.resolve("lib/server/jobs/boss.ts"))};`,
      `import { closeDatabase } from ${JSON.stringify(path.resolve("lib/server/db/client.ts"))};`,
      "const b = await boss();",
      'await b.createQueue("exit-check");',
      'await b.send("exit-check", { n: 1 });',
      "await closeDatabase();",
      'console.log("closed");',
      // a process kept alive says by what, and ends with 3
      'setTimeout(() => { console.error("still running:", process.getActiveResourcesInfo().join(" ")); process.exit(3); }, 20_000).unref();',
    ].join("\n");
    const file = path.join(mkdtempSync(path.join(tmpdir(), "baton-queue-")), "script.mts");
    writeFileSync(file, script);
    const started = Date.now();
    const run = spawnSync(process.execPath, ["--import", "tsx", "--conditions=react-server", file], { env: process.env, encoding: "utf8", timeout: 40_000 });
    expect(run.stderr).not.toMatch(/Cannot use a pool after calling end|job queue:/);
    expect(run.stdout.trim()).toBe("closed");
    expect(run.stderr).not.toContain("still running:");
    expect(run.signal).toBeNull();
    expect(run.status).toBe(0);
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 90_000);
});
