/**
 * Property-based fuzzing of every door against the real route handlers and
 * PostgreSQL (scripts/lib/fuzz-classes.ts): no 5xx, the error shape of
 * SPEC.md section 7 on every refusal, and a refused write stores nothing
 * (row counts unchanged), and no request changes what its class must leave
 * alone (another project's trace, a person's own label). `npm test` runs ~2,000 cases; `npm run fuzz`
 * (BATON_FUZZ_CASES=20000 or more) prints the summary table, then runs them again over HTTP
 * (BATON_FUZZ_HTTP=1): a production Baton started here on the same database answers them
 * through Next, its proxy and its body handling.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as ingest } from "@/app/api/traces/route";
import { pool, prisma } from "@/lib/server/db/client";
import { FUZZ_CLASSES, FUZZ_FOREIGN, FUZZ_LABELLED, FUZZ_TRACE, type FuzzRequest } from "@/scripts/lib/fuzz-classes";
import { localUser } from "@/lib/server/auth/access";
import { jsonRequest, params } from "@/scripts/lib/test-http";
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";

const TOTAL = Number(process.env.BATON_FUZZ_CASES ?? 2000);
const perClass = Math.max(1, Math.ceil(TOTAL / FUZZ_CLASSES.length));
const summary: { class: string; cases: number; passed: number; server_errors: number; bad_shape: number; partial_writes: number; changed: number }[] = [];
let firstTraceRow = 0;

const COUNTS = {
  traces: "SELECT count(*)::int AS n FROM traces",
  otel: "SELECT (SELECT count(*) FROM otel_spans)::int + (SELECT count(*) FROM otel_traces)::int AS n",
  annotations: "SELECT count(*)::int AS n FROM annotations",
  presets: "SELECT count(*)::int AS n FROM presets",
};
const count = async (table: keyof typeof COUNTS) => (await pool().query<{ n: number }>(COUNTS[table])).rows[0]!.n;

let server: ChildProcess | null = null;

/** `npm start` on the test database (its own build directory), answering once /api/status does. */
async function startServer(): Promise<string> {
  const port = Number(process.env.BATON_FUZZ_PORT ?? 3190);
  server = spawn("npx", ["tsx", "--conditions=react-server", "scripts/start.ts"], {
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
    env: { ...process.env, PORT: String(port), BATON_PROCESSES: "1", BATON_DEMO: "0", BATON_DIST_DIR: process.env.BATON_FUZZ_DIST_DIR ?? ".next-fuzz", NEXT_TELEMETRY_DISABLED: "1" },
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 1200; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode})`);
    if ((await fetch(`${base}/api/status`).catch(() => null))?.ok) return base;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("the server did not answer in 10 minutes");
}

beforeAll(async () => {
  if (process.env.BATON_FUZZ_HTTP === "1") process.env.BATON_FUZZ_URL = await startServer();
  firstTraceRow = (await pool().query<{ n: number }>("SELECT coalesce(max(id), 0)::int AS n FROM traces")).rows[0]!.n;
  const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>;
  await prisma().trace.deleteMany({ where: { traceId: FUZZ_TRACE } });
  expect((await ingest(jsonRequest("/api/traces", { ...example, trace_id: FUZZ_TRACE }), params({}))).status).toBe(201);
  // what the takeover classes must leave alone: another project's trace with an OTLP id, a person's own trace-level label
  await prisma().trace.deleteMany({ where: { traceId: { in: [FUZZ_FOREIGN.traceId, FUZZ_LABELLED] } } });
  await prisma().annotation.deleteMany({ where: { traceKey: FUZZ_LABELLED } });
  const stored = await ingest(jsonRequest("/api/traces", [{ ...example, trace_id: FUZZ_FOREIGN.traceId, project: FUZZ_FOREIGN.project }, { ...example, trace_id: FUZZ_LABELLED }]), params({}));
  expect(stored.status).toBe(201);
  await pool().query("INSERT INTO annotations (trace_key, event_id, family, annotator_id, value, comment) VALUES ($1, '', 'task_success', $2, 1, 'mine')", [
    FUZZ_LABELLED, (await localUser()).userId,
  ]);
}, 900_000); // a first HTTP pass builds the app

afterAll(async () => {
  if (server?.pid) process.kill(-server.pid, "SIGTERM");
  // what the fuzzer managed to store (valid mutations), and its OTLP staging
  await pool().query("DELETE FROM traces WHERE id > $1", [firstTraceRow]);
  await pool().query("DELETE FROM otel_traces WHERE trace_id LIKE 'dddd%' OR status <> 'stored'");
  await pool().query("DELETE FROM presets WHERE name LIKE 'fuzz%'");
  await prisma().annotation.deleteMany({ where: { traceKey: { in: [FUZZ_LABELLED, FUZZ_FOREIGN.traceId] } } });
  await prisma().adjudication.deleteMany({ where: { traceKey: { in: [FUZZ_LABELLED, FUZZ_FOREIGN.traceId] } } });
  await pool().query("DELETE FROM otel_traces WHERE trace_id = $1", [FUZZ_FOREIGN.traceId]);
  console.log(`\nfuzz summary (${TOTAL} cases requested${process.env.BATON_FUZZ_URL ? `, over HTTP to ${process.env.BATON_FUZZ_URL}` : ", handlers in process"})\n${table()}`);
});

function table(): string {
  const head = ["class", "cases", "passed", "5xx", "bad error shape", "partial writes", "changed what it must not"];
  const rows = summary.map((s) => [s.class, s.cases, s.passed, s.server_errors, s.bad_shape, s.partial_writes, s.changed].map(String));
  const total = ["total", ...[1, 2, 3, 4, 5, 6].map((i) => String(rows.reduce((a, r) => a + Number(r[i]), 0)))];
  const all = [head, ...rows, total];
  const widths = head.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  return all.map((r) => `| ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ")} |`).join("\n");
}

