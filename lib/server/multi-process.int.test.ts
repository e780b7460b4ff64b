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
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const lines = out.split("\n");
      for (const line of lines.slice(0, -1)) onLine?.(line, () => { killed = true; child.kill("SIGKILL"); });
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

describe("two app processes on one database", () => {
  it("share the sign-in limit: 3 failures in one and 2 in the other, then the 6th try in either is 429", async () => {
    await makeUser("root", { isAdmin: true });
    const user = await makeUser("ann", { password: "correct horse battery" });
    const wrong = { op: "signin", email: user.email, password: "wrong password", address: "203.0.113.50" };
    const [a, b] = await Promise.all([appProcess({ ...wrong, times: 3 }), appProcess({ ...wrong, times: 2 })]);
    expect([...(a.result as number[]), ...(b.result as number[])]).toEqual([401, 401, 401, 401, 401]);
    const right = await appProcess({ ...wrong, password: "correct horse battery", times: 1 });
    expect(right.result).toEqual([429]);
    await cleanAccounts();
  }, 120_000);

  it("apply concurrent ?upsert=1 of one trace one after the other: every write succeeds, one whole version remains", async () => {
    const versions = (process: string) => Array.from({ length: 6 }, (_, i) => ({ ...exampleTrace("upserted"), system: `${process}-${i}` }));
    const [a, b] = await Promise.all([appProcess({ op: "upsert", traces: versions("a") }), appProcess({ op: "upsert", traces: versions("b") })]);
    expect([...(a.result as number[]), ...(b.result as number[])]).toEqual(Array(12).fill(201));
    const rows = await prisma().trace.findMany({ where: { traceId: `${TRACE_PREFIX}upserted` }, include: { _count: { select: { events: true } } } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.system).toMatch(/^[ab]-[0-5]$/);
    expect(rows[0]!._count.events).toBe((exampleTrace("x").events as unknown[]).length);
  }, 120_000);

  it("finalise each OTLP trace exactly once when both flush at the same time", async () => {
    const ids = Array.from({ length: 8 }, (_, i) => `cccc${String(i).padStart(28, "0")}`);
    for (const id of ids) {
      const body = JSON.stringify(toOtlpJson(orchestratorRun().map((s) => ({ ...s, traceId: id }))));
      expect((await otlp(new Request("http://localhost/api/otel/v1/traces", { method: "POST", headers: { "content-type": "application/json" }, body }))).status).toBe(200);
    }
    const [a, b] = await Promise.all([appProcess({ op: "flush" }), appProcess({ op: "flush" })]);
    const stored = [a, b].flatMap((r) => (r.result as { traces: { trace_id: string; status: string }[] }).traces).filter((t) => ids.includes(t.trace_id) && t.status === "stored");
    expect(stored.map((t) => t.trace_id).sort()).toEqual(ids);
    expect(await prisma().trace.count({ where: { traceId: { in: ids } } })).toBe(ids.length);
    await prisma().trace.deleteMany({ where: { traceId: { in: ids } } });
    await prisma().otelTrace.deleteMany({ where: { traceId: { in: ids } } });
  }, 120_000);

  it("leave nothing half-stored when a process is killed with SIGKILL in the middle of an ingest", async () => {
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
