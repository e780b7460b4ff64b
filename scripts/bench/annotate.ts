/**
 * `npm run bench:annotate [-- --seconds 60 --connections 50 --pool 20 --processes 1,2,4 --via as-configured,tcp --event-only --signed-in | --api-key]`
 *
 * Starts Baton (production build) on a fresh database holding 2,000 small
 * generated traces, once for each number of app processes in `--processes`
 * (BATON_PROCESSES: `npm start`'s node:cluster workers on one port; 1 is a
 * plain `next start`), and prints a table of them side by side at the end.
 * Each time, 50 concurrent clients write annotations through
 * `POST /api/traces/{id}/annotations` for 60 s (each write to its own unit,
 * so every one must be found afterwards). Prints p50/p99 latency and
 * throughput, counts the rows, and compares with a read baseline
 * (`GET /api/traces/{id}/annotations`) run against the same server.
 * Where the CPU of the writes went is read from /proc (scripts/bench/cpu.ts):
 * per write, the app's processes, PostgreSQL's and the clients' (all on this
 * machine), and from one process's figures the most writes/s this machine's
 * cores could give. `--via as-configured,tcp` measures each process count
 * twice: the app reaching PostgreSQL as configured (the embedded server's
 * Unix socket) and forced to loopback TCP.
 * Both routes are first warmed up for 3 s each (not measured: a fresh
 * server compiles each route on its first request). One write in 25 is a
 * trace-level task_success label (0/1), the kind that recomputes the most
 * (E1, verdict, diagnostics, R_total: lib/annotate/recompute.ts); the server
 * reports the time it waited for that after the label was written in
 * `Server-Timing: recompute;dur=`, and the bench prints
 * its share of the total write time. `--event-only`: every write an
 * event-level label (nothing recomputed), the floor of the write path.
 * `--signed-in`: a team instance. A site admin exists (no open mode) and
 * every request carries the session cookie of an annotator of the traces'
 * project (writes also its CSRF token), as a signed-in browser would.
 * `--api-key`: the same, with that annotator's API key (read + annotate
 * scopes) in `Authorization: Bearer`, as a labelling script would.
 * With DATABASE_URL and DATABASE_READ_URL (a standby of that server, e.g.
 * `.ci/standby.sh start`), it also measures what a room of dashboard
 * readers sees while the 50 clients write: p50/p99 of the trace list and
 * the dashboard, alone and under the writes, with reads on the primary and
 * then on the standby (2 app processes; `--readers`, default 5 clients).
 */
import type { ChildProcess } from "node:child_process";
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { syntheticTraces } from "@/lib/demo";
import { FAMILIES } from "@/lib/trace/types";
import { closeDatabase, pool } from "@/lib/server/db/client";
import { ingestRecords } from "@/lib/server/ingest/ingest";
import { CSRF_HEADER } from "@/lib/api/auth";
import { SESSION_COOKIE } from "@/lib/server/auth/cookies";
import { createApiKey } from "@/lib/server/auth/api-keys";
import { createSession } from "@/lib/server/auth/sessions";
import { createUser } from "@/lib/server/auth/users";
import { benchDatabase, fmt } from "./db";
import { startBenchServer } from "./server";
import { cpuPer, cpuSince, cpuSnapshot, type CpuSplit } from "./cpu";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "60" }, connections: { type: "string", default: "50" }, port: { type: "string", default: "3500" }, pool: { type: "string", default: "20" }, "event-only": { type: "boolean", default: false }, "signed-in": { type: "boolean", default: false }, "api-key": { type: "boolean", default: false }, processes: { type: "string", default: "1,2,4" }, via: { type: "string", default: "as-configured" }, readers: { type: "string", default: "5" } } });
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const PORT = Number(values.port);
const TRACES = 2000;
const WARMUP = 3;
const EVENTS = 25;
const PROCESSES = values.processes.split(",").map(Number).filter((n) => Number.isInteger(n) && n > 0);
// how the app reaches PostgreSQL: as configured (the embedded server's Unix socket when it has one), or forced to loopback TCP
const VIA = values.via.split(",").filter((v): v is "as-configured" | "tcp" => v === "as-configured" || v === "tcp");

interface Measured {
  processes: number;
  via: string;
  writes: autocannon.Result;
  reads: autocannon.Result;
  confirmed: number;
  missing: number;
  errors: number;
  cpu: CpuSplit;
}