async function check(request: FuzzRequest): Promise<{ server: boolean; shape: boolean; partial: boolean; changed: boolean; detail: string }> {
  const before = request.writes ? await count(request.writes) : 0;
  const kept = await request.unchanged?.();
  const response = await request.send();
  const text = Buffer.from(await response.arrayBuffer());
  const status = response.status;
  let shape = true;
  if (status >= 400 && (response.headers.get("content-type") ?? "").includes("json")) {
    try {
      const body = JSON.parse(text.toString("utf8")) as { error?: { code?: unknown; message?: unknown; details?: unknown } };
      const e = body.error;
      shape = typeof e?.code === "string" && typeof e.message === "string" && Array.isArray(e.details) && e.details.every((d: { path?: unknown; message?: unknown }) => typeof d.path === "string" && typeof d.message === "string");
    } catch {
      shape = false;
    }
  }
  const partial = status >= 400 && request.writes !== null && (await count(request.writes)) !== before;
  const changed = request.unchanged !== undefined && (await request.unchanged()) !== kept;
  return { server: status >= 500, shape, partial, changed, detail: `${status}${changed ? " (changed what it must not)" : ""} ${text.toString("utf8").slice(0, 300)}` };
}

describe("fuzzing every door (fast-check against the real handlers and database)", () => {
  for (const fuzz of FUZZ_CLASSES) {
    it(`${fuzz.name}: no 5xx, error shape, no partial write (${perClass} cases)`, async () => {
      const row = { class: fuzz.name, cases: 0, passed: 0, server_errors: 0, bad_shape: 0, partial_writes: 0, changed: 0 };
      summary.push(row);
      const failures: string[] = [];
      await fc.assert(
        fc.asyncProperty(fuzz.arbitrary, async (request) => {
          const result = await check(request);
          row.cases++;
          if (result.server) row.server_errors++;
          if (!result.shape) row.bad_shape++;
          if (result.partial) row.partial_writes++;
          if (result.changed) row.changed++;
          if (result.server || !result.shape || result.partial || result.changed) failures.push(result.detail);
          else row.passed++;
          return true; // count everything, then fail once with examples (a shrunk first failure would hide the rate)
        }),
        { numRuns: perClass, seed: Number(process.env.BATON_FUZZ_SEED ?? 11) },
      );
      expect(failures.slice(0, 5)).toEqual([]);
    }, 1_800_000);
  }
});
