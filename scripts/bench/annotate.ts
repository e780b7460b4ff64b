/**
 * `npm run bench:annotate [-- --seconds 60 --connections 50 --pool 20 --event-only --signed-in | --api-key]`
 *
 * Starts Baton (production build) on a fresh database holding 2,000 small
 * generated traces, then 50 concurrent clients write annotations through
 * `POST /api/traces/{id}/annotations` for 60 s (each write to its own unit,
 * so every one must be found afterwards). Prints p50/p99 latency and
 * throughput, counts the rows, and compares with a read baseline
 * (`GET /api/traces/{id}/annotations`) run against the same server.
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
 */
import type { ChildProcess } from "node:child_process";
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

const { values } = parseArgs({ options: { seconds: { type: "string", default: "60" }, connections: { type: "string", default: "50" }, port: { type: "string", default: "3500" }, pool: { type: "string", default: "20" }, "event-only": { type: "boolean", default: false }, "signed-in": { type: "boolean", default: false }, "api-key": { type: "boolean", default: false } } });
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const PORT = Number(values.port);
const TRACES = 2000;
const WARMUP = 3;
const EVENTS = 25;

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

  const server = await startServer(db.url);
  try {
    let next = 0;
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
    const warmupWrites = confirmed.length;
    confirmed = [];
    recomputeMs = 0;
    recomputes = 0;
    const writes = await run("write", writeRequests);
    const reads = await run("read baseline", readRequests, Math.min(SECONDS, 15));

    // every confirmed write must be a row with exactly the value written
    const { rows: stored } = await pool().query<{ trace_key: string; event_id: string; family: string; value: number }>("SELECT trace_key, event_id, family, value FROM annotations");
    const found = new Map(stored.map((r) => [`${r.trace_key}|${r.event_id}|${r.family}`, r.value]));
    const missing = confirmed.filter((k) => {
      const u = units[k]!;
      return found.get(`${u.trace}|${u.event ?? ""}|${u.family}`) !== valueOf(k);
    });
    const errors = writes.errors + writes.timeouts + writes.non2xx;
    console.log(`\nwrites: ${fmt(confirmed.length)} confirmed (201), ${fmt(errors)} errors (${writes.errors} socket, ${writes.timeouts} timeouts, ${writes.non2xx} non-2xx)`);
    console.log(`rows afterwards: ${fmt(stored.length)} (${fmt(warmupWrites)} from the warm-up; ${fmt(stored.length - warmupWrites - confirmed.length)} more were in flight when the clock stopped); confirmed writes missing: ${missing.length}`);
    console.log(`write latency p50 ${writes.latency.p50} ms, p99 ${writes.latency.p99} ms, ${fmt(writes.requests.average)} writes/s`);
    console.log(`read  latency p50 ${reads.latency.p50} ms, p99 ${reads.latency.p99} ms, ${fmt(reads.requests.average)} reads/s (baseline)`);
    console.log(`ratio write/read p50: ${fmt(writes.latency.p50 / Math.max(reads.latency.p50, 0.001), 2)}`);
    const traceLevel = confirmed.filter((k) => units[k]!.event === null).length;
    const writeMs = writes.latency.mean * writes.requests.total;
    console.log(`recompute: ${fmt(recomputes)} of ${fmt(confirmed.length)} writes recomputed stored metrics (${fmt(traceLevel)} trace-level task_success labels), ${fmt(recomputeMs)} ms in all = ${fmt((100 * recomputeMs) / Math.max(writeMs, 1), 2)}% of the write time`);
    await closeDatabase();
    if (errors > 0 || missing.length > 0) process.exitCode = 1;
  } finally {
    await stopServer(server);
    await db.close();
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

function startServer(url: string): Promise<ChildProcess> {
  return startBenchServer(PORT, { DATABASE_URL: url, BATON_DB_POOL: values.pool });
}

async function stopServer(child: ChildProcess): Promise<void> {
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
