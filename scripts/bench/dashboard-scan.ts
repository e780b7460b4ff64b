/**
 * `npm run bench:dashboard-scan -- [--rounds 31] [--all-rounds 7] [--warm 10] [--before <module>] [--explain]`
 *
 * The dashboard's scan (the fallback of GET /api/dashboard where the filter
 * is off the summaries' grain, lib/server/queries/dashboard.ts) beside the
 * one-pass baseline (one SQL scan reading each of the dashboard's columns
 * once, as bench:scale reads it), interleaved in one process against the
 * 1 M-event database bench:scale keeps (`npm run bench:scale -- --sizes
 * 1000000 --keep --reads-only`; its embedded server in .baton-bench/scale,
 * port BATON_BENCH_PG_PORT or 24371). Each round calls every variant in
 * turn; printed: the median and the least (the run the load disturbed least)
 * on `task_id=task-7`, the largest group and (--all-rounds) all traces with the summaries off; and on
 * `task_id=task-8` with distinct values: the fill copies a few thousand templates, so a task's 40
 * traces repeat a few values, where real traces rarely repeat a float; the bench makes task-8's float
 * metrics distinct once (each scaled by 1 - k·1e-7, k its row's rank; ratios stay in [0, 1]) and times that too.
 *
 * `--before <module>`: a copy of an older lib/server/queries/dashboard.ts
 * (its relative imports made `@/` ones, e.g. under .baton-bench/, which tsc
 * skips), timed as a third variant; first its answers and the current
 * code's are compared byte for byte (JSON) on all traces, sys-3, 12 tasks
 * and the 6 largest groups, each without and with judges=all.
 * `--explain`: EXPLAIN (ANALYZE, BUFFERS) of the scan's statement on task-7 and all traces.
 * Heavy: never part of npm test.
 */
import { loadavg } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { DASHBOARD_METRICS } from "@/lib/dashboard";
import type { JudgeSelection } from "@/lib/judges/selection";
import { closeDatabase } from "@/lib/server/db/client";
import { dashboardModel, dashboardScanSql } from "@/lib/server/queries/dashboard";
import type { TraceFilter } from "@/lib/server/queries/trace-filter";
import { setSummaries } from "@/lib/server/summaries/read";
import { median } from "./compute/measure";
import { benchDatabase, fmt } from "./db";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "31" },
    "all-rounds": { type: "string", default: "7" },
    before: { type: "string" },
    explain: { type: "boolean", default: false },
    warm: { type: "string", default: "10" },
  },
});
const ROUNDS = Number(values.rounds);
const ALL_ROUNDS = Number(values["all-rounds"]);
const WARM = Number(values.warm);

type Model = (filter: TraceFilter, judges?: JudgeSelection) => Promise<unknown>;

/** Each of the dashboard's columns once, in one scan of the rows `where` selects (bench:scale's baseline). */
const onePass = (where: string) =>
  `SELECT count(*), count(e1), sum(e1), ${DASHBOARD_METRICS.map((m) => (m.kind === "boolean" ? `${m.key}::int` : m.key)).map((c) => `min(${c}::float8), max(${c}::float8), avg(${c}::float8)`).join(", ")} FROM traces ${where}`;

/** Makes a task's float metrics distinct (once: a task whose busy_time values already are is left as it is). */
async function distinctValues(client: pg.Client, task: string): Promise<void> {
  const { rows } = await client.query<{ n: number; d: number }>("SELECT count(*)::int AS n, count(DISTINCT busy_time)::int AS d FROM traces WHERE task_id = $1", [task]);
  if (rows[0]!.d >= rows[0]!.n) return;
  const floats = DASHBOARD_METRICS.filter((m) => m.kind === "real" || m.kind === "unit").map((m) => `${m.key} = ${m.key} * (1 - k.k * 1e-7)`).join(", ");
  await client.query(`UPDATE traces t SET ${floats} FROM (SELECT id, row_number() OVER (ORDER BY id) AS k FROM traces WHERE task_id = $1) k WHERE t.id = k.id`, [task]);
  console.log(`${task}: its float metrics made distinct`);
}

