import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "./embedded";

const dataDir = path.resolve(".baton-test/embedded-reuse");
const takenDir = path.resolve(".baton-test/embedded-taken");

async function selectOne(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const result = await client.query<{ one: number }>("SELECT 1 AS one");
  await client.end();
  return result.rows[0]!.one;
}

async function serverAddress(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const result = await client.query<{ addr: string | null }>("SELECT inet_server_addr()::text AS addr");
  await client.end();
  return result.rows[0]!.addr;
}

/** A listening socket on a port the OS chose (a fixed port can be any other connection's ephemeral port). */
async function listen(host = "127.0.0.1"): Promise<net.Server> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, host, resolve));
  return server;
}
const portOf = (server: net.Server) => (server.address() as net.AddressInfo).port;
const close = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

async function freePort(): Promise<number> {
  const server = await listen();
  const port = portOf(server);
  await close(server);
  return port;
}

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(takenDir, { recursive: true, force: true });
});

describe("embedded PostgreSQL", () => {
  it("reuses a server left running by a wrapper killed with SIGKILL, and stops it", async () => {
    rmSync(dataDir, { recursive: true, force: true });
    const port = await freePort();
    // A separate Node process starts the server, then dies by kill -9 without stopping it.
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/lib/embedded-child.ts", dataDir, String(port)], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => { if (d.toString().includes("READY")) resolve(); });
      child.on("exit", (code) => reject(new Error(`child exited with ${code}`)));
    });
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    expect(existsSync(path.join(dataDir, "pg", "postmaster.pid"))).toBe(true);

    const server = await startEmbeddedPostgres({ dataDir, port: await freePort(), database: "reuse" });
    expect(server.reused).toBe(true);
    expect(server.url).toContain(`:${port}/`); // the old server's port, not the one asked for
    expect(await selectOne(server.url)).toBe(1);
    // connections go through the server's Unix socket (a socket connection has no server address), not loopback TCP
    if (process.platform !== "win32") expect(await serverAddress(server.url)).toBeNull();
    await server.stop();
    expect(existsSync(path.join(dataDir, "pg", "postmaster.pid"))).toBe(false);
    await expect(selectOne(server.url)).rejects.toThrow();
  }, 60_000);

  it("on a port another program holds, fails with PostgreSQL's own reason, and starts once the port is free", async () => {
    rmSync(takenDir, { recursive: true, force: true });
    // PostgreSQL listens on localhost (IPv4 and, where there is one, IPv6): hold the port on both
    const holder = await listen("127.0.0.1");
    const port = portOf(holder);
    const holder6 = await new Promise<net.Server | null>((resolve) => {
      const server = net.createServer();
      server.once("error", () => resolve(null)).listen(port, "::1", () => resolve(server));
    });
    try {
      // (not `rejects.toThrow(regex)`: it passes on a rejection with `undefined`, which is what the library gives)
      const error: unknown = await startEmbeddedPostgres({ dataDir: takenDir, port, database: "taken" }).then(() => "started", (e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(new RegExp(`^PostgreSQL exited while starting on port ${port} .*(could not bind|could not create any TCP/IP sockets)`));
    } finally {
      await close(holder);
      if (holder6) await close(holder6);
    }
    const server = await startEmbeddedPostgres({ dataDir: takenDir, port, database: "taken" });
    expect(server.reused).toBe(false);
    expect(await selectOne(server.url)).toBe(1);
    await server.stop();
  }, 60_000);
});
