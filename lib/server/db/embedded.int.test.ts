import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "./embedded";

const dataDir = path.resolve(".baton-test/embedded-reuse");
const port = 54340;

async function selectOne(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const result = await client.query<{ one: number }>("SELECT 1 AS one");
  await client.end();
  return result.rows[0]!.one;
}

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe("embedded PostgreSQL", () => {
  it("reuses a server left running by a wrapper killed with SIGKILL, and stops it", async () => {
    rmSync(dataDir, { recursive: true, force: true });
    // A separate Node process starts the server, then dies by kill -9 without stopping it.
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/lib/embedded-child.ts", dataDir, String(port)], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => { if (d.toString().includes("READY")) resolve(); });
      child.on("exit", (code) => reject(new Error(`child exited with ${code}`)));
    });
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    expect(existsSync(path.join(dataDir, "pg", "postmaster.pid"))).toBe(true);

    const server = await startEmbeddedPostgres({ dataDir, port: port + 1, database: "reuse" });
    expect(server.reused).toBe(true);
    expect(server.url).toContain(`:${port}/`); // the old server's port, not the new default
    expect(await selectOne(server.url)).toBe(1);
    await server.stop();
    expect(existsSync(path.join(dataDir, "pg", "postmaster.pid"))).toBe(false);
    await expect(selectOne(server.url)).rejects.toThrow();
  }, 60_000);
});
