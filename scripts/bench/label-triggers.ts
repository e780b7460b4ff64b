/**
 * `npm run bench:label-triggers [-- --traces 40 --install --check --nested --concurrent 4 --seconds 5 --rounds 3]`
 *
 * What the summaries' triggers cost one label write, on the idle database: for --traces traces of
 * the kept bench:scale database (.baton-bench/scale, port BATON_BENCH_PG_PORT or 24371; DATABASE_URL
 * to use another server) that have a group and an E1, the statement a task_success label's
 * recompute runs (lib/server/compute/persist.ts: the traces row's E1 rewritten and the trace_decisions
 * row upserted with a new R_total, in one statement) under EXPLAIN ANALYZE, each in a transaction
 * that is rolled back; three ways: the summaries' triggers off, the metric summaries' only, all.
 * Prints the medians of the statement's execution time, the WAL it wrote (a label write's commit
 * waits for it to be flushed) and each trigger's time. --install first
 * installs the triggers as the code generates them now (what the migration or the rebuild installs);
 * --check writes those labels in one transaction and compares the decision summaries the triggers
 * kept with a rebuild from the rows (rolled back); --nested prints the statements the triggers ran
 * for the last of three labels, each with its time (auto_explain, without instrumentation); --concurrent n
 * commits the statement from n connections at once, the three ways in turn, each round starting one
 * way later (concurrent() below), with
 * the fold of the decision summaries' pending rows run every second beside the writers when those
 * triggers are on (as the app's background worker runs it). --against <file> measures, all the triggers on,
 * the triggers as the code generates them now beside the SQL in <file> (an older version's trigger
 * functions, e.g. the triggerSql() text of `git show <commit>:lib/server/summaries/sql.ts`), each installed in turn,
 * --rounds rounds each starting with the other one: the statement's and each trigger's median per version.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import pg from "pg";
import { decisionRebuildSql, decisionTriggerSql } from "@/lib/server/summaries/decisions-sql";
import { triggerSql } from "@/lib/server/summaries/sql";
import { benchDatabase } from "./db";

const { values } = parseArgs({
  options: {
    traces: { type: "string", default: "40" },
    nested: { type: "boolean", default: false },
    install: { type: "boolean", default: false },
    check: { type: "boolean", default: false },
    concurrent: { type: "string", default: "0" },
    seconds: { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
    against: { type: "string" },
  },
});
const PORT = Number(process.env.BATON_BENCH_PG_PORT ?? 24371);

const DECISION_COLUMNS = [
  "spawn_taken", "agents_spawned", "delegate_taken", "delegate_role_buckets", "communicate_taken", "messages", "messages_per_agent", "aggregate_taken",
  "aggregate_fan_in", "stop_taken", "policy_version", "r_total", "agents_spawned_bucket", "messages_per_agent_bucket", "aggregate_fan_in_bucket",
];

/** The recompute's shape: every decision column upserted (R_total changed), E1 flipped. */
const LABEL = `WITH m AS (UPDATE traces SET e1 = 1 - e1, updated_at = now() WHERE id = $1),
  d AS (INSERT INTO trace_decisions SELECT * FROM trace_decisions WHERE trace_id = $1
    ON CONFLICT (trace_id) DO UPDATE SET ${DECISION_COLUMNS.map((c) => (c === "r_total" ? `r_total = EXCLUDED.r_total + 0.5` : `${c} = EXCLUDED.${c}`)).join(", ")})
  SELECT 1`;

