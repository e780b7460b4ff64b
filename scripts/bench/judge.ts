/**
 * `npm run bench:judge [-- --traces 40 --delay 50]`
 *
 * Judge throughput against the scripted OpenAI-compatible server on
 * 127.0.0.1 (each answer after `--delay` ms, standing in for model latency):
 * a fresh database with `--traces` generated traces of 25 events, a judge
 * of the `cost` family (one unit per event), one pg-boss worker. Prints
 * labels per minute with 8 concurrent requests and, as the baseline in the
 * same process, with 1.
 */
import { parseArgs } from "node:util";
import { syntheticTraces } from "@/lib/demo";
import { closeDatabase, prisma } from "@/lib/server/db/client";
import { ingestRecords } from "@/lib/server/ingest/ingest";
import { stopBoss } from "@/lib/server/jobs/boss";
import { createRun, runStatus } from "@/lib/server/judges/runs";
import { startJudgeWorker } from "@/lib/server/judges/worker";
import { startScriptedLlm } from "@/scripts/lib/scripted-llm";
import { benchDatabase, fmt } from "./db";

const { values } = parseArgs({ options: { traces: { type: "string", default: "40" }, delay: { type: "string", default: "50" } } });
const TRACES = Number(values.traces);

async function timedRun(judgeId: number, concurrency: number, traceIds: string[]): Promise<{ units: number; perMinute: number }> {
  const started = performance.now();
  const run = await createRun(judgeId, { filter: { trace_ids: traceIds }, concurrency, token_budget: null, time_budget_seconds: null, context_tokens: 4000 });
  let s = run;
  while (s.state === "running") {
    await new Promise((r) => setTimeout(r, 100));
    s = await runStatus(run.id);
  }
  const minutes = (performance.now() - started) / 60_000;
  if (s.failed > 0 || s.state !== "done") throw new Error(`run ended ${s.state} with ${s.failed} failures`);
  return { units: s.done, perMinute: s.done / minutes };
}

async function main() {
  const db = await benchDatabase("baton_bench_judge");
  process.env.DATABASE_URL = db.url;
  process.env.BATON_SECRET ??= "bench-secret";
  process.env.BATON_ALLOW_LOOPBACK ??= "1"; // its scripted model server is on 127.0.0.1
  const traces = [...syntheticTraces(TRACES, 25, 5)];
  await ingestRecords(traces.map((value, k) => ({ base: `$[${k}]`, value })), { upsert: false });
  const llm = await startScriptedLlm({ delayMs: Number(values.delay) });
  const project = await prisma().trace.findFirstOrThrow({ select: { projectId: true } });
  const judge = await prisma().judge.create({ data: { projectId: project.projectId, name: "bench", baseUrl: llm.url, model: "good", families: ["cost"] } });
  await startJudgeWorker({ batchSize: 16, pollingIntervalSeconds: 0.5 });
  const ids = traces.map((t) => t.trace_id);
  const baseline = await timedRun(judge.id, 1, ids.slice(0, Math.max(1, Math.floor(ids.length / 8))));
  llm.peakInFlight = 0;
  const eight = await timedRun(judge.id, 8, ids);
  console.log(`bench:judge — scripted server answering after ${values.delay} ms; cost family, 25 units per trace`);
  console.log(`  concurrency 1: ${fmt(baseline.units)} labels, ${fmt(baseline.perMinute)} labels/min`);
  console.log(`  concurrency 8: ${fmt(eight.units)} labels, ${fmt(eight.perMinute)} labels/min (peak ${llm.peakInFlight} requests in flight)`);
  console.log(`  ratio: ${fmt(eight.perMinute / baseline.perMinute, 2)}x`);
  await stopBoss();
  await llm.close();
  await closeDatabase();
  await db.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
