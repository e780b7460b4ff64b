/**
 * `npm run bench:explore [-- --traces 1000000 --events 10000000 --runs 5 --reuse --only <words>]`
 *
 * The trace list and the content search at scale, each against the same SQL
 * without its indexes in the same run (index and bitmap scans turned off for
 * that one statement, so PostgreSQL must scan), on a fresh database (embedded
 * unless DATABASE_URL is set) filled with SQL generate_series:
 * - list: `system = sys-3`, sorted by tokens descending, first page of 50,
 *   plus its total count (what the list page runs); and every trace sorted by
 *   tokens, first page; target < 300 ms;
 * - search: a phrase that occurs in 1 event of 100,000 (`text="connection
 *   timeout"`), first page of traces plus the total, ranked (the default with
 *   text) and in creation order side by side, and one word of that phrase; target < 1 s.
 * Prints the median of --runs runs of each. Heavy: never part of npm test.
 * `--reuse` measures an already filled database again (same sizes) instead of refilling it;
 * `--explain` also prints each statement's plan (EXPLAIN ANALYZE, with the indexes).
 * `--only` measures only the statements whose name contains those words.
 */
import { parseArgs } from "node:util";
import pg from "pg";
import { traceListQuery } from "@/lib/api/filters";
import type { Prisma } from "@/lib/generated/prisma/client";
import { countSql, listPageSql } from "@/lib/server/queries/trace-list";
import { benchDatabase, fmt } from "./db";

const { values } = parseArgs({
  options: {
    traces: { type: "string", default: "1000000" },
    events: { type: "string", default: "10000000" },
    runs: { type: "string", default: "5" },
    reuse: { type: "boolean", default: false },
    explain: { type: "boolean", default: false },
    only: { type: "string" },
  },
});
const TRACES = Number(values.traces);
const EVENTS = Number(values.events);
const RUNS = Number(values.runs);
const PER = Math.max(1, Math.floor(EVENTS / TRACES));

async function fill(client: pg.Client): Promise<void> {
  const started = Date.now();
  // the indexes are built once after the rows are in (as a bulk load would), not row by row:
  // a trigram GIN index maintained per inserted row makes the fill many times slower
  const indexes = await client.query<{ name: string; def: string }>(
    "SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = 'public' AND tablename IN ('events', 'event_content', 'traces') AND indexname NOT LIKE '%_pkey' AND indexdef NOT LIKE 'CREATE UNIQUE%'",
  );
  for (const { name } of indexes.rows) await client.query(`DROP INDEX "${name}"`);
  await client.query("INSERT INTO projects (name) VALUES ('default') ON CONFLICT DO NOTHING");
  await client.query(`
    INSERT INTO traces (trace_id, project_id, task_id, system, group_id, rewards, costs, event_count, edge_count, e1,
                        makespan, total_tokens, total_cost, agent_count, error_count, tainted_events, metrics_version)
    SELECT 'bench-' || i, (SELECT id FROM projects WHERE name = 'default'), 'task-' || (i % 5000), 'sys-' || (i % 20), 'g-' || (i % 50000),
           '{}', '{"tokens": 0, "wall_clock_s": 0}', $2, 0, i % 2,
           (i * 37 % 1000)::float8, (i::bigint * 7919 % 100000)::float8, (i % 997) / 1000.0, 1 + i % 7, i % 3, 0, 'baton-spec-4'
    FROM generate_series(1, $1::int) i`, [TRACES, PER]);
  const first = (await client.query<{ id: number }>("SELECT min(id)::int AS id FROM traces")).rows[0]!.id;
  console.log(`  ${fmt(TRACES)} traces in ${fmt((Date.now() - started) / 1000, 1)} s`);
  // events and their content in chunks, so that one statement never holds everything
  const CHUNK = 1_000_000;
  for (let from = 0; from < EVENTS; from += CHUNK) {
    const to = Math.min(EVENTS, from + CHUNK);
    await client.query(`
      INSERT INTO events (trace_id, seq, pos, event_id, t, type, agent, tool)
      SELECT $3::int + s / $4::int, s % $4::int, s % $4::int, 'e' || (s % $4::int), (s % $4::int)::float8,
             (ARRAY['message','tool_call','tool_result','return']::"EventType"[])[1 + s % 4], 'agent-' || (s % 7),
             CASE WHEN s % 4 IN (1, 2) THEN 'tool-' || (s % 11) END
      FROM generate_series($1::int, $2::int - 1) s WHERE s / $4::int < $5::int`, [from, to, first, PER, TRACES]);
    await client.query(`
      INSERT INTO event_content (trace_id, seq, content)
      SELECT $3::int + s / $4::int, s % $4::int,
             CASE WHEN s % 100000 = 77 THEN 'upstream said: connection timeout after 3 retries ' ELSE 'step ' || s || ' ' END
             || md5(s::text) || ' ' || md5((s * 31)::text)
      FROM generate_series($1::int, $2::int - 1) s WHERE s / $4::int < $5::int`, [from, to, first, PER, TRACES]);
    process.stdout.write(`\r  ${fmt(to)} events`);
  }
  const built = Date.now();
  for (const { def } of indexes.rows) await client.query(def);
  console.log(`\r  ${indexes.rows.length} indexes built in ${fmt((Date.now() - built) / 1000, 1)} s`);
  await client.query("ANALYZE");
  console.log(`\r  ${fmt(EVENTS)} events and their content, indexes included, in ${fmt((Date.now() - started) / 1000, 1)} s`);
}

