/**
 * `npm run bench:scale [-- --sizes 1000000,10000000,30000000 --runs 5 --templates 2000 --keep --reuse --grow]`
 *
 * Growth, measured: fills one database (its own embedded PostgreSQL in
 * .baton-bench/scale, port BATON_BENCH_PG_PORT or 24371; DATABASE_URL to use
 * another server) to each size in events, in order, and measures at each one
 * against the same database, through the route handlers the server runs
 * (the same code as `next start` minus its HTTP layer, called in this process):
 * - the trace list: default sort, a filter (system), sorted by tokens; each
 *   first page of 50 and the page's total (GET /api/traces + the count the list page shows);
 * - content search: a rare phrase (a URL of one template event) and a common one (a topic in ~10% of events),
 *   as the list page reads them (terms scanned, the page and its total), and both again as the page read
 *   them before (the trigram index alone, the exact total of every match, then the page: the baseline);
 * - GET /api/metrics and GET /api/dashboard from the metric summaries (all traces, and system=sys-3:
 *   a filter on the summaries' grain), with judges=all (E1 corrected by the traces judges labelled),
 *   with a filter that falls back to the scan (task_id), and the scan itself on all traces (summaries off); beside them the
 *   one-pass baseline: one SQL scan reading each of the dashboard's columns once (all traces, sys-3, task-7);
 * - GET /api/decisions from the decision summaries (all traces, system=sys-3, policy_version=ckpt-2), with
 *   a filter that falls back to the scan (task_id=task-7), the scan itself (summaries off: all traces, sys-3),
 *   beside the one pass over the decision columns it reads (all traces, sys-3, task-7), and GET /api/heatmap?kind=role-family (task-7, and sys-3 with
 *   max_traces=50) from the role sums kept per trace, on a first view (nothing kept) and with overridden weights (computed per request),
 *   beside one pass over those traces' events;
 * - label writes under load: --clients concurrent writers for --seconds through
 *   POST /api/traces/{id}/annotations, trace-level task_success labels (they change E1 and so the
 *   summaries): with the summaries' triggers disabled (before), the metric summaries' only, and all
 *   enabled (p50, p99, writes/s);
 * - ingest throughput: --ingest fresh traces through Baton's ingest path into the filled database,
 *   the same three ways (with --write-rounds n, the three ways n times in turn, and the medians); the time `npm run summaries:rebuild` takes;
 * - disk per event: the database's size over its events.
 * The fill: templates through the real ingest path, then copied with SQL
 * (scripts/bench/scale-fill.ts). Prints a table per size, then each figure's
 * growth exponent (log-log slope between consecutive sizes) and its projection
 * to 100 M and 1 B events from the last slope. Before each fill it checks the
 * disk: it stops at the last size whose projected database leaves --spare-gb free.
 * `--reads-only` measures the reads and stops (no writes, no rebuild: a kept database stays as it is).
 * The data directory is deleted at the end unless --keep; `--grow` grows a kept
 * database to the sizes above its own (e.g. 10 M kept, then 30 M); `--reuse` measures
 * a kept database again at its current size (e.g. after adding an index).
 * Heavy: never part of npm test.
 */
import { rmSync, statfsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { GET as listRoute } from "@/app/api/traces/route";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { GET as dashboardRoute } from "@/app/api/dashboard/route";
import { GET as decisionsRoute } from "@/app/api/decisions/route";
import { GET as heatmapRoute } from "@/app/api/heatmap/route";
import { POST as annotate } from "@/app/api/traces/[id]/annotations/route";
import { traceListQuery } from "@/lib/api/filters";
import { DASHBOARD_METRICS } from "@/lib/dashboard";
import { closeDatabase, prisma } from "@/lib/server/db/client";
import { countTraces, listPageSql, listTotal, listTraces, MAX_RANKED, scanSearch } from "@/lib/server/queries/trace-list";
import { setWordPrefilter } from "@/lib/server/queries/trace-search";
import { applyMigrations } from "@/lib/server/db/migrate";
import { setSummaries } from "@/lib/server/summaries/read";
import { foldDecisionSummaries, pendingRows, startFoldWorker, stopFoldWorker } from "@/lib/server/summaries/fold";
import { rebuildSummaries } from "@/lib/server/summaries/rebuild";
import { getRequest, jsonRequest, params } from "@/scripts/lib/test-http";
import { median, medianAsyncMs } from "./compute/measure";
import { cpuPer, cpuSince, cpuSnapshot } from "./cpu";
import { benchDatabase, fmt } from "./db";
import { copyTemplates, ingestTemplates, labelTemplates, log, rebuild, secondaryIndexes, templatesTable } from "./scale-fill";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "1000000,10000000,30000000" },
    templates: { type: "string", default: "2000" },
    runs: { type: "string", default: "5" },
    clients: { type: "string", default: "4" },
    seconds: { type: "string", default: "10" },
    "write-rounds": { type: "string", default: "1" },
    ingest: { type: "string", default: "500" },
    "spare-gb": { type: "string", default: "25" },
    keep: { type: "boolean", default: false },
    reuse: { type: "boolean", default: false },
    grow: { type: "boolean", default: false },
    explain: { type: "boolean", default: false },
    "reads-only": { type: "boolean", default: false },
  },
});
const SIZES = values.sizes.split(",").map(Number).sort((a, b) => a - b);
const TEMPLATES = Number(values.templates);
const RUNS = Number(values.runs);
const CLIENTS = Number(values.clients);
const SECONDS = Number(values.seconds);
const WRITE_ROUNDS = Number(values["write-rounds"]);
const INGEST = Number(values.ingest);
const SPARE = Number(values["spare-gb"]) * 1024 ** 3;
const DATA_DIR = ".baton-bench/scale";
const PORT = Number(process.env.BATON_BENCH_PG_PORT ?? 24371);
/** a server named by DATABASE_URL (not restarted, its settings only reloaded); else the embedded one */
const EXTERNAL = process.env.DATABASE_URL;

