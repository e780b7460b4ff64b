/**
 * Reads from a streaming standby (DATABASE_READ_URL), with read-your-writes.
 * Needs a real standby of the test database: CI makes one with
 * `.ci/standby.sh` (Debian's PostgreSQL 15, `pg_basebackup -R`). Without
 * DATABASE_READ_URL this file is skipped, and says so.
 * BATON_TEST_STANDBY_CTL, when set, is a command that takes `halt` or
 * `start` and does that to the standby (the stop-mid-run test), e.g.
 * `.ci/standby.sh`.
 */
import { execSync } from "node:child_process";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listAnnotations, POST as annotate } from "@/app/api/traces/[id]/annotations/route";
import { GET as listTraces, POST as ingest } from "@/app/api/traces/route";
import { GET as status } from "@/app/api/status/route";
import { pool, prisma } from "@/lib/server/db/client";
import { exampleTrace, TRACE_PREFIX } from "@/scripts/lib/test-auth";
import { jsonRequest, params } from "@/scripts/lib/test-http";

const standbyUrl = process.env.DATABASE_READ_URL?.split(",")[0]?.trim();
const control = process.env.BATON_TEST_STANDBY_CTL;
const ID = `${TRACE_PREFIX}replica`;

function get(url: string, headers: Record<string, string> = {}): Request {
  return new Request(`http://localhost${url}`, { headers });
}
async function labels(headers: Record<string, string> = {}) {
  const response = await listAnnotations(get(`/api/traces/${ID}/annotations`, headers), params({ id: ID }));
  expect(response.status).toBe(200);
  const body = (await response.json()) as { annotations: { family: string; comment: string | null }[] };
  return { served: response.headers.get("baton-database"), comments: body.annotations.map((a) => a.comment) };
}

function connectStandby(): pg.Client {
  const client = new pg.Client({ connectionString: standbyUrl });
  // the stop test ends this connection from the server's side
  client.on("error", () => {});
  return client;
}