async function main() {
  const db = await benchDatabase("baton_bench_annotate");
  process.env.DATABASE_URL = db.url;
  const traces = [...syntheticTraces(TRACES, EVENTS, 3)];
  for (let i = 0; i < traces.length; i += 200) {
    await ingestRecords(traces.slice(i, i + 200).map((value, k) => ({ base: `$[${k}]`, value })), { upsert: false });
  }
  const auth = values["signed-in"] || values["api-key"] ? await teamHeaders(values["api-key"] ? "key" : "session") : {};
  await closeDatabase();
  // every (trace, event, family) is its own unit: writes never collapse into one row
  // every 25th write is a whole-trace task_success label (0/1), on a trace of its own
  const units: { trace: string; event: string | null; family: string }[] = [];
  const eventUnits = traces.flatMap((t) => t.events.flatMap((e) => FAMILIES.map((family) => ({ trace: t.trace_id, event: e.id, family }))));
  for (let i = 0; i < eventUnits.length; i++) {
    if (!values["event-only"] && i % 24 === 0 && i / 24 < traces.length) units.push({ trace: traces[traces.length - 1 - i / 24]!.trace_id, event: null, family: "task_success" });
    units.push(eventUnits[i]!);
  }
  const valueOf = (k: number) => (units[k]!.event === null ? k % 2 : ((k % 5) - 2) / 2);
  console.log(`bench:annotate — ${fmt(TRACES)} traces x ${EVENTS} events stored; ${CONNECTIONS} clients for ${SECONDS} s${values["event-only"] ? "; event-level labels only (nothing recomputed)" : ""}${values["api-key"] ? "; an annotator's API key (Bearer)" : values["signed-in"] ? "; signed in as an annotator (session cookie + CSRF token)" : "; open local mode"}`);

  let next = 0;
  const measured: Measured[] = [];
  try {
    for (const processes of PROCESSES) {
      for (const via of VIA) {
        const url = via === "tcp" ? tcpOnly(db.url) : db.url;
        console.log(`\n--- ${processes} app process${processes === 1 ? "" : "es"}, PostgreSQL through ${describeVia(url)}`);
        const server = await startServer(url, processes);
        try {
          measured.push({ ...(await measure(processes, server.pid)), via: describeVia(url) });
        } finally {
          await stopServer(server);
        }
      }
    }
  } finally {
    await db.close();
  }
  const one = measured.find((m) => m.processes === 1);
  const oneVia = (m: Measured) => measured.find((o) => o.processes === 1 && o.via === m.via) ?? one;
  console.log(`\n${CONNECTIONS} clients, ${SECONDS} s of writes, then ${Math.min(SECONDS, 15)} s of reads, per row`);
  console.log("processes | PostgreSQL through | writes/s | write p50 | write p99 | read p50 | read p99 | write/read p50 | writes/s vs 1 process | missing | CPU ms per write: app / PostgreSQL / clients | cores busy");
  for (const m of measured) {
    const per = cpuPer(m.cpu, m.writes.requests.total);
    const base = oneVia(m);
    console.log(`${m.processes} | ${m.via} | ${fmt(m.writes.requests.average)} | ${m.writes.latency.p50} ms | ${m.writes.latency.p99} ms | ${m.reads.latency.p50} ms | ${m.reads.latency.p99} ms | ${fmt(m.writes.latency.p50 / Math.max(m.reads.latency.p50, 0.001), 2)} | ${base ? `${fmt(m.writes.requests.average / Math.max(base.writes.requests.average, 1), 2)}x` : "-"} | ${m.missing} | ${fmt(per.app, 2)} / ${fmt(per.postgres, 2)} / ${fmt(per.bench, 2)} | ${fmt(m.cpu.machineBusy / (m.cpu.seconds * 1000), 2)}`);
  }
  for (const base of measured.filter((m) => m.processes === 1)) {
    // the most one machine's cores can give: every core busy at the CPU one write costs in one process's run
    const perWrite = cpuPer(base.cpu, base.writes.requests.total).all;
    const ceiling = (availableParallelism() * 1000) / Math.max(perWrite, 0.001);
    console.log(`ceiling on this machine (PostgreSQL through ${base.via}) at one process's CPU per write (${fmt(perWrite, 2)} ms, all ${availableParallelism()} cores busy): ${fmt(ceiling)} writes/s = ${fmt(ceiling / Math.max(base.writes.requests.average, 1), 2)}x one process`);
  }
  if (measured.some((m) => m.errors > 0 || m.missing > 0)) process.exitCode = 1;
  if (process.env.DATABASE_READ_URL) await replicaRoom();

  /** Dashboard and list reads alone, then while the clients write; on the primary, then on the standby. */
  async function replicaRoom(): Promise<void> {
    const standby = new URL(process.env.DATABASE_READ_URL!.split(",")[0]!.trim());
    standby.pathname = new URL(db.url).pathname;
    const readers = Number(values.readers);
    const pages = ["/api/traces?limit=50", "/api/dashboard", "/api/traces?limit=50&sort=tokens&dir=desc", "/api/metrics"];
    let k = 0;
    const readOpts: Partial<autocannon.Options> = { connections: readers, requests: [{ setupRequest: (req) => ({ ...req, path: pages[k++ % pages.length]! }) }] };
    const seconds = Math.min(SECONDS, 20);
    const rows: [string, autocannon.Result, autocannon.Result][] = [];
    for (const [where, env] of [["primary", { DATABASE_READ_URL: "" }], ["standby", { DATABASE_READ_URL: standby.toString() }]] as const) {
      console.log(`\n--- dashboard readers, reads on the ${where}`);
      const server = await startBenchServer(PORT, { DATABASE_URL: db.url, BATON_DB_POOL: values.pool, BATON_PROCESSES: "2", ...env });
      try {
        await run("warm-up (not measured): reads", readOpts, WARMUP);
        const alone = await run(`${readers} readers alone`, readOpts, seconds);
        const writing = writeOpts();
        const [under] = await Promise.all([run(`${readers} readers while ${CONNECTIONS} clients write`, readOpts, seconds), run("writes (not reported)", writing, seconds)]);
        rows.push([where, alone, under]);
      } finally {
        await stopServer(server);
      }
    }
    console.log(`\nreads of the list, the sorted list, the dashboard and /api/metrics in turn by ${readers} clients, ${seconds} s each; 2 app processes`);
    console.log("reads on | p50 alone | p99 alone | p50 while writing | p99 while writing | p50 slower by");
    for (const [where, alone, under] of rows) console.log(`${where} | ${alone.latency.p50} ms | ${alone.latency.p99} ms | ${under.latency.p50} ms | ${under.latency.p99} ms | ${fmt((100 * (under.latency.p50 - alone.latency.p50)) / Math.max(alone.latency.p50, 0.001), 1)}%`);
  }

  function writeOpts(): Partial<autocannon.Options> {
    return {
      method: "POST",
      headers: { "content-type": "application/json", ...auth },
      requests: [{
        setupRequest: (req) => {
          const u = units[next++ % units.length]!;
          return { ...req, path: `/api/traces/${encodeURIComponent(u.trace)}/annotations`, body: JSON.stringify({ event_id: u.event, family: u.family, value: valueOf(next - 1) }) };
        },
      }],
    };
  }

  async function measure(processes: number, appPid: number | undefined): Promise<Omit<Measured, "via">> {
    let confirmed: number[] = []; // units whose write was answered 201
    let recomputeMs = 0;
    let recomputes = 0;
    const writeRequests: Partial<autocannon.Options> = {
      method: "POST",
      headers: { "content-type": "application/json", ...auth },
      requests: [{
        setupRequest: (req, context) => {
          const k = next++ % units.length;
          const u = units[k]!;
          (context as { unit?: number }).unit = k;
          return { ...req, path: `/api/traces/${encodeURIComponent(u.trace)}/annotations`, body: JSON.stringify({ event_id: u.event, family: u.family, value: valueOf(k) }) };
        },
        onResponse: (status, _body, context, headers) => {
          if (status === 201) confirmed.push((context as { unit: number }).unit);
          const timing = /recompute;dur=([\d.]+)/.exec(String((headers as Record<string, string> | undefined)?.["server-timing"] ?? ""));
          if (timing && Number(timing[1]) > 0.5) {
            recomputes++;
            recomputeMs += Number(timing[1]);
          }
        },
      }],
    };
    let read = 0;
    const readRequests: Partial<autocannon.Options> = {
      headers: Object.fromEntries(Object.entries(auth).filter(([name]) => name !== CSRF_HEADER)),
      requests: [{ setupRequest: (req) => ({ ...req, path: `/api/traces/${encodeURIComponent(traces[read++ % traces.length]!.trace_id)}/annotations` }) }],
    };
    // warm-up, not measured: the first requests of a fresh server compile each route's chunks
    // (about half a second with 50 clients queued behind it); both routes are measured warm
    await run("warm-up (not measured): writes", writeRequests, WARMUP);
    await run("warm-up (not measured): reads", readRequests, WARMUP);
    confirmed = [];
    recomputeMs = 0;
    recomputes = 0;
    const cpuBefore = cpuSnapshot(appPid);
    const writes = await run("write", writeRequests);
    const cpu = cpuSince(cpuBefore, cpuSnapshot(appPid));
    const reads = await run("read baseline", readRequests, Math.min(SECONDS, 15));

    // every confirmed write must be a row with exactly the value written (a later run may overwrite none of them: units are not reused)
    process.env.DATABASE_URL = db.url;
    const { rows: stored } = await pool().query<{ trace_key: string; event_id: string; family: string; value: number }>("SELECT trace_key, event_id, family, value FROM annotations");
    await closeDatabase();
    const found = new Map(stored.map((r) => [`${r.trace_key}|${r.event_id}|${r.family}`, r.value]));
    const missing = confirmed.filter((k) => {
      const u = units[k]!;
      return found.get(`${u.trace}|${u.event ?? ""}|${u.family}`) !== valueOf(k);
    });
    const errors = writes.errors + writes.timeouts + writes.non2xx;
    console.log(`writes: ${fmt(confirmed.length)} confirmed (201), ${fmt(errors)} errors (${writes.errors} socket, ${writes.timeouts} timeouts, ${writes.non2xx} non-2xx); rows in all: ${fmt(stored.length)}; confirmed writes missing: ${missing.length}`);
    console.log(`write latency p50 ${writes.latency.p50} ms, p99 ${writes.latency.p99} ms, ${fmt(writes.requests.average)} writes/s`);
    console.log(`read  latency p50 ${reads.latency.p50} ms, p99 ${reads.latency.p99} ms, ${fmt(reads.requests.average)} reads/s (baseline)`);
    console.log(`ratio write/read p50: ${fmt(writes.latency.p50 / Math.max(reads.latency.p50, 0.001), 2)}`);
    const traceLevel = confirmed.filter((k) => units[k]!.event === null).length;
    const writeMs = writes.latency.mean * writes.requests.total;
    console.log(`recompute: ${fmt(recomputes)} of ${fmt(confirmed.length)} writes recomputed stored metrics (${fmt(traceLevel)} trace-level task_success labels), ${fmt(recomputeMs)} ms in all = ${fmt((100 * recomputeMs) / Math.max(writeMs, 1), 2)}% of the write time`);
    const per = cpuPer(cpu, writes.requests.total);
    const rest = (cpu.machineBusy - cpu.app - cpu.postgres - cpu.bench) / Math.max(writes.requests.total, 1);
    console.log(`CPU per write: app ${fmt(per.app, 2)} ms, PostgreSQL ${fmt(per.postgres, 2)} ms, the bench's clients ${fmt(per.bench, 2)} ms, the rest of the machine ${fmt(rest, 2)} ms; ${fmt(cpu.machineBusy / (cpu.seconds * 1000), 2)} of ${availableParallelism()} cores busy`);
    return { processes, writes, reads, confirmed: confirmed.length, missing: missing.length, errors, cpu };
  }
}