async function triggers(client: pg.Client, on: { metrics: boolean; decisions: boolean }): Promise<void> {
  const verb = (x: boolean) => (x ? "ENABLE" : "DISABLE");
  await client.query(`ALTER TABLE traces ${[...["insert", "update", "delete"].map((op) => `${verb(on.metrics)} TRIGGER summaries_${op}`), ...["update", "delete"].map((op) => `${verb(on.decisions)} TRIGGER decision_summaries_traces_${op}`)].join(", ")}`);
  await client.query(`ALTER TABLE trace_decisions ${["insert", "update", "delete"].map((op) => `${verb(on.decisions)} TRIGGER decision_summaries_decisions_${op}`).join(", ")}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** The label statement under EXPLAIN ANALYZE for each trace, rolled back: the statement's and each trigger's times and the WAL it wrote (a first pass warms the caches and the functions' plans). */
async function measure(client: pg.Client, ids: readonly number[]): Promise<{ total: number[]; wal: number[]; perTrigger: Map<string, number[]> }> {
  const total: number[] = [];
  const wal: number[] = [];
  const perTrigger = new Map<string, number[]>();
  for (const [pass, id] of [...ids, ...ids].entries()) {
    await client.query("BEGIN");
    const lsn = (await client.query<{ l: string }>("SELECT pg_current_wal_insert_lsn()::text AS l")).rows[0]!.l;
    const { rows: plan } = await client.query<{ "QUERY PLAN": [{ "Execution Time": number; Triggers?: { "Trigger Name": string; Time: number }[] }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${LABEL}`, [id]);
    const written = Number((await client.query<{ b: string }>("SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1::pg_lsn) AS b", [lsn])).rows[0]!.b);
    await client.query("ROLLBACK");
    if (pass < ids.length) continue;
    const p = plan[0]!["QUERY PLAN"][0];
    total.push(p["Execution Time"]);
    wal.push(written);
    for (const t of p.Triggers ?? []) perTrigger.set(t["Trigger Name"], [...(perTrigger.get(t["Trigger Name"]) ?? []), t.Time]);
  }
  return { total, wal, perTrigger };
}

/** The statement's median and each trigger's. */
const medians = (m: { total: number[]; perTrigger: Map<string, number[]> }) =>
  `statement ${median(m.total).toFixed(3)} ms; ${[...m.perTrigger].map(([t, ts]) => `${t} ${median(ts).toFixed(3)} ms`).join(", ")}`;

/** --against: the triggers as the code generates them now and the SQL `older` installed in turn, all triggers on, each round starting with the other. */
async function against(client: pg.Client, ids: readonly number[], older: string): Promise<void> {
  await triggers(client, { metrics: true, decisions: true });
  const now = `${triggerSql()};\n${decisionTriggerSql()}`;
  const versions = [["now", now], ["older", older]] as const;
  const all = new Map<string, { total: number[]; perTrigger: Map<string, number[]> }>();
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const k of [0, 1]) {
      const [name, sql] = versions[(round + k) % 2]!;
      await client.query(sql);
      const m = await measure(client, ids);
      console.log(`round ${round + 1}, ${name}: ${medians(m)}`);
      const acc = all.get(name) ?? { total: [] as number[], perTrigger: new Map<string, number[]>() };
      acc.total.push(...m.total);
      for (const [t, ts] of m.perTrigger) acc.perTrigger.set(t, [...(acc.perTrigger.get(t) ?? []), ...ts]);
      all.set(name, acc);
    }
  }
  for (const [name, m] of all) console.log(`${name}, all rounds: ${medians(m)}`);
  await client.query(now);
}

