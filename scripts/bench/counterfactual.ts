/**
 * `npm run bench:counterfactual [-- --samples 40]`
 *
 * The planted-failure benchmark of counterfactual replay (docs/replay.md
 * "Planted-failure benchmark"; the figures are in docs/metrics.md
 * "Measured effects"). Three planted programs (scripts/replay/planted-*.mjs:
 * a tool result used, delegation, an aggregation of three workers in the
 * Vercel AI SDK 6 run unchanged), each on 3 or 4 tasks, recorded through
 * the gateway (its route handlers behind node:http, in this process)
 * against a scripted model that answers by what it reads
 * (scripts/replay/planted-models.ts), in an embedded PostgreSQL of its own.
 * Per run (scripts/replay/planted-bench.ts): an unchanged replay (same
 * calls, events, outcome; upstream calls), the planted step corrected
 * (does the outcome flip?), one "no answer" edit per call (the "what
 * mattered" sweep), "no answer" and removal of the steps nobody reads
 * (changed nothing?), the effects and each credit method's Spearman
 * agreement; then the cost. Last, the stochastic model: the trip program's
 * correction forked `samples` times at temperature 0.7 (the writer wrong
 * with probability 0.35), against as many unchanged replays: the effect and
 * its interval at 1, 2, 3, 5, 10, 20, 40 samples.
 */
import { parseArgs } from "node:util";
import { CREDIT_METHODS, type CreditMethod } from "@/lib/credit";
import { measuredEffect } from "@/lib/replay/effects";
import type { RunResult } from "../replay/planted-bench";
import { benchDatabase, fmt } from "./db";

const { values } = parseArgs({ options: { samples: { type: "string", default: "40" } } });
const SAMPLES = Number(values.samples);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);
const num = (x: number | null, d = 2) => (x === null ? "–" : fmt(x, d));

