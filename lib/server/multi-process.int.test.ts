/**
 * Several Baton processes on one database behave as one (the way to
 * outgrow one machine: stateless app servers behind a load balancer):
 * sign-in limits are shared, concurrent upserts of one trace are applied one
 * after the other, OTLP finalisation happens exactly once; and a process
 * killed with SIGKILL in the middle of an ingest leaves nothing half-stored.
 * The other processes are scripts/lib/app-process.ts: the real route
 * handlers in their own Node process.
 */
import { spawn } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { POST as otlp } from "@/app/api/otel/v1/traces/route";
import { orchestratorRun, toOtlpJson } from "@/lib/adapters/otlp-fixtures";
import { prisma } from "@/lib/server/db/client";
import { cleanAccounts, exampleTrace, makeUser, TRACE_PREFIX } from "@/scripts/lib/test-auth";


function appProcess(command: unknown, onLine?: (line: string, kill: () => void) => void): Promise<{ result: unknown; killed: boolean }> {
  return new Promise((resolve, reject) => {
    // node itself with tsx as a loader (not the tsx CLI, which runs the script in a grandchild that SIGKILL would not reach)
    const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/lib/app-process.ts", JSON.stringify(command)], { env: process.env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    let killed = false;
    let seen = 0;
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const lines = out.split("\n").slice(0, -1);
      // each complete line once
      for (const line of lines.slice(seen)) onLine?.(line, () => { killed = true; child.kill("SIGKILL"); });
      seen = lines.length;
    });
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (killed) return resolve({ result: null, killed });
      if (code !== 0) return reject(new Error(`app process exited ${code}: ${err}`));
      const last = out.trim().split("\n").pop()!;
      resolve({ result: JSON.parse(last) as unknown, killed });
    });
  });
}

afterAll(async () => {
  await prisma().trace.deleteMany({ where: { traceId: { startsWith: TRACE_PREFIX } } });
  await cleanAccounts();
});

const times = (n: number, split: number) => Array.from({ length: n }, (_, i) => Math.floor(split / n) + (i < split % n ? 1 : 0));

describe.each([2, 4])("%i app processes on one database", (n) => {
  it("share the sign-in limit: 5 failures spread over the processes, then the 6th try in any is 429", async () => {
    await makeUser("root", { isAdmin: true });
    const user = await makeUser("ann", { password: "correct horse battery" });
    const wrong = { op: "signin", email: user.email, password: "wrong password", address: "203.0.113.50" };
    const answers = await Promise.all(times(n, 5).map((k) => appProcess({ ...wrong, times: k })));
    expect(answers.flatMap((a) => a.result as number[])).toEqual([401, 401, 401, 401, 401]);
    const right = await appProcess({ ...wrong, password: "correct horse battery", times: 1 });
    expect(right.result).toEqual([429]);
    await cleanAccounts();
  }, 120_000);

  it("apply concurrent ?upsert=1 of one trace one after the other: every write succeeds, one whole version remains", async () => {
    const versions = (process: string) => Array.from({ length: 6 }, (_, i) => ({ ...exampleTrace("upserted"), system: `${process}-${i}` }));
    const names = "abcd".slice(0, n).split("");
    const answers = await Promise.all(names.map((name) => appProcess({ op: "upsert", traces: versions(name) })));
    expect(answers.flatMap((a) => a.result as number[])).toEqual(Array(6 * n).fill(201));
    const rows = await prisma().trace.findMany({ where: { traceId: `${TRACE_PREFIX}upserted` }, include: { _count: { select: { events: true } } } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.system).toMatch(new RegExp(`^[${names.join("")}]-[0-5]$`));
    expect(rows[0]!._count.events).toBe((exampleTrace("x").events as unknown[]).length);
    await prisma().trace.deleteMany({ where: { traceId: `${TRACE_PREFIX}upserted` } });
  }, 120_000);

  it("finalise each OTLP trace exactly once when all flush at the same time", async () => {
    const ids = Array.from({ length: 8 }, (_, i) => `cc${n}c${String(i).padStart(28, "0")}`);
    for (const id of ids) {
      const body = JSON.stringify(toOtlpJson(orchestratorRun().map((s) => ({ ...s, traceId: id }))));
      expect((await otlp(new Request("http://localhost/api/otel/v1/traces", { method: "POST", headers: { "content-type": "application/json" }, body }))).status).toBe(200);
    }
    const answers = await Promise.all(Array.from({ length: n }, () => appProcess({ op: "flush" })));
    const stored = answers.flatMap((r) => (r.result as { traces: { trace_id: string; status: string }[] }).traces).filter((t) => ids.includes(t.trace_id) && t.status === "stored");
    expect(stored.map((t) => t.trace_id).sort()).toEqual(ids);
    expect(await prisma().trace.count({ where: { traceId: { in: ids } } })).toBe(ids.length);
    await prisma().trace.deleteMany({ where: { traceId: { in: ids } } });
    await prisma().otelTrace.deleteMany({ where: { traceId: { in: ids } } });
  }, 120_000);

  it("lose no acknowledged write when one of the processes is killed with SIGKILL while all write", async () => {
    const prefix = `${TRACE_PREFIX}acked-${n}-`;
    const acked: string[] = [];
    let killedAt = -1;
    const runs = Array.from({ length: n }, (_, p) =>
      appProcess({ op: "writes", prefix: `${prefix}${p}-`, count: 60 }, (line, kill) => {
        if (!line.startsWith("ack ")) return;
        acked.push(line.slice(4));
        // the first process dies after its 10th acknowledged write, the others go on writing
        if (p === 0 && line.endsWith("-9")) {
          killedAt = acked.length;
          kill();
        }
      }));
    const results = await Promise.all(runs);
    expect(results[0]!.killed).toBe(true);
    expect(results.slice(1).map((r) => r.result)).toEqual(Array(n - 1).fill(60));
    expect(killedAt).toBeGreaterThan(0);
    const stored = await prisma().trace.findMany({ where: { traceId: { startsWith: prefix } }, select: { traceId: true, _count: { select: { events: true } } } });
    const storedIds = new Set(stored.map((t) => t.traceId));
    expect(acked.filter((id) => !storedIds.has(id))).toEqual([]);
    // and each stored trace is whole
    expect(stored.every((t) => t._count.events === (exampleTrace("x").events as unknown[]).length)).toBe(true);
    await prisma().trace.deleteMany({ where: { traceId: { startsWith: prefix } } });
  }, 180_000);
});

describe("one app process killed in the middle of an ingest", () => {
  it("leaves nothing half-stored", async () => {
    const prefix = `${TRACE_PREFIX}killed-`;
    const count = 4000;
    const { killed } = await appProcess({ op: "ingest", prefix, count }, (line, kill) => {
      if (line === "started") setTimeout(kill, 400);
    });
    const stored = await prisma().trace.count({ where: { traceId: { startsWith: prefix } } });
    // all or nothing: killed before COMMIT leaves no row; a process that finished first stored every trace
    expect(killed ? [0, count] : [count]).toContain(stored);
    const events = await prisma().event.count({ where: { trace: { traceId: { startsWith: prefix } } } });
    expect(events).toBe(stored * (exampleTrace("x").events as unknown[]).length);
  }, 120_000);
});
