/**
 * `npm run bench:blame-scale [-- --events 100005 --limit 20 --baseline]`
 *
 * Blame on one big unlabelled run (a generated trace, lib/demo syntheticTrace)
 * through GET /api/traces/{id}/blame?method=best&limit=, the route handler the
 * server runs, against its own embedded PostgreSQL (.baton-bench-blame, port
 * BATON_BENCH_PG_PORT or 24337): the first ask (202 while the ranking is made
 * by a background job in a child process), the time until the ranking is
 * stored, then each later ask for a page of top suspects (time and bytes).
 * `--baseline` also ranks the whole trace in this process and measures the
 * whole answer's size: what a request did before rankings were paged. Heavy:
 * never part of npm test.
 */
import { parseArgs } from "node:util";
import { GET as blame } from "@/app/api/traces/[id]/blame/route";
import { POST as ingest } from "@/app/api/traces/route";
import { blameInput } from "@/lib/blame";
import { rankWithDefaultModel } from "@/lib/blame/default-model";
import { syntheticTrace } from "@/lib/demo";
import { closeDatabase, pool } from "@/lib/server/db/client";
import { boss, stopBoss } from "@/lib/server/jobs/boss";
import { getRequest, jsonRequest, params } from "@/scripts/lib/test-http";
import { benchDatabase, fmt } from "./db";

const { values } = parseArgs({ options: { events: { type: "string", default: "100005" }, limit: { type: "string", default: "20" }, baseline: { type: "boolean", default: false } } });
const EVENTS = Number(values.events);
const LIMIT = Number(values.limit);
const ID = `bench-blame-${EVENTS}`;

async function ask(query: string): Promise<{ status: number; ms: number; bytes: number; body: { events?: { rank: number }[]; agents?: unknown[]; state?: string; total_events?: number; total_agents?: number } }> {
  const started = performance.now();
  const response = await blame(getRequest(`/api/traces/${ID}/blame?${query}`), params({ id: ID }));
  const text = await response.text();
  return { status: response.status, ms: performance.now() - started, bytes: Buffer.byteLength(text), body: JSON.parse(text) as never };
}

async function main(): Promise<void> {
  const db = await benchDatabase("baton_bench_blame", { embedded: { dataDir: ".baton-bench-blame", port: Number(process.env.BATON_BENCH_PG_PORT ?? 24337) } });
  process.env.DATABASE_URL = db.url;
  try {
    const trace = syntheticTrace({ events: EVENTS, seed: 7, traceId: ID });
    let started = performance.now();
    const stored = await ingest(jsonRequest("/api/traces", trace), params({}));
    if (stored.status !== 201) throw new Error(`ingest: ${stored.status} ${await stored.text()}`);
    console.log(`bench:blame-scale — one unlabelled run of ${fmt(EVENTS)} events (stored in ${fmt((performance.now() - started) / 1000, 1)} s); GET /api/traces/{id}/blame?method=best&limit=${LIMIT}`);
    // the job queue is started once per process (a running app has it): not part of a request's time
    await boss();
    const query = `method=best&limit=${LIMIT}`;
    const first = await ask(query);
    console.log(`  first ask:                 ${first.status} in ${fmt(first.ms)} ms, ${fmt(first.bytes)} bytes (state ${first.body.state ?? "-"})`);
    started = performance.now();
    let answer = first;
    while (answer.status === 202) {
      await new Promise((r) => setTimeout(r, 500));
      answer = await ask(query);
    }
    console.log(`  ranked in the background:  ${fmt((performance.now() - started) / 1000, 1)} s until the ranking was stored`);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) times.push((answer = await ask(query)).ms);
    times.sort((a, b) => a - b);
    console.log(`  later asks (5):            ${answer.status}, median ${fmt(times[2]!)} ms (max ${fmt(times[4]!)}), ${fmt(answer.bytes)} bytes: ${answer.body.events!.length} of ${fmt(answer.body.total_events!)} events, ${answer.body.agents!.length} of ${fmt(answer.body.total_agents!)} agents`);
    const next = await ask(`${query}&offset=${LIMIT}`);
    console.log(`  the next page (offset ${LIMIT}):  ${next.status} in ${fmt(next.ms)} ms, ${fmt(next.bytes)} bytes`);
    if (values.baseline) {
      started = performance.now();
      const ranking = rankWithDefaultModel(blameInput(trace));
      const ms = performance.now() - started;
      console.log(`  baseline, the whole ranking in one request's process: ${fmt(ms / 1000, 1)} s of ranking alone, ${fmt(Buffer.byteLength(JSON.stringify(ranking)) / 1e6, 1)} MB answer`);
    }
  } finally {
    pool().on("error", () => {});
    await stopBoss();
    await closeDatabase();
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