describe.skipIf(!standbyUrl)("reads from a read replica (needs DATABASE_READ_URL: a standby, e.g. .ci/standby.sh)", () => {
  let standby: pg.Client;
  let commit: string;

  beforeAll(async () => {
    standby = connectStandby();
    await standby.connect();
    // this file pauses replay: commits must not wait for the standby while it does
    commit = (await pool().query<{ synchronous_commit: string }>("SHOW synchronous_commit")).rows[0]!.synchronous_commit;
    if (commit === "remote_apply") await setCommit("local");
    await prisma().trace.deleteMany({ where: { traceId: ID } });
    expect((await ingest(jsonRequest("/api/traces", exampleTrace("replica")), params({}))).status).toBe(201);
    await caughtUp();
  });

  afterAll(async () => {
    await standby.query("SELECT pg_wal_replay_resume()").catch(() => {});
    await standby.end().catch(() => {});
    if (commit === "remote_apply") await setCommit("remote_apply");
    await prisma().trace.deleteMany({ where: { traceId: ID } });
  });

  async function setCommit(value: string) {
    await pool().query(`ALTER SYSTEM SET synchronous_commit = '${value}'`);
    await pool().query("SELECT pg_reload_conf()");
    for (let i = 0; i < 50 && (await pool().query<{ s: string }>("SELECT current_setting('synchronous_commit') AS s")).rows[0]!.s !== value; i++) await new Promise((r) => setTimeout(r, 100));
  }

  async function caughtUp() {
    const { rows } = await pool().query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn");
    for (let i = 0; i < 100; i++) {
      const { rows: r } = await standby.query<{ ok: boolean }>("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok", [rows[0]!.lsn]);
      if (r[0]!.ok) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("the standby did not catch up within 10 s");
  }

  it("serves a plain read from the standby and says so (header and /api/status)", async () => {
    const response = await listTraces(get("/api/traces?limit=5"), params({}));
    expect(response.status).toBe(200);
    expect(response.headers.get("baton-database")).toBe("replica-1");
    const body = (await (await status(get("/api/status"), params({}))).json()) as { databases: { name: string; served: number; state?: string }[] };
    const replica = body.databases.find((d) => d.name === "replica-1")!;
    expect(replica.state).toBe("up");
    expect(replica.served).toBeGreaterThan(0);
  });

  it("with replay paused, a label written is seen by its writer (served by the primary) and not yet by a plain read (the standby)", async () => {
    await standby.query("SELECT pg_wal_replay_pause()");
    const written = await annotate(jsonRequest(`/api/traces/${ID}/annotations`, { family: "task_success", value: 1, comment: "written while replay is paused" }), params({ id: ID }));
    expect(written.status).toBe(201);
    const lsn = written.headers.get("baton-lsn");
    expect(lsn).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
    expect(written.headers.get("set-cookie")).toContain(`baton_lsn=${encodeURIComponent(lsn!)}`);

    // the writer's next read carries the position: the standby has not replayed it, so the primary answers
    const mine = await labels({ "baton-min-lsn": lsn! });
    expect(mine).toEqual({ served: "primary", comments: ["written while replay is paused"] });
    // the same through the cookie, as the app's own pages send it
    expect(await labels({ cookie: `baton_lsn=${encodeURIComponent(lsn!)}` })).toEqual(mine);
    // a read that carries nothing is served by the paused standby, which really is behind
    expect(await labels()).toEqual({ served: "replica-1", comments: [] });

    await standby.query("SELECT pg_wal_replay_resume()");
    await caughtUp();
    // once replayed, the standby serves the writer too
    expect(await labels({ "baton-min-lsn": lsn! })).toEqual({ served: "replica-1", comments: ["written while replay is paused"] });
  });

  it("a reader with no position is not served by a standby whose replay is stuck behind for longer than BATON_REPLICA_MAX_LAG_S", async () => {
    process.env.BATON_REPLICA_MAX_LAG_S = "1";
    try {
      await standby.query("SELECT pg_wal_replay_pause()");
      const written = await annotate(jsonRequest(`/api/traces/${ID}/annotations`, { family: "task_success", value: 0, comment: "stuck behind" }), params({ id: ID }));
      expect(written.status).toBe(201);
      // a few hundred bytes behind (far under BATON_REPLICA_MAX_LAG_MB): at first the standby still serves plain reads
      expect((await labels()).served).toBe("replica-1");
      await new Promise((r) => setTimeout(r, 1500));
      expect(await labels()).toEqual({ served: "primary", comments: ["stuck behind"] });
    } finally {
      delete process.env.BATON_REPLICA_MAX_LAG_S;
      await standby.query("SELECT pg_wal_replay_resume()");
      await caughtUp();
    }
    expect((await labels()).served).toBe("replica-1");
  });

  it("refuses a malformed position quietly (read as no position)", async () => {
    expect((await labels({ "baton-min-lsn": "not an lsn" })).served).toBe("replica-1");
  });

  it.skipIf(!control)("stopping the standby mid-run costs no 5xx: reads fall back to the primary, then return to the standby", async () => {
    const reads = async (n: number) => (await Promise.all(Array.from({ length: n }, () => listTraces(get("/api/traces?limit=5"), params({}))))).map((r) => [r.status, r.headers.get("baton-database")] as const);
    expect((await reads(5)).every(([s, by]) => s === 200 && by === "replica-1")).toBe(true);
    const stopping = new Promise<void>((resolve) => setTimeout(() => {
      execSync(`${control} halt`, { stdio: "ignore" });
      resolve();
    }, 50));
    const during: (readonly [number, string | null])[] = [];
    for (let round = 0; round < 20; round++) during.push(...(await reads(5)));
    await stopping;
    const after = await reads(10);
    expect([...during, ...after].filter(([s]) => s !== 200)).toEqual([]);
    expect(after.every(([, by]) => by === "primary")).toBe(true);
    execSync(`${control} start`, { stdio: "ignore" });
    await standby.end().catch(() => {});
    standby = connectStandby();
    await standby.connect();
    // the standby is asked again once its retry time has passed
    await new Promise((resolve) => setTimeout(resolve, 5500));
    expect((await reads(3)).every(([s, by]) => s === 200 && by === "replica-1")).toBe(true);
  }, 60_000);
});