async function main(): Promise<void> {
  delete process.env.DATABASE_URL;
  const db = await benchDatabase("baton_bench_scale", { reuse: true, embedded: { dataDir: ".baton-bench/scale", port: Number(process.env.BATON_BENCH_PG_PORT ?? 24371) } });
  if (!db.reused) throw new Error("no kept bench database: run `npm run bench:scale -- --sizes 1000000 --keep --reads-only` first");
  process.env.DATABASE_URL = db.url;
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  setSummaries(false);
  try {
    const before = values.before ? ((await import(path.resolve(values.before))) as { dashboardModel: Model }).dashboardModel : null;
    const groups = (await client.query<{ group_id: string; n: string }>("SELECT group_id, count(*) AS n FROM traces WHERE group_id IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 6")).rows;
    const tasks = (await client.query<{ task_id: string; n: string }>("SELECT task_id, count(*) AS n FROM traces GROUP BY 1 ORDER BY 1 LIMIT 12")).rows;
    const task7 = (await client.query<{ n: string }>("SELECT count(*) AS n FROM traces WHERE task_id = 'task-7'")).rows[0]!.n;
    const largest = groups[0]!;
    await distinctValues(client, "task-8");
    const load = () => loadavg().map((x) => x.toFixed(1)).join(" ");
    console.log(`dashboard scan — ${ROUNDS} rounds on a task or a group, ${ALL_ROUNDS} on all traces; load average ${load()}`);
    if (before) {
      const filters: TraceFilter[] = [{}, { system: "sys-3" }, ...tasks.map((t) => ({ task_id: t.task_id })), ...groups.map((g) => ({ group_id: g.group_id }))];
      let same = 0;
      for (const f of filters) {
        for (const judges of [{ kind: "none" }, { kind: "all" }] as JudgeSelection[]) {
          const [a, b] = [JSON.stringify(await before(f, judges)), JSON.stringify(await dashboardModel(f, judges))];
          if (a !== b) throw new Error(`different answers on ${JSON.stringify(f)} judges=${judges.kind}:\n${a}\n${b}`);
          same++;
        }
      }
      console.log(`identical JSON before and after on ${same} filters (all traces, sys-3, ${tasks.length} tasks, ${groups.length} groups; judges none and all)`);
    }
    if (values.explain) {
      for (const f of [{ task_id: "task-7" }, {}] as TraceFilter[]) {
        const sql = dashboardScanSql(f, { kind: "none" });
        const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql.text}`, sql.values);
        console.log(`\nEXPLAIN ${JSON.stringify(f)}\n${rows.map((r) => r["QUERY PLAN"]).join("\n")}`);
      }
    }
    const cases: { name: string; rounds: number; filter: TraceFilter; where: string }[] = [
      { name: `task_id=task-7 (${task7} traces)`, rounds: ROUNDS, filter: { task_id: "task-7" }, where: "WHERE task_id = 'task-7'" },
      { name: `the largest group (${largest.group_id}, ${largest.n} traces)`, rounds: ROUNDS, filter: { group_id: largest.group_id }, where: `WHERE group_id = '${largest.group_id.replaceAll("'", "''")}'` },
      { name: "task_id=task-8, its float values made distinct", rounds: ROUNDS, filter: { task_id: "task-8" }, where: "WHERE task_id = 'task-8'" },
      { name: "all traces (summaries off)", rounds: ALL_ROUNDS, filter: {}, where: "" },
    ];
    for (const c of cases) {
      const variants: [string, () => Promise<unknown>][] = [
        ...(before ? [["before", () => before(c.filter)] as [string, () => Promise<unknown>]] : []),
        ["after", () => dashboardModel(c.filter)],
        ["one pass in SQL (baseline)", () => client.query(onePass(c.where))],
      ];
      const times = variants.map(() => [] as number[]);
      // warm-up (--warm calls of each): connections, and the prepared statement past the five custom plans PostgreSQL makes before it keeps a generic one, as in a running server
      for (let w = 0; w < WARM; w++) for (const [, run] of variants) await run();
      for (let r = 0; r < c.rounds; r++) {
        for (const [i, [, run]] of variants.entries()) {
          const started = performance.now();
          await run();
          times[i]!.push(performance.now() - started);
        }
      }
      const base = Math.min(...times.at(-1)!);
      const baseMedian = median(times.at(-1)!);
      console.log(`\n${c.name}`);
      for (const [i, [name]] of variants.entries()) {
        const least = Math.min(...times[i]!);
        const m = median(times[i]!);
        console.log(`  ${name}: ${fmt(m, 2)} / ${fmt(least, 2)} ms (median / least; ${fmt(m / baseMedian, 2)}x / ${fmt(least / base, 2)}x the one pass)`);
      }
    }
    console.log(`\nload average ${load()}`);
  } finally {
    setSummaries(true);
    await client.end();
    await closeDatabase();
    await db.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