async function main(): Promise<void> {
  const db = await benchDatabase("baton_bench_scale", { reuse: true, embedded: { dataDir: ".baton-bench/scale", port: PORT } });
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    if (values.install) {
      // the triggers as the code generates them now (a migration or the rebuild would install the same)
      await client.query(triggerSql());
      await client.query(decisionTriggerSql());
    }
    const { rows } = await client.query<{ id: number }>(
      `SELECT t.id FROM traces t JOIN trace_decisions d ON d.trace_id = t.id WHERE t.group_id IS NOT NULL AND t.e1 IS NOT NULL ORDER BY t.id % 997, t.id LIMIT $1`,
      [Number(values.traces)],
    );
    if (values.against !== undefined) {
      await against(client, rows.map((r) => r.id), readFileSync(values.against, "utf8"));
      return;
    }
    const modes = [["triggers off", { metrics: false, decisions: false }], ["metric summaries' only", { metrics: true, decisions: false }], ["all", { metrics: true, decisions: true }]] as const;
    for (const [label, on] of modes) {
      await triggers(client, on);
      const m = await measure(client, rows.map((r) => r.id));
      console.log(`${label}: statement ${median(m.total).toFixed(3)} ms, ${median(m.wal)} bytes of WAL; ${[...m.perTrigger].map(([name, ts]) => `${name} ${median(ts).toFixed(3)} ms`).join(", ")}`);
    }
    if (Number(values.concurrent) > 0) await concurrent(db.url, client, rows.map((r) => r.id));
    if (values.check) {
      // the label writes of every trace above in one transaction, then the decision summaries the triggers kept
      // against a rebuild from the rows (rolled back)
      await client.query("BEGIN");
      // from summaries that equal the rows (the writes above with the triggers off left them behind)
      for (const statement of decisionRebuildSql()) await client.query(statement);
      for (const { id } of rows) await client.query(LABEL, [id]);
      // what the labels left pending, folded in (the reads add it; the fold job would move it)
      const { rows: f } = await client.query<{ n: number }>("SELECT baton_decision_fold(NULL, NULL) AS n");
      console.log(`pending rows folded: ${f[0]!.n}`);
      // compared as values (EXCEPT both ways), not as text: a numeric sum kept by additions may print more trailing zeros than the rebuild's
      const tables = ["decision_tallies", "decision_groups", "decision_group_sums", "decision_summary_rows"];
      const columns = new Map<string, string>();
      for (const t of tables) {
        const { rows: cs } = await client.query<{ c: string }>(`SELECT column_name AS c FROM information_schema.columns WHERE table_name = $1 AND column_name NOT IN ('id', 'created_at', 'updated_at') ORDER BY ordinal_position`, [t]);
        columns.set(t, cs.map((r) => r.c).join(", "));
        await client.query(`CREATE TEMP TABLE kept_${t} AS SELECT ${columns.get(t)} FROM ${t}`);
      }
      for (const statement of decisionRebuildSql()) await client.query(statement);
      for (const t of tables) {
        const c = columns.get(t)!;
        const { rows: d } = await client.query<{ n: number; extra: number; missing: number }>(
          `SELECT (SELECT count(*)::int FROM ${t}) AS n, (SELECT count(*)::int FROM (SELECT * FROM kept_${t} EXCEPT ALL SELECT ${c} FROM ${t}) x) AS extra, (SELECT count(*)::int FROM (SELECT ${c} FROM ${t} EXCEPT ALL SELECT * FROM kept_${t}) x) AS missing`,
        );
        const r = d[0]!;
        console.log(`${t}: ${r.n} rows rebuilt; kept by the triggers and not rebuilt: ${r.extra}, rebuilt and not kept: ${r.missing}${r.extra + r.missing === 0 ? " (equal)" : " (DIFFER)"}`);
      }
      await client.query("ROLLBACK");
    }
    if (values.nested) {
      await client.query("LOAD 'auto_explain'");
      await client.query("SET auto_explain.log_min_duration = 0; SET auto_explain.log_nested_statements = on; SET auto_explain.log_analyze = off; SET client_min_messages = log");
      const notices: string[] = [];
      client.on("notice", (n) => notices.push(n.message ?? ""));
      for (let i = 0; i < 3; i++) {
        notices.length = 0;
        await client.query("BEGIN");
        await client.query(LABEL, [rows[i % rows.length]!.id]);
        await client.query("ROLLBACK");
      }
      for (const n of notices) {
        const time = /duration: ([\d.]+) ms/.exec(n)?.[1];
        const query = /Query Text: ([^\n]*)/.exec(n)?.[1] ?? "";
        console.log(`${time ?? "?"} ms  ${query.slice(0, 160)}`);
      }
    }
  } finally {
    await triggers(client, { metrics: true, decisions: true });
    await client.end();
    await db.close();
  }
}

/**
 * --concurrent n: n clients, each on its own traces, commit the statement above one after another (autocommit: the
 * commit waits for its WAL to be flushed) for --seconds, the three ways in turn for --rounds rounds; a sixth connection
 * samples pg_stat_activity every 2 ms for backends waiting on a lock (a row another writer holds until its commit).
 * Prints per way the medians over rounds of the statement's p50 (as a client sees it), writes/s and the share of samples
 * in which some writer waited on a lock.
 */
