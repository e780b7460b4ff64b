/**
 * `npm run bench:render [-- --sizes 1000,20000,100000 --baseline-max 20000 --url http://127.0.0.1:3000]`
 *
 * Renders generated traces of each size in Chromium (Playwright) twice:
 * Baton's graph view (/traces/{id}/graph) and React Flow's default
 * configuration drawing the same nodes at the same positions
 * (/bench/baseline). Prints time to interactive after navigation (the graph
 * view cold, i.e. the first open after ingest, and warm) and the median and
 * 95th-percentile frame time while dragging the pane, with Baton/baseline
 * ratios. The baseline runs up to --baseline-max events and gets
 * --baseline-timeout ms; past that it is reported as "did not finish".
 *
 * Two cold opens per size, in the same run: "on demand", the trace's graph
 * pages built by the open itself (its background job, if any, waited for
 * and its stored pages then deleted), and "background", the first open of
 * another copy of the trace (another trace_id) after its background build
 * (lib/server/graph-pages, traces of BATON_GRAPH_PREBUILD_EVENTS or more
 * events) was waited for. Each line says the load average when it started.
 *
 * Without --url it starts its own server (`scripts/start.ts`: embedded
 * PostgreSQL in .baton-bench/render or BATON_BENCH_DATA_DIR, on
 * BATON_BENCH_PG_PORT (24334), app on --port or BATON_BENCH_PORT (3390),
 * no demo traces, and a build with BATON_BENCH_PAGES=1 in .next-bench, or
 * BATON_BENCH_DIST_DIR, made when stale) and stops it at the end. A server
 * given by --url must have been built and started with BATON_BENCH_PAGES=1:
 * other builds have no /bench/baseline route at all; the background build
 * is then measured only with --database-url (its database, to see its jobs).
 *
 * `--waterfall` also prints, for each graph view open, where its time went:
 * every request after navigation (start and end in ms, what it asked for)
 * and the main thread's long tasks until it was interactive.
 */
import type { ChildProcess } from "node:child_process";
import pg from "pg";
import { existsSync } from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { chromium, type Browser, type Page, type Request } from "@playwright/test";
import { syntheticTrace } from "@/lib/demo";
import { fmt } from "./db";
import { LONG_TASK_RECORDER, panFrames, timeToInteractive, type FrameStats, type Interactive } from "./render-measure";
import { startBenchServer } from "./server";
import { startEmbeddedPostgres } from "@/lib/server/db/embedded";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "1000,20000,100000" },
    "baseline-max": { type: "string", default: "20000" },
    "baseline-timeout": { type: "string", default: "90000" },
    url: { type: "string" },
    port: { type: "string", default: process.env.BATON_BENCH_PORT ?? "3390" },
    "database-url": { type: "string" },
    waterfall: { type: "boolean", default: false },
  },
});
const SIZES = values.sizes.split(",").map(Number);
const BASELINE_MAX = Number(values["baseline-max"]);
const BASELINE_TIMEOUT = Number(values["baseline-timeout"]);
const VIEWPORT = { width: 1600, height: 900 };
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const DATA_DIR = process.env.BATON_BENCH_DATA_DIR ?? ".baton-bench/render";
const PG_PORT = process.env.BATON_BENCH_PG_PORT ?? "24334";

interface Pans {
  short: FrameStats | string;
  long: FrameStats | string;
}

interface Row {
  size: number;
  /** the open built the pages itself */
  cold: Interactive | string;
  /** the first open after the background build */
  prebuilt: Interactive | string;
  /** the background build: how long its job took, and from ingest until done */
  job: string;
  load: string;
  warm: Interactive | string;
  drawn: string;
  pan: Pans;
  baseline: Interactive | string;
  baselinePan: Pans;
}

const NOT_RUN = (why: string): Pans => ({ short: why, long: why });