async function median(client: pg.Client, sql: Prisma.Sql, indexes: boolean): Promise<number> {
  const times: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    await client.query("BEGIN");
    if (!indexes) await client.query("SET LOCAL enable_indexscan = off; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_indexonlyscan = off");
    const t0 = performance.now();
    await client.query(sql.text, sql.values);
    times.push(performance.now() - t0);
    await client.query("COMMIT");
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

async function measure(client: pg.Client, name: string, sqls: Prisma.Sql[], target: number): Promise<void> {
  if (values.only !== undefined && !name.includes(values.only)) return;
  let withIdx = 0;
  let without = 0;
  for (const sql of sqls) {
    if (values.explain) console.log((await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql.text}`, sql.values)).rows.map((r) => `    ${r["QUERY PLAN"]}`).join("\n"));
    withIdx += await median(client, sql, true);
    without += await median(client, sql, false);
  }
  const verdict = withIdx < target ? "meets" : "MISSES";
  console.log(`  ${name}: ${fmt(withIdx, 1)} ms with the indexes, ${fmt(without, 1)} ms without (${fmt(without / withIdx, 1)}x); ${verdict} the ${fmt(target)} ms target`);
}

async function main(): Promise<void> {
  console.log(`bench:explore over ${fmt(TRACES)} traces and ${fmt(EVENTS)} events (${PER} per trace), median of ${RUNS} runs`);
  const db = await benchDatabase("baton_bench_explore", { reuse: values.reuse });
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const stored = db.reused ? Number((await client.query<{ n: string }>("SELECT count(*) AS n FROM traces")).rows[0]!.n) : 0;
    if (stored === TRACES) console.log(`  reusing the filled database (${fmt(stored)} traces)`);
    else await fill(client);
    const list = traceListQuery.parse({ system: "sys-3", sort: "tokens", dir: "desc", limit: "50" });
    await measure(client, "list page (system filter, sorted by tokens, 50 rows + total)", [listPageSql(list), countSql(list)], 300);
    const everyTrace = traceListQuery.parse({ sort: "tokens", dir: "desc", limit: "50" });
    await measure(client, "list page (every trace, sorted by tokens, 50 rows)", [listPageSql(everyTrace)], 300);
    // with text the list is ranked (sort=match: whole words and phrases first); the creation order beside it is the cost of the ranking
    const search = traceListQuery.parse({ text: '"connection timeout"', limit: "50" });
    await measure(client, 'content search, ranked ("connection timeout", 1 event in 100,000)', [listPageSql(search), countSql(search)], 1000);
    const unranked = traceListQuery.parse({ text: '"connection timeout"', sort: "created", limit: "50" });
    await measure(client, "the same search in creation order (no ranking)", [listPageSql(unranked), countSql(unranked)], 1000);
    // a word in every trace ("step"): past MAX_RANKED matches the list is not ranked, so the page runs its count and the page in creation order
    const common = traceListQuery.parse({ text: "step", sort: "created", limit: "50" });
    await measure(client, 'content search, a word in every trace ("step"): what the page runs (count, then newest first)', [countSql(common), listPageSql(common)], 1000);
  } finally {
    await client.end();
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
