/**
 * Part 2 of bench:compute: `GET /api/metrics` over many stored small traces.
 * Stores them through the real ingest path (validate -> compute -> one
 * transaction per batch), then times aggregateMetrics and the route handler
 * itself, with and without filters.
 */
import { GET as metricsRoute } from "@/app/api/metrics/route";
import type { TraceRecord } from "@/lib/ingest/parse";
import { closeDatabase, pool } from "@/lib/server/db/client";
import { ingestRecords } from "@/lib/server/ingest/ingest";
import { aggregateMetrics, type MetricsFilter } from "@/lib/server/queries/metrics";
import type { Trace } from "@/lib/trace/types";
import { benchDatabase, fmt } from "../db";
import { median, medianAsyncMs } from "./measure";
import { makeTrace, SHAPES } from "./shapes";

const DATABASE = "baton_bench_compute";
const TARGET_MS = 2000;
const RUNS = 5;
const SYSTEMS = ["planner-v1", "planner-v2", "swarm-lite", "debate-3", "harness-x"] as const;
const TOPOLOGIES = ["centralized", "hierarchical", "debate", "swarm", "mixed"] as const;

/**
 * Small trace i: 8-20 events, the three shapes in turn, systems and
 * topologies cycling independently of the shape, groups of 4 rollouts per
 * task (GRPO-style), and E1 from the shape (success or failure) except for
 * every 7th trace, which reports nothing (E1 null).
 */
export function smallTrace(i: number): Trace {
  const trace = makeTrace(SHAPES[i % SHAPES.length]!, 8 + ((i * 7) % 13), i);
  const group = Math.floor(i / 4);
  return {
    ...trace,
    trace_id: `small-${i}`,
    task_id: `task-${group % 2500}`,
    group_id: `group-${group}`,
    system: SYSTEMS[(i >> 1) % SYSTEMS.length]!,
    topology: TOPOLOGIES[i % TOPOLOGIES.length]!,
    rewards: i % 7 === 0 ? {} : trace.rewards,
  };
}

async function ingest(traces: number, batch: number): Promise<void> {
  let events = 0;
  const started = performance.now();
  for (let first = 0; first < traces; first += batch) {
    const records: TraceRecord[] = [];
    for (let i = first; i < Math.min(traces, first + batch); i++) {
      const value = smallTrace(i);
      events += value.events.length;
      records.push({ base: `$[${i - first}]`, value });
    }
    await ingestRecords(records, { upsert: false });
    if ((first / batch) % 20 === 19) process.stdout.write(`  ${fmt(first + batch)} traces stored\n`);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `ingest: ${fmt(traces)} traces (${fmt(events)} events) in ${fmt(seconds, 1)} s, ${fmt(traces / seconds)} traces/s, ${fmt(events / seconds)} events/s` +
      ` (generation + validation + metrics + storage, ${fmt(batch)} traces per transaction)`,
  );
}

function timeMs(run: () => Promise<unknown>): Promise<number> {
  return medianAsyncMs(run, RUNS);
}

async function viaRoute(query: string): Promise<unknown> {
  const response = await metricsRoute(new Request(`http://bench.local/api/metrics${query}`), undefined);
  if (!response.ok) throw new Error(`GET /api/metrics${query}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}

/** The float8 forms the numeric ones replaced: they fail on subnormals ("underflow", "out of range"), timed as the baseline. */
const FLOAT8_MEAN = (c: string) => `avg((t.${c})::numeric)::float8`;
const FLOAT8_MEDIAN = (c: string) => `(2 * percentile_cont(0.5) WITHIN GROUP (ORDER BY (t.${c})::float8 / 2))`;
const COLUMNS = ["critical_steps", "step_parallelism", "busy_time", "makespan", "speedup", "max_concurrency", "efficiency", "useful_agent_utilization",
  "message_redundancy", "dead_message_rate", "aggregate_diversity", "protocol_overhead", "error_amplification", "tainted_events"];

/** Means and medians of every aggregated column over all traces: the numeric forms (lib/server/queries/metrics.ts) against float8. */
async function aggregateFormsBench(): Promise<void> {
  const sql = (mean: (c: string) => string, med: (c: string) => string) =>
    `SELECT ${COLUMNS.map((c) => `${mean(c)} AS "${c}_mean", ${med(c)} AS "${c}_median"`).join(", ")} FROM traces t`;
  const numericSql = sql(
    (c) => `avg((t.${c})::numeric)::text`,
    (c) => `(((percentile_disc(0.5) WITHIN GROUP (ORDER BY (t.${c})::float8))::numeric + (percentile_disc(0.5) WITHIN GROUP (ORDER BY (t.${c})::float8 DESC))::numeric) / 2)::text`,
  );
  const float8Sql = sql(FLOAT8_MEAN, FLOAT8_MEDIAN);
  const alternated = { numeric: [] as number[], float8: [] as number[] };
  for (let round = 0; round < 3; round++) {
    alternated.float8.push(await timeMs(() => pool().query(float8Sql)));
    alternated.numeric.push(await timeMs(() => pool().query(numericSql)));
  }
  const [n, f] = [median(alternated.numeric), median(alternated.float8)];
  console.log(`  mean + median of ${COLUMNS.length} columns, all traces: numeric (safe for subnormals) ${fmt(n, 1)} ms vs float8 ${fmt(f, 1)} ms, ratio ${fmt(n / f, 2)}`);
}

export async function aggregateBench(traces: number, batch: number): Promise<void> {
  console.log(`\n== /api/metrics over ${fmt(traces)} stored small traces (database ${DATABASE}) ==`);
  const db = await benchDatabase(DATABASE);
  process.env.DATABASE_URL = db.url;
  try {
    await ingest(traces, batch);
    await pool().query("ANALYZE traces"); // what autovacuum would have done after this many inserts
    const filters: [string, MetricsFilter][] = [
      ["(none)", {}],
      [`system=${SYSTEMS[1]}`, { system: SYSTEMS[1] }],
      ["topology=debate", { topology: "debate" }],
      ["task_id=task-7", { task_id: "task-7" }],
    ];
    console.log(`median of ${RUNS} runs after one warm-up; target < ${fmt(TARGET_MS)} ms`);
    await aggregateFormsBench();
    for (const [label, filter] of filters) {
      const result = await aggregateMetrics(filter);
      const queryMs = await timeMs(() => aggregateMetrics(filter));
      const query = new URLSearchParams(filter as Record<string, string>).toString();
      const routeMs = await timeMs(() => viaRoute(query ? `?${query}` : ""));
      const verdict = Math.max(queryMs, routeMs) < TARGET_MS ? "ok" : "MISSED";
      console.log(
        `  filter ${label.padEnd(22)} ${fmt(result.traces).padStart(7)} traces, E1 rate ${fmt(result.e1.rate ?? NaN, 3)}:` +
          ` aggregateMetrics ${fmt(queryMs, 1)} ms, GET handler ${fmt(routeMs, 1)} ms (${verdict})`,
      );
    }
  } finally {
    await closeDatabase();
    await db.close();
  }
}