/** A site admin (ending open local mode) and an annotator of the traces' project: that annotator's request headers, signed in or with a key. */
async function teamHeaders(via: "session" | "key"): Promise<Record<string, string>> {
  await createUser({ email: "admin@bench.example", name: "Admin", password: "bench password", is_admin: true, memberships: [] });
  const annotator = await createUser({ email: "annotator@bench.example", name: "Annotator", password: "bench password", is_admin: false, memberships: [{ project: "default", role: "annotator" }] });
  if (via === "key") return { authorization: `Bearer ${(await createApiKey({ name: "bench", scopes: ["read", "annotate"], user_id: annotator.id }, annotator.id)).key}` };
  const session = await createSession(annotator.id);
  return { cookie: `${SESSION_COOKIE}=${session.token}`, [CSRF_HEADER]: session.csrfToken };
}

function run(title: string, opts: Partial<autocannon.Options>, seconds = SECONDS): Promise<autocannon.Result> {
  console.log(`running ${title} for ${seconds} s…`);
  return autocannon({ url: `http://127.0.0.1:${PORT}`, connections: CONNECTIONS, duration: seconds, ...opts });
}


/** The same server through loopback TCP: without node-postgres's and libpq's `host` parameter (a socket directory). */
function tcpOnly(url: string): string {
  const u = new URL(url);
  u.searchParams.delete("host");
  return u.toString();
}

function describeVia(url: string): string {
  const socket = new URL(url).searchParams.get("host");
  return socket?.startsWith("/") ? `a Unix socket (${socket})` : "TCP";
}

function startServer(url: string, processes: number): Promise<ChildProcess> {
  return startBenchServer(PORT, { DATABASE_URL: url, DATABASE_READ_URL: "", BATON_DB_POOL: values.pool, BATON_PROCESSES: String(processes) });
}

async function stopServer(child: ChildProcess): Promise<void> {
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