/** PostgreSQL settings for a database of tens of GB on a machine of this size (docs/scale.md). */
const SETTINGS: Record<string, string> = {
  shared_buffers: "2GB",
  effective_cache_size: "12GB",
  work_mem: "32MB",
  maintenance_work_mem: "1GB",
  max_wal_size: "16GB",
  checkpoint_timeout: "30min",
  random_page_cost: "1.1",
};

interface Figures {
  events: number;
  traces: number;
  ms: Record<string, number>;
  writeP50: number;
  writeP99: number;
  writesPerS: number;
  ingestPerS: number;
  /** the same with the summaries' triggers disabled, in the same run (before) */
  writeP50Before: number;
  writesPerSBefore: number;
  ingestPerSBefore: number;
  /** with the metric summaries' triggers only (the decision summaries' disabled) */
  writeP50Metrics: number;
  ingestPerSMetrics: number;
  rebuildS: number;
  bytesPerEvent: number;
  fillS: number;
}

const READS: { name: string; goal?: number }[] = [
  { name: "list, default sort", goal: 300 },
  { name: "list, filter system=sys-3", goal: 300 },
  { name: "list, sort by tokens", goal: 300 },
  { name: "search, rare phrase", goal: 1000 },
  { name: "search, common phrase", goal: 1000 },
  { name: "search, rare phrase, as before: trigram index alone, exact total (baseline)" },
  { name: "search, common phrase, as before: trigram index alone, exact total (baseline)" },
  { name: "GET /api/metrics (summaries)", goal: 150 },
  { name: "GET /api/metrics?system=sys-3 (summaries)", goal: 150 },
  { name: "GET /api/metrics?task_id=task-7 (falls back: scan)" },
  { name: "GET /api/metrics?judges=all (summaries, E1 corrected by the judged traces)" },
  { name: "GET /api/metrics, the scan (summaries off)" },
  { name: "GET /api/dashboard (summaries)", goal: 150 },
  { name: "GET /api/dashboard?system=sys-3 (summaries)", goal: 150 },
  { name: "GET /api/dashboard?task_id=task-7 (falls back: scan)" },
  { name: "GET /api/dashboard?judges=all (summaries, E1 corrected by the judged traces)" },
  { name: "GET /api/dashboard, the scan (summaries off)" },
  { name: "one pass over the dashboard's columns, in SQL (baseline)" },
  { name: "one pass, system=sys-3 (baseline)" },
  { name: "one pass, task_id=task-7 (baseline)" },
  { name: "GET /api/decisions (summaries)", goal: 150 },
  { name: "GET /api/decisions?system=sys-3 (summaries)", goal: 150 },
  { name: "GET /api/decisions?policy_version=ckpt-2 (summaries)", goal: 150 },
  { name: "GET /api/decisions?task_id=task-7 (falls back: scan)" },
  { name: "GET /api/decisions, the scan (summaries off)" },
  { name: "GET /api/decisions?system=sys-3, the scan (summaries off)" },
  { name: "one pass over the decisions' columns, in SQL (baseline)" },
  { name: "one pass over the decisions' columns, system=sys-3 (baseline)" },
  { name: "one pass over the decisions' columns, task_id=task-7 (baseline)" },
  { name: "GET /api/heatmap?kind=role-family&task_id=task-7 (role sums kept)", goal: 150 },
  { name: "GET /api/heatmap?kind=role-family&system=sys-3&max_traces=50 (role sums kept)", goal: 150 },
  { name: "GET /api/heatmap?kind=role-family (all traces: the oldest 200, role sums kept)", goal: 150 },
  { name: "GET /api/heatmap?kind=role-family&task_id=task-7, nothing kept (the first view: sums computed and kept)" },
  { name: "GET /api/heatmap?kind=role-family&task_id=task-7&w.cost=-1 (weights overridden: computed per request)" },
  { name: "one pass over the heatmap's traces' events, task_id=task-7 (baseline)" },
  { name: "one pass over the heatmap's traces' events, system=sys-3, 50 traces (baseline)" },
];

