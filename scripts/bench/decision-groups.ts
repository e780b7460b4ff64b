/**
 * `tsx --conditions=react-server scripts/bench/decision-groups.ts [-- --groups 2000,75000,600000 --runs 7 --split 3]`
 *
 * What the per-(cell, group) rows of the decision summaries cost a read: the within-group part of
 * `GET /api/decisions` from the summaries over N synthetic groups of 4-16 rollouts (every --split-th
 * one split between two cells, random arms) in decision_groups, added in a transaction that is rolled back
 * to the kept bench:scale database (.baton-bench/scale, port BATON_BENCH_PG_PORT or 24371;
 * DATABASE_URL to use another server): read from every group's rows (lib/server/decisions/analytics.ts
 * summaryWithinSql with spanning = false), and as the route reads it: the rows of the groups that span
 * cells, plus the per-cell sums of the others (summaryGroupSumsSql). Prints the rows and the median reads.
 */
import { parseArgs } from "node:util";
import pg from "pg";
import { Prisma } from "@/lib/generated/prisma/client";
import { summaryGroupSumsSql, summaryWithinSql } from "@/lib/server/decisions/analytics";
import { benchDatabase } from "./db";

const { values } = parseArgs({ options: { groups: { type: "string", default: "2000,75000,600000" }, runs: { type: "string", default: "7" }, split: { type: "string", default: "3" } } });
/** every split-th group has rollouts in two cells */
const SPLIT = Number(values.split);
const PORT = Number(process.env.BATON_BENCH_PG_PORT ?? 24371);

async function main(): Promise<void> {
  const db = await benchDatabase("baton_bench_scale", { reuse: true, embedded: { dataDir: ".baton-bench/scale", port: PORT } });
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const where = Prisma.sql`WHERE c.project_id = -1`;
  const [everyGroup, spanning, sums] = [summaryWithinSql(where, false), summaryWithinSql(where), summaryGroupSumsSql(where)];
  try {
    console.log("| synthetic (cell, group) rows selected | groups | from every group's rows, median | spanning groups' rows + cells' sums, median |\n|---:|---:|---:|---:|");
    for (const groups of values.groups.split(",").map(Number)) {
      await client.query("BEGIN");
      // group g: 4 + g % 13 rollouts, every SPLIT-th group split between two days' cells; per decision, random arms
      const { rows } = await client.query<{ n: number }>(
        `WITH g AS (SELECT g, 4 + g % 13 AS size FROM generate_series(1, $1::int) g),
         parts AS (SELECT g.g, p, CASE WHEN g.g % $2 = 0 THEN (g.size + p) / 2 ELSE g.size END AS rows FROM g CROSS JOIN generate_series(0, CASE WHEN g.g % $2 = 0 THEN 1 ELSE 0 END) p),
         ins AS (INSERT INTO decision_groups (key, project_id, system, topology, policy_version, day, group_id, rows, e1_sum,
           n1_spawn, a_spawn, n1_delegate, a_delegate, n1_communicate, a_communicate, n1_aggregate, a_aggregate, n1_stop, a_stop, spans)
         SELECT 'bench-' || g || '-' || p, -1, 'sys', 'centralized', 'ckpt', DATE '2026-01-01' + p, 'bench-group-' || g, rows, e1, ${["spawn", "delegate", "communicate", "aggregate", "stop"].map(() => "n1, least(n1, e1)").join(", ")}, g % $2 = 0
         FROM (SELECT g, p, rows, (random() * rows)::int AS e1, (random() * rows)::int AS n1 FROM parts) x RETURNING 1)
         SELECT count(*)::int AS n FROM ins`,
        [groups, SPLIT],
      );
      const time = async (statements: Prisma.Sql[]) => {
        const times: number[] = [];
        for (let i = 0; i < Number(values.runs); i++) {
          const started = performance.now();
          for (const sql of statements) await client.query(sql.text, sql.values);
          times.push(performance.now() - started);
        }
        times.sort((a, b) => a - b);
        return times[Math.floor(times.length / 2)]!.toFixed(1);
      };
      const [every, split] = [await time([everyGroup]), await time([spanning, sums])];
      await client.query("ROLLBACK");
      console.log(`| ${rows[0]!.n.toLocaleString("en")} | ${groups.toLocaleString("en")} | ${every} ms | ${split} ms |`);
    }
  } finally {
    await client.end();
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
