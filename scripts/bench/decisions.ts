/**
 * `npm run bench:decisions [-- --traces 100000 --runs 5]`
 *
 * Decision analytics (GET /api/decisions) over 100,000 stored traces, target
 * < 2 s. The traces are Baton's synthetic generator's (lib/demo/synthetic.ts),
 * groups of 4 rollouts per task; every third one is a tiny run without a
 * spawn (so groups hold rollouts with and without O1), checkpoints ckpt-0..4
 * in metadata.policy_version; stored through the real ingest path in its own
 * database and data dir (.baton-bench-decisions, embedded unless DATABASE_URL is set).
 * In the same process, two baselines give the same answer:
 * - rows -> JS: the stored per-trace columns fetched and tallied in JS (lib/decisions tallyRows);
 * - recompute: traces loaded and their features recomputed (timed on a sample, scaled up).
 * `--reuse` keeps the database of an earlier run when it holds exactly --traces traces.
 * Heavy: never part of npm test.
 */
import { parseArgs } from "node:util";
import type { TraceRecord } from "@/lib/ingest/parse";
import { decisionRecord, decisionReport, tallyRows, type DecisionFilter, type DecisionReport, type DecisionRow } from "@/lib/decisions";
import { syntheticTrace } from "@/lib/demo/synthetic";
import { deriveSeed } from "@/lib/util/random";
import { computeMetrics } from "@/lib/metrics";
import { decisionAnalytics } from "@/lib/server/decisions/analytics";
import { closeDatabase, pool } from "@/lib/server/db/client";
import { ingestRecords } from "@/lib/server/ingest/ingest";
import { loadTraceById } from "@/lib/server/queries/load-trace";
import type { Trace } from "@/lib/trace/types";
import { benchDatabase, fmt } from "./db";
import { medianAsyncMs } from "./compute/measure";

const { values } = parseArgs({ options: { traces: { type: "string", default: "100000" }, runs: { type: "string", default: "5" }, reuse: { type: "boolean", default: false }, sample: { type: "string", default: "1000" } } });
const TRACES = Number(values.traces);
const RUNS = Number(values.runs);
const SAMPLE = Math.min(TRACES, Number(values.sample));
const TARGET_MS = 2000;
const BATCH = 2000;

function benchTrace(i: number): Trace {
  const group = Math.floor(i / 4);
  const trace = syntheticTrace({ events: i % 3 === 0 ? 4 : 10 + (i % 7), seed: deriveSeed(0xdec, i), traceId: `decisions-${i}`, taskId: `task-${group}`, groupId: `group-${group}`, content: false });
  return { ...trace, metadata: { ...(trace.metadata as object), policy_version: `ckpt-${group % 5}` } };
}

async function ingest(): Promise<void> {
  const started = performance.now();
  for (let first = 0; first < TRACES; first += BATCH) {
    const records: TraceRecord[] = [];
    for (let i = first; i < Math.min(TRACES, first + BATCH); i++) records.push({ base: `$[${i - first}]`, value: benchTrace(i) });
    await ingestRecords(records, { upsert: false });
    if ((first / BATCH) % 10 === 9) console.log(`  ${fmt(first + BATCH)} traces stored`);
  }
  console.log(`ingest: ${fmt(TRACES)} traces in ${fmt((performance.now() - started) / 1000, 1)} s (validation + metrics + decision features + storage)`);
}

function timeMs(run: () => Promise<unknown>): Promise<number> {
  return medianAsyncMs(run, RUNS);
}

/** Baseline 1: the same stored columns fetched row by row and tallied in JS. */
async function viaRows(f: DecisionFilter): Promise<DecisionReport> {
  const rows = await pool().query<{ group_id: string | null; e1: 0 | 1 | null; r_total: number; policy_version: string | null; stop_reason: string | null; verdict: string | null; s: boolean; d: boolean; c: boolean; a: boolean; st: boolean; b1: string; b2: string[]; b3: string; b4: string }>(
    `SELECT t.group_id, t.e1, d.r_total, d.policy_version, t.stop_reason::text AS stop_reason, t.verdict::text AS verdict,
            d.spawn_taken AS s, d.delegate_taken AS d, d.communicate_taken AS c, d.aggregate_taken AS a, d.stop_taken AS st,
            d.agents_spawned_bucket AS b1, d.delegate_role_buckets AS b2, d.messages_per_agent_bucket AS b3, d.aggregate_fan_in_bucket AS b4
     FROM traces t JOIN trace_decisions d ON d.trace_id = t.id WHERE ($1::text IS NULL OR d.policy_version = $1)`,
    [f.policy_version ?? null],
  );
  return decisionReport(tallyRows(rows.rows.map((r): DecisionRow => ({
    group_id: r.group_id, e1: r.e1, r_total: r.r_total, policy_version: r.policy_version, stop_reason: r.stop_reason, verdict: r.verdict,
    taken: { spawn: r.s, delegate: r.d, communicate: r.c, aggregate: r.a, stop: r.st },
    buckets: { agents_spawned: r.b1, delegate_roles: r.b2, messages_per_agent: r.b3, aggregate_fan_in: r.b4 },
  }))));
}