async function ok(response: Response): Promise<unknown> {
  if (response.status !== 200) throw new Error(`${response.status} ${await response.text()}`);
  return response.json();
}

/** `run` with the search's word prefilter off: the trigram index alone. */
async function withoutWords(run: () => Promise<void>): Promise<void> {
  setWordPrefilter(false);
  try {
    await run();
  } finally {
    setWordPrefilter(true);
  }
}

/** The list page: its first page (the API) and its total, as app/page.tsx asks for them (in parallel). */
async function listPage(search: string): Promise<void> {
  const query = traceListQuery.parse(Object.fromEntries(new URLSearchParams(search)));
  const scans = await scanSearch(query);
  const ranked = query.sort === "match" && query.text !== undefined;
  const counted = ranked ? await listTotal(query, null, scans) : undefined;
  await Promise.all([listTraces(query, null, { scans, total: counted }), counted ?? listTotal(query, null, scans)]);
  // the route answers with the same page
  if (!ranked) await ok(await listRoute(getRequest(`/api/traces?${search}`), params({})));
}

/**
 * The list page as it read a search before term scans (the baseline): the
 * exact total of every matching trace first, then the page, each reading
 * every matching event (the word prefilter is switched off by the caller).
 */
async function listPageExact(search: string): Promise<void> {
  const query = traceListQuery.parse(Object.fromEntries(new URLSearchParams(search)));
  const total = await countTraces(query);
  const paged = total > MAX_RANKED ? { ...query, sort: "created" as const } : query;
  await prisma().$queryRaw(listPageSql(paged));
}

function timeMs(run: () => Promise<unknown>): Promise<number> {
  return medianAsyncMs(run, RUNS);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** Each of the dashboard's columns once, in one scan of the rows `where` selects. */
const onePass = (where: string) =>
  `SELECT count(*), count(e1), sum(e1), ${DASHBOARD_METRICS.map((m) => (m.kind === "boolean" ? `${m.key}::int` : m.key)).map((c) => `min(${c}::float8), max(${c}::float8), avg(${c}::float8)`).join(", ")} FROM traces ${where}`;

/** Each column GET /api/decisions reads, once, in one scan of the rows `where` selects (traces with their decision row). */
const onePassDecisions = (where: string) =>
  `SELECT count(*), count(t.e1), sum(t.e1), sum(d.r_total), ${["spawn", "delegate", "communicate", "aggregate", "stop"].map((k) => `count(*) FILTER (WHERE d.${k}_taken)`).join(", ")},
     max(t.group_id), max(d.agents_spawned_bucket), max(d.messages_per_agent_bucket), max(d.aggregate_fan_in_bucket), max(d.delegate_role_buckets), max(t.stop_reason), max(t.verdict::text), max(d.policy_version)
   FROM traces t JOIN trace_decisions d ON d.trace_id = t.id ${where}`;

/** The events of the traces a role-family heatmap reads (the oldest `limit` of `where`), each once. */
const onePassHeatmap = (where: string, limit: number) =>
  `SELECT count(*), sum(e.tokens), count(DISTINCT e.agent) FROM events e WHERE e.trace_id IN (SELECT id FROM traces ${where} ORDER BY created_at, id LIMIT ${limit})`;

/** `run` with the views' summaries off: the scan the views fall back to. */
async function withoutSummaries(run: () => Promise<unknown>): Promise<void> {
  setSummaries(false);
  try {
    await run();
  } finally {
    setSummaries(true);
  }
}

/** Enables or disables the metric summaries' triggers and the decision summaries' ones. */
async function summaryTriggers(client: pg.Client, on: { metrics: boolean; decisions: boolean }): Promise<void> {
  const verb = (x: boolean) => (x ? "ENABLE" : "DISABLE");
  await client.query(`ALTER TABLE traces ${[...["insert", "update", "delete"].map((op) => `${verb(on.metrics)} TRIGGER summaries_${op}`), ...["update", "delete"].map((op) => `${verb(on.decisions)} TRIGGER decision_summaries_traces_${op}`)].join(", ")}`);
  await client.query(`ALTER TABLE trace_decisions ${["insert", "update", "delete"].map((op) => `${verb(on.decisions)} TRIGGER decision_summaries_decisions_${op}`).join(", ")}`);
}

let ingestBatch = 0;
/** --ingest fresh traces through the ingest path; events/s. */
async function ingestRun(prefix: string): Promise<number> {
  const started = performance.now();
  const ingested = await ingestTemplates(0, INGEST, `${prefix}-${ingestBatch++}`, 100);
  return ingested / ((performance.now() - started) / 1000);
}

/**
 * --clients writers for --seconds through POST /api/traces/{id}/annotations:
 * event-level step_quality labels, or trace-level task_success ones (which change E1, and so the summaries).
 */
/** A label load's p50 and p99 (ms), writes a second, and CPU milliseconds a write: PostgreSQL's and this process's (the route handlers'). */
async function labelLoad(client: pg.Client, family: "step_quality" | "task_success" = "step_quality"): Promise<{ p50: number; p99: number; perS: number; pgMs: number; nodeMs: number }> {
  const { rows } = await client.query<{ trace_id: string; event_id: string }>(
    `SELECT t.trace_id, e.event_id FROM (SELECT id, trace_id FROM traces WHERE id % greatest(1, (SELECT count(*) FROM traces) / 2000) = 0 LIMIT 2000) t
     JOIN events e ON e.trace_id = t.id AND e.seq = 2`,
  );
  const times: number[] = [];
  const cpuBefore = cpuSnapshot(undefined);
  const until = performance.now() + SECONDS * 1000;
  let k = 0;
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (performance.now() < until) {
      const unit = rows[k++ % rows.length]!;
      const body = family === "step_quality" ? { event_id: unit.event_id, family, value: (k % 3) - 1 } : { family, value: k % 2 };
      const started = performance.now();
      const response = await annotate(jsonRequest(`/api/traces/${encodeURIComponent(unit.trace_id)}/annotations`, body), params({ id: unit.trace_id }));
      if (response.status !== 201) throw new Error(`label write: ${response.status} ${await response.text()}`);
      times.push(performance.now() - started);
    }
  }));
  const cpu = cpuPer(cpuSince(cpuBefore, cpuSnapshot(undefined)), times.length);
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), perS: times.length / SECONDS, pgMs: cpu.postgres, nodeMs: cpu.bench };
}