async function main() {
  const server = values.url ? null : await startServer();
  const base = values.url ?? `http://127.0.0.1:${values.port}`;
  const databaseUrl = values["database-url"] ?? (values.url ? null : (await startEmbeddedPostgres({ dataDir: DATA_DIR, port: Number(PG_PORT), database: "baton" })).url);
  const db = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : null;
  await db?.connect();
  const browser = await chromium.launch({
    ...(existsSync(CHROMIUM) && { executablePath: CHROMIUM }),
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
  console.log(`bench:render — Chromium ${browser.version()} headless, ${VIEWPORT.width}x${VIEWPORT.height}, ${os.cpus().length} CPUs, ${base}`);
  const rows: Row[] = [];
  try {
    for (const size of SIZES) rows.push(await benchSize(browser, base, size, db));
  } finally {
    await db?.end();
    await browser.close();
    server?.kill("SIGTERM");
  }
  printTable(rows);
}

async function ingest(base: string, size: number, traceId: string) {
  const trace = syntheticTrace({ events: size, seed: 7, traceId });
  const started = performance.now();
  const response = await fetch(`${base}/api/traces?upsert=1`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(trace) });
  if (response.status !== 201) throw new Error(`ingest of ${traceId} failed: ${response.status} ${await response.text()}`);
  return { trace, ms: performance.now() - started };
}

const loadAverage = () => os.loadavg().map((l) => l.toFixed(1)).join(" ");

interface JobOutcome {
  /** the job's own time (the build and the store), as the worker measured it */
  buildMs: number;
  /** from the ingest's answer until the job was done */
  waitedMs: number;
  outcome: string;
}

/** Waits for the background build of the trace's graph pages; null when none was queued (a trace under the threshold). */
async function backgroundBuild(db: pg.Client, traceId: string, since: number): Promise<JobOutcome | null> {
  const row = await db.query<{ id: number }>("SELECT id FROM traces WHERE trace_id = $1", [traceId]);
  const id = row.rows[0]!.id;
  // the ingest queues the job before it answers
  for (;;) {
    const jobs = await db.query<{ state: string; output: { outcome?: string; ms?: number } | null }>(
      "SELECT state, output FROM pgboss.job WHERE name = 'graph-pages' AND (data->>'traceDbId')::int = $1",
      [id],
    ).catch(() => ({ rows: [] }));
    const job = jobs.rows[0];
    if (!job) return null;
    if (job.state === "completed") return { buildMs: job.output?.ms ?? NaN, waitedMs: performance.now() - since, outcome: job.output?.outcome ?? "?" };
    if (job.state === "failed" || job.state === "cancelled") throw new Error(`the background build of ${traceId} ${job.state}: ${JSON.stringify(job.output)}`);
    if (performance.now() - since > 10 * 60_000) throw new Error(`the background build of ${traceId} did not finish in 10 minutes (is a worker running? BATON_GRAPH_WORKER)`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function benchSize(browser: Browser, base: string, size: number, db: pg.Client | null): Promise<Row> {
  const traceId = `bench-render-${size}`;
  const onDemandId = `${traceId}-on-demand`;
  const ready = `document.querySelector('[data-testid=graph-canvas]')?.getAttribute('data-ready') === 'true' && document.querySelector('.react-flow__node')`;
  const loads: string[] = [];

  // on demand: the open builds the pages (a background build, if one was queued, is waited for and its pages deleted)
  const first = await ingest(base, size, onDemandId);
  const trace = first.trace;
  console.log(`\n${fmt(size)} events, ${fmt(trace.edges.length)} edges, ${fmt(new Set(trace.events.map((e) => e.agent)).size)} agents — ingested in ${fmt(first.ms)} ms`);
  const queued = db ? await backgroundBuild(db, onDemandId, performance.now()) : null;
  if (db && queued) await db.query("DELETE FROM graph_pages WHERE trace_id = (SELECT id FROM traces WHERE trace_id = $1)", [onDemandId]);
  loads.push(loadAverage());
  const cold = await measure(browser, `${base}/traces/${onDemandId}/graph`, ready, 60_000);
  console.log(`  Baton cold, built on demand by the open (load average ${loads.at(-1)}): ${show(cold.tti)}`);

  // background: the first open after the job that the ingest queued is done
  const second = await ingest(base, size, traceId);
  const answered = performance.now();
  const job = db ? await backgroundBuild(db, traceId, answered) : null;
  const jobText = !db ? "not measured (no --database-url)" : job ? `${fmt(job.buildMs)} ms (done ${fmt(job.waitedMs)} ms after the ingest's answer; ${job.outcome})` : "none queued (under BATON_GRAPH_PREBUILD_EVENTS)";
  console.log(`  ingested again as ${traceId} in ${fmt(second.ms)} ms; background build: ${jobText}`);
  loads.push(loadAverage());
  const graphUrl = `${base}/traces/${traceId}/graph`;
  const prebuilt = await measure(browser, graphUrl, ready, 60_000);
  console.log(`  Baton cold, ${job ? "after the background build" : "no background build: built on demand"} (load average ${loads.at(-1)}): ${show(prebuilt.tti)}`);
  loads.push(loadAverage());
  const warm = await measure(browser, graphUrl, ready, 60_000, true);
  const row: Row = { size, cold: cold.tti, prebuilt: prebuilt.tti, job: job ? `${fmt(job.buildMs)} ms` : db ? "none" : "—", load: loads.join(" / "), warm: warm.tti, drawn: warm.drawn, pan: warm.pan, baseline: "not run", baselinePan: NOT_RUN("not run") };
  console.log(`  Baton: warm (load average ${loads.at(-1)}) ${show(warm.tti)}, ${warm.drawn}, short pan ${showPan(warm.pan.short)}, long pan ${showPan(warm.pan.long)}`);

  if (size > BASELINE_MAX) {
    row.baseline = `not run (capped at ${fmt(BASELINE_MAX)})`;
    row.baselinePan = NOT_RUN(row.baseline);
  } else {
    const baselineReady = `document.querySelector('[data-testid=baseline-status]')?.getAttribute('data-ready') === 'true'`;
    const b = await measure(browser, `${base}/bench/baseline?trace=${traceId}`, baselineReady, BASELINE_TIMEOUT, true);
    row.baseline = b.tti;
    row.baselinePan = b.pan;
    console.log(`  React Flow default: ${show(b.tti)}, ${b.drawn}, short pan ${showPan(b.pan.short)}, long pan ${showPan(b.pan.long)}`);
  }
  return row;
}

async function measure(browser: Browser, url: string, ready: string, timeoutMs: number, withPan = false) {
  // the readiness probe is a string Playwright evaluates, which Baton's CSP (no 'unsafe-eval') refuses; measuring is not what the CSP guards
  const context = await browser.newContext({ viewport: VIEWPORT, bypassCSP: true });
  await context.addInitScript(LONG_TASK_RECORDER);
  const page = await context.newPage();
  const requests: { url: string; start: number; end: number | null; status: number | null }[] = [];
  const started = Date.now();
  if (values.waterfall) {
    page.on("request", (r) => requests.push({ url: r.url(), start: Date.now() - started, end: null, status: null }));
    const done = (r: Request, status: number | null) => {
      const entry = requests.find((q) => q.url === r.url() && q.end === null);
      if (entry) Object.assign(entry, { end: Date.now() - started, status });
    };
    page.on("requestfinished", (r) => void r.response().then((response) => done(r, response?.status() ?? null)));
    page.on("requestfailed", (r) => done(r, null));
  }
  try {
    await page.goto(url, { waitUntil: "commit" });
    const tti = await timeToInteractive(page, ready, timeoutMs);
    if (values.waterfall) await printWaterfall(page, url, requests, tti);
    const drawn = `${fmt(await page.locator(".react-flow__node").count())} nodes / ${fmt(await page.locator(".react-flow__edge").count())} edges in the DOM`;
    const pan: Pans = withPan
      ? {
          short: await panFrames(page, ".react-flow__pane", { strokes: 1, steps: 60, stepPx: 12, back: true }),
          long: await panFrames(page, ".react-flow__pane", { strokes: 3, steps: 45, stepPx: 24, back: false }),
        }
      : NOT_RUN("not measured");
    return { tti, drawn, pan };
  } catch (error) {
    const reason = error instanceof Error && error.name === "TimeoutError" ? `did not finish in ${fmt(timeoutMs / 1000)} s` : `failed: ${String(error).split("\n")[0]}`;
    return { tti: reason, drawn: "—", pan: NOT_RUN(reason) };
  } finally {
    await context.close();
  }
}

/** Where one open's time went: its requests (ms since navigation, as Playwright saw them) and the long tasks of the main thread. */
async function printWaterfall(page: Page, url: string, requests: { url: string; start: number; end: number | null; status: number | null }[], tti: Interactive) {
  const tasks = await page.evaluate<[number, number][]>("window.__longTasks ?? []");
  console.log(`  waterfall of ${url}: ready ${fmt(tti.readyMs)} ms, interactive ${fmt(tti.interactiveMs)} ms`);
  for (const r of requests) {
    const u = new URL(r.url);
    if (u.pathname.startsWith("/_next/static")) continue;
    console.log(`    ${String(r.start).padStart(6)} → ${r.end === null ? "   …  " : String(r.end).padStart(6)} ms  ${r.status ?? "—"}  ${u.pathname}${u.search}`.slice(0, 200));
  }
  const long = tasks.filter(([a, b]) => b - a >= 100).map(([a, b]) => `${fmt(a)}+${fmt(b - a)}`);
  console.log(`    long tasks: ${fmt(tasks.length)}, ${fmt(tasks.reduce((sum, [a, b]) => sum + b - a, 0))} ms in all; of 100 ms or more (start+length): ${long.join(", ") || "none"}`);
}

const show = (x: Interactive | string) => (typeof x === "string" ? x : `${fmt(x.interactiveMs)} ms (ready ${fmt(x.readyMs)} ms)`);
const showPan = (x: FrameStats | string) => (typeof x === "string" ? x : `median ${fmt(x.medianMs, 1)} ms, p95 ${fmt(x.p95Ms, 1)} ms over ${x.frames} frames`);
const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? "—" : `${fmt(a / b, 2)}x`);
const num = (x: Interactive | FrameStats | string, key: "interactiveMs" | "medianMs") => (typeof x === "string" ? undefined : (x as unknown as Record<string, number>)[key]);

function printTable(rows: Row[]) {
  const cell = (x: Interactive | string) => (typeof x === "string" ? x : `${fmt(x.interactiveMs)} ms`);
  const pan = (x: FrameStats | string) => (typeof x === "string" ? x : `${fmt(x.medianMs, 1)} / ${fmt(x.p95Ms, 1)} ms`);
  console.log("\n| events | Baton TTI cold, on demand | Baton TTI cold, after background build | background build | Baton TTI warm | load average (1, 5, 15 min) at each | RF default TTI | TTI ratio RF/Baton (warm) | Baton short pan | RF short pan | Baton long pan | RF long pan | median frame ratio RF/Baton (short, long) |");
  console.log("|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    const frames = `${ratio(num(r.baselinePan.short, "medianMs"), num(r.pan.short, "medianMs"))}, ${ratio(num(r.baselinePan.long, "medianMs"), num(r.pan.long, "medianMs"))}`;
    console.log(
      `| ${fmt(r.size)} | ${cell(r.cold)} | ${cell(r.prebuilt)} | ${r.job} | ${cell(r.warm)} | ${r.load} | ${cell(r.baseline)} | ${ratio(num(r.baseline, "interactiveMs"), num(r.warm, "interactiveMs"))} | ${pan(r.pan.short)} | ${pan(r.baselinePan.short)} | ${pan(r.pan.long)} | ${pan(r.baselinePan.long)} | ${frames} |`,
    );
  }
  console.log(
    "\nTTI: navigation start until the graph is drawn and the main thread then stays free of long tasks for 500 ms. Cold, on demand: first open after ingest, the server building the trace's columns for it (its background build, if any, waited for and its pages deleted); cold, after background build: first open of another copy of the trace once the job its ingest queued (traces of BATON_GRAPH_PREBUILD_EVENTS or more events) was done, the server reading the stored pages; warm: the next open. Load averages: when the on-demand, background and warm opens started." +
      "\nPans: frame times (requestAnimationFrame intervals, median / p95; 16.7 ms = 60 Hz) while the pane is dragged by the mouse: short = 30 steps of 12 px left and 30 back; long = 3 drags of 45 steps of 24 px to the left (about 3,200 px), which leaves the graph view's drawn window several times (new scenes from the worker).",
  );
}

function startServer(): Promise<ChildProcess> {
  // the baseline page exists only in a build made with BATON_BENCH_PAGES=1: a dist dir of its own keeps it out of `npm start`'s build
  return startBenchServer(values.port, {
    BATON_DATA_DIR: DATA_DIR,
    BATON_PG_PORT: PG_PORT,
    BATON_BENCH_PAGES: "1",
    BATON_DIST_DIR: process.env.BATON_BENCH_DIST_DIR ?? ".next-bench",
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