async function concurrent(url: string, admin: pg.Client, ids: number[]): Promise<void> {
  const n = Number(values.concurrent);
  const clients = await Promise.all(Array.from({ length: n }, async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    return c;
  }));
  const [sampler, folder] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
  await Promise.all([sampler.connect(), folder.connect()]);
  // rows folded, milliseconds folding, folds that gave way to a writer
  const folded = { rows: 0, ms: 0, gaveWay: 0 };
  const pids = (await Promise.all(clients.map((c) => c.query<{ p: number }>("SELECT pg_backend_pid() AS p")))).map((r) => r.rows[0]!.p);
  const modes = [["triggers off", { metrics: false, decisions: false }], ["metric summaries' only", { metrics: true, decisions: false }], ["all", { metrics: true, decisions: true }]] as const;
  const results = new Map<string, { p50: number[]; perS: number[]; waiting: number[] }>(modes.map(([label]) => [label, { p50: [], perS: [], waiting: [] }]));
  try {
    for (let round = 0; round < Number(values.rounds); round++) {
      // each round starts one way later, so that no way is always measured first or last
      for (const [label, on] of [...modes.slice(round % modes.length), ...modes.slice(0, round % modes.length)]) {
        await triggers(admin, on);
        const times: number[] = [];
        const until = performance.now() + Number(values.seconds) * 1000;
        let samples = 0;
        let waited = 0;
        const sampling = (async () => {
          while (performance.now() < until) {
            const { rows } = await sampler.query<{ w: number }>("SELECT count(*)::int AS w FROM pg_stat_activity WHERE pid = ANY($1) AND wait_event_type = 'Lock'", [pids]);
            samples++;
            if (rows[0]!.w > 0) waited++;
            await new Promise((r) => setTimeout(r, 2));
          }
        })();
        // with the decision summaries' triggers, the fold job's work beside the writers (as the app's background worker does it)
        const folding = (async () => {
          if (!on.decisions) return;
          while (performance.now() < until) {
            await new Promise((r) => setTimeout(r, 1000));
            const started = performance.now();
            await folder.query("BEGIN");
            try {
              await folder.query("SET LOCAL lock_timeout = '200ms'");
              const { rows } = await folder.query<{ n: number }>("SELECT baton_decision_fold(NULL, 5000) AS n");
              await folder.query("COMMIT");
              folded.rows += rows[0]!.n;
            } catch (error) {
              await folder.query("ROLLBACK");
              if (!["55P03", "40P01"].includes((error as { code?: string }).code ?? "")) throw error;
              folded.gaveWay++;
            }
            folded.ms += performance.now() - started;
          }
        })();
        await Promise.all(clients.map(async (c, k) => {
          const mine = ids.filter((_, i) => i % n === k);
          for (let i = 0; performance.now() < until; i++) {
            const started = performance.now();
            await c.query(LABEL, [mine[i % mine.length]]);
            times.push(performance.now() - started);
          }
        }));
        await Promise.all([sampling, folding]);
        const r = results.get(label)!;
        r.p50.push(median(times));
        r.perS.push(times.length / Number(values.seconds));
        r.waiting.push(waited / Math.max(1, samples));
      }
    }
    console.log(`${n} concurrent writers, ${values.rounds} rounds of ${values.seconds} s per way (medians over rounds):`);
    for (const [label, r] of results) {
      console.log(`  ${label}: p50 ${median(r.p50).toFixed(2)} ms, ${median(r.perS).toFixed(0)} writes/s, a writer waiting on a lock in ${(100 * median(r.waiting)).toFixed(1)} % of samples`);
    }
    await triggers(admin, { metrics: true, decisions: true });
    console.log(`  the fold beside "all": ${folded.rows} pending rows folded in ${(folded.ms / 1000).toFixed(2)} s (${(folded.ms / Math.max(1, folded.rows)).toFixed(3)} ms a row), ${folded.gaveWay} folds gave way`);
  } finally {
    await Promise.all([...clients, sampler, folder].map((c) => c.end()));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