/** A phrase of one template event (a URL with its number, from the templates after the 777th), for the rare search. */
async function rarePhrase(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ content: string }>(
    `SELECT c.content FROM event_content c JOIN scale_templates t ON t.id = c.trace_id
     WHERE t.id >= (SELECT min(id) + 777 % count(*) FROM scale_templates) AND c.content ~ 'https://[a-z.]+/[a-z-]+/[0-9]{4}'
     ORDER BY c.trace_id, c.seq LIMIT 1`,
  );
  const m = /https:\/\/[a-z.]+\/[a-z-]+\/[0-9]{4}/.exec(rows[0]?.content ?? "");
  if (!m) throw new Error("no URL in the templates");
  return m[0];
}

async function measure(client: pg.Client, fillS: number): Promise<Figures> {
  const counts = (await client.query<{ events: string; traces: string; bytes: string }>(
    "SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM traces) AS traces, pg_database_size(current_database()) AS bytes",
  )).rows[0]!;
  const events = Number(counts.events);
  const traces = Number(counts.traces);
  const bytesPerEvent = Number(counts.bytes) / events;
  log(`measuring at ${fmt(events)} events, ${fmt(traces)} traces, ${fmt(Number(counts.bytes) / 1024 ** 3, 2)} GB (${fmt(bytesPerEvent)} bytes per event)`);
  // the reads as the app serves them with its fold job keeping up: label changes a kept database holds still pending, folded in first
  const { folded } = await foldDecisionSummaries();
  if (folded > 0) log(`decision summaries' pending rows folded before the reads: ${fmt(folded)}`);
  await templatesTable(client);
  const rare = await rarePhrase(client);
  const common = "carbon pricing";
  const searches = [`text=${encodeURIComponent(`"${rare}"`)}&limit=50`, `text=${encodeURIComponent(`"${common}"`)}&limit=50`];
  const ms: Record<string, number> = {};
  const runs: [string, () => Promise<unknown>][] = [
    [READS[0]!.name, () => listPage("limit=50")],
    [READS[1]!.name, () => listPage("system=sys-3&limit=50")],
    [READS[2]!.name, () => listPage("sort=tokens&dir=desc&limit=50")],
    [READS[3]!.name, () => listPage(searches[0]!)],
    [READS[4]!.name, () => listPage(searches[1]!)],
    [READS[5]!.name, () => withoutWords(() => listPageExact(searches[0]!))],
    [READS[6]!.name, () => withoutWords(() => listPageExact(searches[1]!))],
    ["GET /api/metrics (summaries)", async () => ok(await metricsRoute(getRequest("/api/metrics"), params({})))],
    ["GET /api/metrics?system=sys-3 (summaries)", async () => ok(await metricsRoute(getRequest("/api/metrics?system=sys-3"), params({})))],
    ["GET /api/metrics?task_id=task-7 (falls back: scan)", async () => ok(await metricsRoute(getRequest("/api/metrics?task_id=task-7"), params({})))],
    ["GET /api/metrics?judges=all (summaries, E1 corrected by the judged traces)", async () => ok(await metricsRoute(getRequest("/api/metrics?judges=all"), params({})))],
    ["GET /api/metrics, the scan (summaries off)", () => withoutSummaries(async () => ok(await metricsRoute(getRequest("/api/metrics"), params({}))))],
    ["GET /api/dashboard (summaries)", async () => ok(await dashboardRoute(getRequest("/api/dashboard"), params({})))],
    ["GET /api/dashboard?system=sys-3 (summaries)", async () => ok(await dashboardRoute(getRequest("/api/dashboard?system=sys-3"), params({})))],
    ["GET /api/dashboard?task_id=task-7 (falls back: scan)", async () => ok(await dashboardRoute(getRequest("/api/dashboard?task_id=task-7"), params({})))],
    ["GET /api/dashboard?judges=all (summaries, E1 corrected by the judged traces)", async () => ok(await dashboardRoute(getRequest("/api/dashboard?judges=all"), params({})))],
    ["GET /api/dashboard, the scan (summaries off)", () => withoutSummaries(async () => ok(await dashboardRoute(getRequest("/api/dashboard"), params({}))))],
    // the cheapest read of the rows the dashboard summarises: each of its columns once, in one scan
    ["one pass over the dashboard's columns, in SQL (baseline)", () => client.query(onePass(""))],
    ["one pass, system=sys-3 (baseline)", () => client.query(onePass("WHERE system = 'sys-3'"))],
    ["one pass, task_id=task-7 (baseline)", () => client.query(onePass("WHERE task_id = 'task-7'"))],
    ["GET /api/decisions (summaries)", async () => ok(await decisionsRoute(getRequest("/api/decisions"), params({})))],
    ["GET /api/decisions?system=sys-3 (summaries)", async () => ok(await decisionsRoute(getRequest("/api/decisions?system=sys-3"), params({})))],
    ["GET /api/decisions?policy_version=ckpt-2 (summaries)", async () => ok(await decisionsRoute(getRequest("/api/decisions?policy_version=ckpt-2"), params({})))],
    ["GET /api/decisions?task_id=task-7 (falls back: scan)", async () => ok(await decisionsRoute(getRequest("/api/decisions?task_id=task-7"), params({})))],
    ["GET /api/decisions, the scan (summaries off)", () => withoutSummaries(async () => ok(await decisionsRoute(getRequest("/api/decisions"), params({}))))],
    ["GET /api/decisions?system=sys-3, the scan (summaries off)", () => withoutSummaries(async () => ok(await decisionsRoute(getRequest("/api/decisions?system=sys-3"), params({}))))],
    ["one pass over the decisions' columns, in SQL (baseline)", () => client.query(onePassDecisions(""))],
    ["one pass over the decisions' columns, system=sys-3 (baseline)", () => client.query(onePassDecisions("WHERE t.system = 'sys-3'"))],
    ["one pass over the decisions' columns, task_id=task-7 (baseline)", () => client.query(onePassDecisions("WHERE t.task_id = 'task-7'"))],
    ["GET /api/heatmap?kind=role-family&task_id=task-7 (role sums kept)", async () => ok(await heatmapRoute(getRequest("/api/heatmap?kind=role-family&task_id=task-7"), params({})))],
    ["GET /api/heatmap?kind=role-family&system=sys-3&max_traces=50 (role sums kept)", async () => ok(await heatmapRoute(getRequest("/api/heatmap?kind=role-family&system=sys-3&max_traces=50"), params({})))],
    ["GET /api/heatmap?kind=role-family (all traces: the oldest 200, role sums kept)", async () => ok(await heatmapRoute(getRequest("/api/heatmap?kind=role-family"), params({})))],
    // each run first forgets the kept sums (a DELETE of a few hundred rows, timed with it)
    ["GET /api/heatmap?kind=role-family&task_id=task-7, nothing kept (the first view: sums computed and kept)", async () => {
      await client.query("DELETE FROM role_credit_sums");
      return ok(await heatmapRoute(getRequest("/api/heatmap?kind=role-family&task_id=task-7"), params({})));
    }],
    ["GET /api/heatmap?kind=role-family&task_id=task-7&w.cost=-1 (weights overridden: computed per request)", async () => ok(await heatmapRoute(getRequest("/api/heatmap?kind=role-family&task_id=task-7&w.cost=-1"), params({})))],
    ["one pass over the heatmap's traces' events, task_id=task-7 (baseline)", () => client.query(onePassHeatmap("WHERE task_id = 'task-7'", 200))],
    ["one pass over the heatmap's traces' events, system=sys-3, 50 traces (baseline)", () => client.query(onePassHeatmap("WHERE system = 'sys-3'", 50))],
  ];
  for (const [name, run] of runs) {
    ms[name] = await timeMs(run);
    log(`${name}: ${fmt(ms[name], 1)} ms`);
  }
  for (const [label, text] of [["rare", rare], ["common", common]] as const) {
    const n = await countTraces({ text: `"${text}"` });
    log(`search ${label} "${text}": ${fmt(n)} matching traces`);
  }
  if (values["reads-only"]) return { events, traces, ms, writeP50: NaN, writeP99: NaN, writesPerS: NaN, ingestPerS: NaN, writeP50Before: NaN, writesPerSBefore: NaN, ingestPerSBefore: NaN, writeP50Metrics: NaN, ingestPerSMetrics: NaN, rebuildS: NaN, bytesPerEvent, fillS };
  // writes before (the summaries' triggers disabled), with the metric summaries' triggers only, and with all, in the same run,
  // interleaved over --write-rounds rounds (medians); each round starts one mode later (off, metric, all; then metric, all, off; ...),
  // so that no way is always measured last, after the writes of the others; then the summaries rebuilt
  const modes = [["triggers off", { metrics: false, decisions: false }], ["metric summaries' triggers only", { metrics: true, decisions: false }], ["all triggers", { metrics: true, decisions: true }]] as const;
  const writes = modes.map(() => ({ p50: [] as number[], p99: [] as number[], perS: [] as number[], ingest: [] as number[], pgMs: [] as number[], nodeMs: [] as number[] }));
  // the fold of the decision summaries' pending rows, worked in this process as the app's background worker works it
  await startFoldWorker();
  for (let round = 0; round < WRITE_ROUNDS; round++) {
    for (const i of modes.map((_, k) => (k + round) % modes.length)) {
      const [label, on] = modes[i]!;
      await summaryTriggers(client, on);
      const w = await labelLoad(client, "task_success");
      log(`label writes (task_success, E1), ${CLIENTS} clients, ${label}: p50 ${fmt(w.p50, 1)} ms, p99 ${fmt(w.p99, 1)} ms, ${fmt(w.perS)} writes/s; CPU a write: PostgreSQL ${fmt(w.pgMs, 2)} ms, this process ${fmt(w.nodeMs, 2)} ms`);
      const perS = await ingestRun(`ingest-${i}-${round}-${events}`);
      log(`ingest, ${label}: ${fmt(perS)} events/s${on.decisions ? `; decision summaries' rows pending: ${fmt(await pendingRows())}` : ""}`);
      writes[i]!.p50.push(w.p50);
      writes[i]!.p99.push(w.p99);
      writes[i]!.perS.push(w.perS);
      writes[i]!.ingest.push(perS);
      writes[i]!.pgMs.push(w.pgMs);
      writes[i]!.nodeMs.push(w.nodeMs);
    }
  }
  // the median of the rounds, each way the same number of them (an even count: the mean of the middle two)
  const [before, metricsOnly, all] = writes.map((w) => ({ p50: median(w.p50), p99: median(w.p99), perS: median(w.perS), ingest: median(w.ingest) }));
  const ratios = writes[2]!.p50.map((p, round) => p / writes[0]!.p50[round]!);
  log(`label write p50, all triggers / off: ${fmt(all!.p50 / before!.p50, 2)} (medians); per round ${ratios.map((r) => fmt(r, 2)).join(", ")}`);
  for (const [i, [label]] of modes.entries()) {
    log(`label write CPU a write (medians of the rounds), ${label}: PostgreSQL ${fmt(median(writes[i]!.pgMs), 2)} ms, this process ${fmt(median(writes[i]!.nodeMs), 2)} ms`);
  }
  const rebuildS = (await rebuildSummaries()).seconds;
  log(`summaries rebuilt in ${fmt(rebuildS, 1)} s`);
  // after the rebuild (its deleted rows not yet vacuumed): printed, not one of the rounds
  const load = await labelLoad(client, "task_success");
  log(`label writes (task_success, E1), ${CLIENTS} clients, after the rebuild: p50 ${fmt(load.p50, 1)} ms, p99 ${fmt(load.p99, 1)} ms, ${fmt(load.perS)} writes/s`);
  await stopFoldWorker();
  await foldDecisionSummaries();
  return { events, traces, ms, writeP50: all!.p50, writeP99: all!.p99, writesPerS: all!.perS, ingestPerS: all!.ingest, writeP50Before: before!.p50, writesPerSBefore: before!.perS, ingestPerSBefore: before!.ingest, writeP50Metrics: metricsOnly!.p50, ingestPerSMetrics: metricsOnly!.ingest, rebuildS, bytesPerEvent, fillS };
}

/** Grows the database to about `target` events: copies of the templates, secondary indexes dropped while copying and rebuilt. */
async function grow(client: pg.Client, target: number, templateEvents: number): Promise<number> {
  const copiesNow = Number((await client.query<{ n: string }>("SELECT count(*) AS n FROM traces WHERE trace_id LIKE 'scale-%.c%'")).rows[0]!.n) / TEMPLATES;
  const wanted = Math.max(0, Math.round(target / templateEvents) - 1);
  if (wanted <= copiesNow) return 0;
  const started = performance.now();
  const indexes = await secondaryIndexes(client);
  for (const { name } of indexes) await client.query(`DROP INDEX "${name}"`);
  log(`copying templates ${fmt(copiesNow)} -> ${fmt(wanted)} times (${indexes.length} secondary indexes dropped meanwhile)`);
  await copyTemplates(client, copiesNow, wanted - copiesNow, {
    onChunk: (done) => { if (done % 50 === 0) log(`  ${fmt((copiesNow + done + 1) * templateEvents)} events`); },
  });
  const copyS = (performance.now() - started) / 1000;
  const indexS = await rebuild(client, indexes);
  log(`copied in ${fmt(copyS)} s, ${indexes.length} indexes rebuilt in ${fmt(indexS)} s`);
  return (performance.now() - started) / 1000;
}

function freeBytes(): number {
  const s = statfsSync(path.resolve("."));
  return s.bavail * s.bsize;
}

async function openDatabase(reuse: boolean) {
  if (EXTERNAL === undefined) delete process.env.DATABASE_URL;
  const db = await benchDatabase("baton_bench_scale", { reuse, embedded: { dataDir: DATA_DIR, port: PORT } });
  process.env.DATABASE_URL = db.url;
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  return { db, client };
}

async function main(): Promise<void> {
  console.log(`bench:scale — sizes ${SIZES.map((s) => fmt(s)).join(", ")} events; median of ${RUNS} runs; ${CLIENTS} label writers for ${SECONDS} s; ingest of ${INGEST} traces`);
  const keep = values.reuse || values.grow;
  let { db, client } = await openDatabase(keep);
  // a kept database gets the migrations added since it was filled (new indexes), so before/after is one fill
  if (keep) await applyMigrations(db.url);
  // settings that need a restart: applied, then the server restarted (embedded only)
  const current = (await client.query<{ v: string }>("SHOW shared_buffers")).rows[0]!.v;
  for (const [k, v] of Object.entries(SETTINGS)) await client.query(`ALTER SYSTEM SET ${k} = '${v}'`);
  if (current !== SETTINGS.shared_buffers && EXTERNAL === undefined) {
    await client.end();
    await closeDatabase();
    await db.close();
    ({ db, client } = await openDatabase(true));
  }
  await client.query("SELECT pg_reload_conf()");
  console.log(`PostgreSQL ${(await client.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!.v}: ${Object.entries(SETTINGS).map(([k, v]) => `${k}=${v}`).join(", ")}`);

  const results: Figures[] = [];
  try {
    const stored = Number((await client.query<{ n: string }>("SELECT count(*) AS n FROM traces WHERE trace_id LIKE 'scale-%'")).rows[0]!.n);
    if (stored === 0) {
      const started = performance.now();
      await client.query("INSERT INTO projects (name) VALUES ('default') ON CONFLICT DO NOTHING");
      const events = await ingestTemplates(0, TEMPLATES);
      const labels = await labelTemplates(0, TEMPLATES);
      log(`${fmt(TEMPLATES)} templates (${fmt(events)} events) through the ingest path and ${fmt(labels)} labels through the label route in ${fmt((performance.now() - started) / 1000)} s`);
    }
    const templateEvents = Number((await client.query<{ n: string }>("SELECT sum(event_count) AS n FROM traces WHERE trace_id LIKE 'scale-%' AND trace_id NOT LIKE '%.c%'")).rows[0]!.n);
    if (values.reuse && !values.grow && stored > 0) {
      results.push(await measure(client, 0));
    } else {
      for (const size of SIZES) {
        if (results.length > 0) {
          const last = results.at(-1)!;
          const need = (size - last.events) * last.bytesPerEvent * 1.3; // indexes are rebuilt beside the old ones' space
          if (freeBytes() - need < SPARE) {
            console.log(`\nstopping before ${fmt(size)} events: it needs about ${fmt(need / 1024 ** 3)} GB (${fmt(last.bytesPerEvent)} bytes per event) and ${fmt(freeBytes() / 1024 ** 3)} GB are free, ${fmt(SPARE / 1024 ** 3)} GB must stay free`);
            break;
          }
        }
        const fillS = await grow(client, size, templateEvents);
        results.push(await measure(client, fillS));
        if (values.explain) await explain(client);
        table(results.at(-1)!);
        growth(results);
      }
    }
  } finally {
    await client.end();
    await closeDatabase();
    await db.close();
    if (!values.keep) {
      rmSync(DATA_DIR, { recursive: true, force: true });
      console.log(`\n(deleted ${DATA_DIR})`);
    }
  }
  if (values.reuse) table(results[0]!);
}

async function explain(client: pg.Client): Promise<void> {
  const { listPageSql, countSql } = await import("@/lib/server/queries/trace-list");
  for (const search of ["limit=50", "system=sys-3&limit=50", "sort=tokens&dir=desc&limit=50", `text=${encodeURIComponent('"carbon pricing"')}&limit=50`]) {
    const q = traceListQuery.parse(Object.fromEntries(new URLSearchParams(search)));
    for (const sql of [listPageSql(q), countSql(q)]) {
      const plan = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql.text}`, sql.values);
      console.log(`\n${search}:\n${plan.rows.map((r) => `    ${r["QUERY PLAN"]}`).join("\n")}`);
    }
  }
}

function rowsOf(f: Figures): [string, number, string][] {
  return [
    ...READS.map(({ name }): [string, number, string] => [name, f.ms[name]!, "ms"]),
    ["label write p50 (task_success, under load), summaries' triggers off", f.writeP50Before, "ms"],
    ["label write p50 (task_success, under load), metric summaries' triggers only (decision summaries' off)", f.writeP50Metrics, "ms"],
    ["label write p50 (task_success, under load)", f.writeP50, "ms"],
    ["label write p99 (task_success, under load)", f.writeP99, "ms"],
    ["label writes/s, triggers off", f.writesPerSBefore, "/s"],
    ["label writes/s", f.writesPerS, "/s"],
    ["ingest throughput, triggers off", f.ingestPerSBefore, "events/s"],
    ["ingest throughput, metric summaries' triggers only (decision summaries' off)", f.ingestPerSMetrics, "events/s"],
    ["ingest throughput", f.ingestPerS, "events/s"],
    ["summaries rebuilt from the rows (npm run summaries:rebuild)", f.rebuildS * 1000, "ms"],
    ["disk per event", f.bytesPerEvent, "bytes"],
  ];
}

function table(f: Figures): void {
  console.log(`\n### ${fmt(f.events)} events, ${fmt(f.traces)} traces${f.fillS > 0 ? ` (filled in ${fmt(f.fillS)} s)` : ""}\n`);
  console.log("| measure | value | goal |");
  console.log("|---|---:|---|");
  for (const [name, v, unit] of rowsOf(f)) {
    const goal = READS.find((r) => r.name === name)?.goal;
    console.log(`| ${name} | ${fmt(v, v < 100 ? 1 : 0)} ${unit} | ${goal === undefined ? "" : `< ${fmt(goal)} ms: ${v < goal ? "met" : "NOT met"}`} |`);
  }
}

const millions = (n: number) => `${fmt(n / 1e6, n < 1e7 ? 1 : 0)} M`;

/** Log-log slope between consecutive sizes and the projection to 100 M and 1 B events from the last one. */
function growth(results: Figures[]): void {
  if (results.length < 2) return;
  const slope = (a: number, b: number, na: number, nb: number) => Math.log(b / a) / Math.log(nb / na);
  const pairs = results.slice(1).map((r, i) => [results[i]!, r] as const);
  console.log(`\n### Growth exponents (log-log slope) and projections\n`);
  console.log(`| measure | ${pairs.map(([a, b]) => `slope ${millions(a.events)}→${millions(b.events)}`).join(" | ")} | at 100 M | at 1 B |`);
  console.log(`|---|${pairs.map(() => "---:").join("|")}|---:|---:|`);
  const last = results.at(-1)!;
  const rows = results.map(rowsOf);
  rows[0]!.forEach(([name, , unit], k) => {
    const slopes = pairs.map(([a, b], i) => slope(rows[i]![k]![1], rows[i + 1]![k]![1], a.events, b.events));
    const s = slopes.at(-1)!;
    const at = (n: number) => rows.at(-1)![k]![1] * (n / last.events) ** s;
    console.log(`| ${name} | ${slopes.map((x) => fmt(x, 2)).join(" | ")} | ${fmt(at(1e8))} ${unit} | ${fmt(at(1e9))} ${unit} |`);
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