/** Baseline 2: load traces and recompute their features and metrics (what the analytics would cost without stored columns). */
async function recomputeSampleMs(): Promise<number> {
  const ids = (await pool().query<{ id: number }>("SELECT id FROM traces ORDER BY id LIMIT $1", [SAMPLE])).rows;
  const started = performance.now();
  for (const { id } of ids) {
    const trace = await loadTraceById(id);
    computeMetrics(trace);
    decisionRecord(trace);
  }
  return performance.now() - started;
}

const rounded = (x: unknown) => JSON.stringify(x, (_k, v: unknown) => (typeof v === "number" ? Math.round(v * 1e9) / 1e9 : v));

async function main(): Promise<void> {
  console.log(`bench:decisions over ${fmt(TRACES)} synthetic traces, median of ${RUNS} runs after one warm-up; target < ${fmt(TARGET_MS)} ms`);
  const db = await benchDatabase("baton_bench_decisions", { reuse: values.reuse, embedded: { dataDir: ".baton-bench-decisions", port: Number(process.env.BATON_BENCH_PG_PORT ?? 24336) } });
  process.env.DATABASE_URL = db.url;
  try {
    const stored = Number((await pool().query<{ n: string }>("SELECT count(*) AS n FROM traces")).rows[0]!.n);
    if (stored === TRACES && values.reuse) console.log(`reusing the ${fmt(stored)} traces of an earlier run`);
    else {
      if (stored > 0) await pool().query("TRUNCATE traces CASCADE");
      await ingest();
    }
    await pool().query("ANALYZE traces; ANALYZE trace_decisions");
    for (const [label, filter] of [["(none)", {}], ["policy_version=ckpt-2", { policy_version: "ckpt-2" }]] as [string, DecisionFilter][]) {
      const sql = await decisionAnalytics(filter, null);
      const js = await viaRows(filter);
      if (rounded(sql) !== rounded(js)) throw new Error(`filter ${label}: the SQL and the JS answers differ`);
      const sqlMs = await timeMs(() => decisionAnalytics(filter, null));
      const jsMs = await timeMs(() => viaRows(filter));
      const spawn = sql.decisions[0]!;
      console.log(
        `  filter ${label.padEnd(22)} ${fmt(sql.traces).padStart(7)} traces; O1 taken ${fmt(spawn.taken.traces)} (success ${fmt(spawn.taken.e1.rate ?? NaN, 3)}), within-group difference ${fmt(spawn.within_group.estimate ?? NaN, 3)} over ${fmt(spawn.within_group.groups)} groups\n` +
          `    SQL over stored columns ${fmt(sqlMs, 1)} ms (${sqlMs < TARGET_MS ? "meets" : "MISSES"} the target); rows -> JS ${fmt(jsMs, 1)} ms (${fmt(jsMs / sqlMs, 1)}x the SQL); same answer`,
      );
    }
    const sampleMs = await recomputeSampleMs();
    const fullMs = (sampleMs / SAMPLE) * TRACES;
    const sqlMs = await timeMs(() => decisionAnalytics({}, null));
    console.log(`  recompute baseline: ${fmt(SAMPLE)} traces loaded and recomputed in ${fmt(sampleMs, 0)} ms -> ~${fmt(fullMs / 1000, 1)} s for ${fmt(TRACES)} (${fmt(fullMs / sqlMs, 0)}x the SQL)`);
  } finally {
    // a client the pool still holds may hear the server stop: at shutdown that is no error of the benchmark
    pool().on("error", () => {});
    await closeDatabase();
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