async function main() {
  process.env.BATON_ALLOW_LOOPBACK = "1";
  const db = await benchDatabase("baton_counterfactual_bench");
  process.env.DATABASE_URL = db.url;
  const { startScriptedOpenAi } = await import("../lib/scripted-openai");
  const { startGatewayServer } = await import("../lib/gateway-server");
  const { putUpstream } = await import("@/lib/server/gateway/upstreams");
  const { PROGRAMS, measureRun, plantedRunners, runnerName } = await import("../replay/planted-bench");
  const { plantedModels, seeded } = await import("../replay/planted-models");
  let random: (() => number) | undefined;
  const upstream = await startScriptedOpenAi((body) => plantedModels(body, random));
  const gateway = await startGatewayServer();
  await putUpstream("default", { base_url: upstream.url, api_key: "sk-bench", max_reply_bytes: 16 << 20, timeout_ms: 60_000, request_token_ids: false, request_logprobs: false, tokenizer: null });
  process.env.BATON_REPLAY_BASE_URL = gateway.url;
  process.env.BATON_REPLAY_RUNNERS = plantedRunners();

  const started = performance.now();
  const results: RunResult[] = [];
  for (const program of PROGRAMS) {
    for (const task of program.tasks) {
      const r = await measureRun(program, task, { gateway: gateway.url, upstream, key: `bench-${program.name}-${task.arg.toLowerCase()}` });
      console.error(`${program.name} ${task.arg}: ${r.success ? "success" : "failure"}, replay ${r.replay.same_calls && r.replay.same_events && r.replay.same_outcome ? "exact" : "NOT exact"} (${r.replay.upstream} upstream), ${r.correction ? `correction ${r.correction.success ? "flips" : "does not flip"}` : "nothing planted"}, ${r.forks.length} more forks`);
      results.push(r);
      console.error(`  credit per call: ${r.credits.map((c) => `${c.agent} ccp ${num(c.credit.ccp, 3)} terminal ${num(c.credit.terminal, 3)} mc ${num(c.credit.mc_return, 3)}`).join("; ")}`);
    }
  }
  const mainSeconds = (performance.now() - started) / 1000;

  // the stochastic model: the correction of the trip's planner (Oslo), forked SAMPLES times at temperature 0.7
  const { createIntervention, createReplays } = await import("@/lib/server/replay/runs");
  const { runProgram } = await import("@/lib/server/replay/runner");
  const { pool, prisma } = await import("@/lib/server/db/client");
  const { loadCalls } = await import("@/lib/server/calls/store");
  const trip = PROGRAMS.find((p) => p.name === "trip")!;
  const oslo = trip.tasks.find((t) => t.arg === "Oslo")!;
  const row = await prisma().trace.findUniqueOrThrow({ where: { traceId: "gw-bench-trip-oslo" }, select: { id: true, projectId: true } });
  const planner = (await loadCalls(row.id)).find((c) => c.agent === "planner")!;
  random = seeded(20261206);
  const made = await createIntervention(row, { call_id: planner.id, edit: { reply: { content: "City: Oslo" } }, intent: "correct", samples: SAMPLES, params: { temperature: 0.7 }, runner: runnerName(trip, oslo) }, "bench");
  const replays = await createReplays(row, SAMPLES, runnerName(trip, oslo));
  const exitOf = async (key: string) => (await pool().query<{ runner_exit: number | null }>("SELECT runner_exit FROM replay_runs WHERE run_key = $1", [key])).rows[0]!.runner_exit;
  const forkOutcomes: number[] = [];
  const baseOutcomes: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    await runProgram({ project: "default", run_key: made.run_keys[i]! });
    forkOutcomes.push((await exitOf(made.run_keys[i]!)) === 0 ? 1 : 0);
    await runProgram({ project: "default", run_key: replays[i]! });
    baseOutcomes.push((await exitOf(replays[i]!)) === 0 ? 1 : 0);
  }
  random = undefined;

  await gateway.close();
  await upstream.close();
  (await import("@/lib/server/gateway/sweeper")).stopGatewaySweeper();
  await (await import("@/lib/server/jobs/boss")).stopBoss().catch(() => undefined);
  await pool().end();
  await db.close();

  // --- tables
  console.log(`\nplanted-failure benchmark: ${results.length} runs of ${PROGRAMS.length} programs, ${fmt(mainSeconds, 0)} s\n`);
  console.log("| program | shape | written with | runs | failed | replay exact | replay upstream calls | flips / failed runs | unreachable edits unchanged | sweep forks | median ms per intervention |");
  console.log("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  const rowsOf = (name: string | null) => results.filter((r) => name === null || r.program === name);
  for (const p of [...PROGRAMS.map((x) => x.name), null]) {
    const rs = rowsOf(p);
    const program = PROGRAMS.find((x) => x.name === p);
    const failed = rs.filter((r) => !r.success);
    const exact = rs.filter((r) => r.replay.same_calls && r.replay.same_events && r.replay.same_outcome).length;
    const unreachable = rs.flatMap((r) => r.forks.filter((f) => (program ?? PROGRAMS.find((x) => x.name === r.program)!).unreachable.includes(f.agent)).map((f) => f.success === r.success));
    const forks = rs.flatMap((r) => [...r.forks, ...(r.correction ? [r.correction] : [])]);
    console.log(`| ${p ?? "all"} | ${program?.shape ?? ""} | ${program?.framework ?? ""} | ${rs.length} | ${failed.length} | ${exact}/${rs.length} | ${rs.reduce((s, r) => s + r.replay.upstream, 0)} | ${failed.filter((r) => r.correction?.success).length}/${failed.length} | ${unreachable.filter(Boolean).length}/${unreachable.length} | ${rs.reduce((s, r) => s + r.forks.filter((f) => f.kind === "sweep").length, 0)} | ${fmt(median(forks.map((f) => f.ms)), 0)} |`);
  }

  console.log("\nSpearman agreement of each credit method with the sweep's signed effects (mean over the runs where it is defined; n = such runs), and in failed runs how often the method gives the planted call the lowest credit of the run (top-1, ties counted against it)\n");
  console.log(`| program | ${CREDIT_METHODS.join(" | ")} |`);
  console.log(`|---|${CREDIT_METHODS.map(() => "---:").join("|")}|`);
  for (const p of [...PROGRAMS.map((x) => x.name), null]) {
    const rs = rowsOf(p);
    const cell = (m: CreditMethod) => {
      const defined = rs.map((r) => r.agreement[m]).filter((x): x is number => x !== null);
      const failed = rs.filter((r) => r.planted_rank !== null);
      const top1 = failed.filter((r) => r.planted_rank![m] === 1).length;
      return `${num(mean(defined))} (n ${defined.length}); top-1 ${top1}/${failed.length}`;
    };
    console.log(`| ${p ?? "all"} | ${CREDIT_METHODS.map(cell).join(" | ")} |`);
  }

  const forks = results.flatMap((r) => [...r.forks, ...(r.correction ? [r.correction] : [])]);
  const fromRecord = forks.reduce((s, f) => s + f.from_record, 0);
  const total = forks.reduce((s, f) => s + f.served + f.forwarded, 0);
  const upstreamCalls = forks.reduce((s, f) => s + f.upstream, 0);
  const replayMs = median(results.map((r) => r.replay.ms));
  const recordMs = median(results.map((r) => r.record_ms));
  console.log(`\ncost: ${forks.length} forks made ${fmt(total)} model calls; ${fmt(fromRecord)} answered from the record (${fmt((100 * fromRecord) / total, 0)} %), ${forks.reduce((s, f) => s + f.served - f.from_record, 0)} by their edit, ${upstreamCalls} sent upstream (the forwarded count says ${forks.reduce((s, f) => s + f.forwarded, 0)}); diverged forks: ${forks.filter((f) => f.diverged).length}`);
  console.log(`wall time, median per run: recorded live ${fmt(recordMs, 0)} ms; unchanged replay ${fmt(replayMs, 0)} ms; intervention (create, run the program, store the fork) ${fmt(median(forks.map((f) => f.ms)), 0)} ms (the scripted model answers in about a millisecond: the time is the program's start and Baton's own)`);

  console.log(`\nstochastic model: the trip (Oslo) planner corrected, temperature 0.7 (the writer wrong with probability 0.35: true effect 0.65), k forks against k unchanged replays\n`);
  // the same at each k over many repeats of the sampling (the model's law, not program runs): how wide the interval is, how often it excludes 0
  const draw = seeded(7);
  const REPEATS = 2000;
  const simulated = (k: number) => {
    const widths: number[] = [];
    let excludes = 0;
    for (let r = 0; r < REPEATS; r++) {
      const forks = Array.from({ length: k }, () => ({ value: draw() < 0.65 ? 1 : 0, binary: true }));
      const e = measuredEffect(forks, Array.from({ length: k }, () => ({ value: 0, binary: true })));
      widths.push(e.high! - e.low!);
      if (e.low! > 0) excludes++;
    }
    return { width: median(widths), excludes: excludes / REPEATS };
  };
  console.log(`| k | forks succeeded | effect | 95 % interval (Newcombe) | width | excludes 0 | median width over ${fmt(REPEATS)} simulated repeats | share of repeats excluding 0 |`);
  console.log("|---:|---:|---:|---|---:|---|---:|---:|");
  for (const k of [1, 2, 3, 5, 10, 20, 40, 80].filter((k) => k <= SAMPLES)) {
    const sim = simulated(k);
    const e = measuredEffect(forkOutcomes.slice(0, k).map((value) => ({ value, binary: true })), baseOutcomes.slice(0, k).map((value) => ({ value, binary: true })));
    console.log(`| ${k} | ${forkOutcomes.slice(0, k).reduce((a, b) => a + b, 0)}/${k} | ${num(e.effect)} | [${num(e.low, 3)}, ${num(e.high, 3)}] | ${num(e.high! - e.low!, 3)} | ${e.low! > 0 ? "yes" : "no"} | ${num(sim.width, 3)} | ${fmt(100 * sim.excludes, 0)} % |`);
  }
  console.log(`baseline replays succeeded: ${baseOutcomes.reduce((a, b) => a + b, 0)}/${SAMPLES}`);
  const bad = results.some((r) => !(r.replay.same_calls && r.replay.same_events && r.replay.same_outcome) || r.replay.upstream !== 0 || (r.correction !== null && !r.correction.success));
  process.exit(bad ? 1 : 0);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
