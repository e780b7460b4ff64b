/**
 * The planted-failure benchmark of counterfactual replay (docs/replay.md
 * "Planted-failure benchmark"), shared by `npm run bench:counterfactual`
 * and lib/server/replay/counterfactual.int.test.ts. Each planted program
 * runs as it would for a person: recorded live through the gateway, then
 * replayed and forked through Baton's own functions, each program run by
 * the runner (lib/server/replay/runner.ts: its own process, graded by its
 * exit code). For one run of one program it measures: an unchanged replay
 * (same calls, events, outcome, zero upstream calls); the correction of the
 * planted step (failed runs); a "what mattered" sweep (one "no answer"
 * edit per call); "no answer" and removal edits of the steps that cannot
 * reach the outcome; the effects and each credit method's agreement
 * (GET /api/traces/{id}/effects).
 */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { POST as flushRoute } from "@/app/api/llm/flush/route";
import { POST as annotateRoute } from "@/app/api/traces/[id]/annotations/route";
import { GET as effectsRoute } from "@/app/api/traces/[id]/effects/route";
import { CREDIT_METHODS, type CreditMethod } from "@/lib/credit";
import type { EditIntent } from "@/lib/replay/edit";
import { spearman } from "@/lib/replay/effects";
import type { ReplayState } from "@/lib/replay/plan";
import type { ModelCall } from "@/lib/trace/calls";
import type { TraceEvent } from "@/lib/trace/types";
import { loadCalls } from "@/lib/server/calls/store";
import { pool, prisma } from "@/lib/server/db/client";
import { loadTraceById } from "@/lib/server/queries/load-trace";
import { runProgram } from "@/lib/server/replay/runner";
import { createIntervention, createReplays } from "@/lib/server/replay/runs";
import { authRequest } from "../lib/test-auth";
import { NO_ANSWER } from "./planted-models";

export interface PlantedTask {
  arg: string;
  /** the planted step of a failed run: the first call of this agent, and its correct reply; null for a run without a planted mistake */
  planted: { agent: string; correct: string } | null;
}

export interface PlantedProgram {
  name: string;
  shape: string;
  framework: string;
  script: string;
  tasks: PlantedTask[];
  /** agents whose replies cannot reach the outcome (written, never read) */
  unreachable: string[];
}

export const PROGRAMS: PlantedProgram[] = [
  {
    name: "trip", shape: "tool call whose result is used", framework: "plain fetch", script: "scripts/replay/planted-trip.mjs", unreachable: ["log"],
    tasks: [{ arg: "Oslo", planted: { agent: "planner", correct: "City: Oslo" } }, { arg: "Paris", planted: null }, { arg: "Tromso", planted: { agent: "planner", correct: "City: Tromso" } }],
  },
  {
    name: "delegation", shape: "delegation", framework: "plain fetch", script: "scripts/replay/planted-delegation.mjs", unreachable: ["ticket-log"],
    tasks: [{ arg: "1", planted: null }, { arg: "2", planted: { agent: "manager", correct: "Delegate: billing" } }, { arg: "3", planted: null }, { arg: "4", planted: { agent: "manager", correct: "Delegate: billing" } }],
  },
  {
    name: "aggregation", shape: "aggregation of 3 workers", framework: "AI SDK 6 (ai 6.0.325, @ai-sdk/openai)", script: "scripts/replay/planted-aggregation-ai-sdk.mjs", unreachable: ["auditor"],
    tasks: [{ arg: "1", planted: null }, { arg: "2", planted: { agent: "worker-travel", correct: "Sum: 260" } }, { arg: "3", planted: { agent: "worker-meals", correct: "Sum: 70" } }, { arg: "4", planted: null }],
  },
];

export const runnerName = (p: PlantedProgram, t: PlantedTask) => `${p.name}-${t.arg.toLowerCase()}`;

/** BATON_REPLAY_RUNNERS for every program and task (argv names the task). */
export function plantedRunners(programs: readonly PlantedProgram[] = PROGRAMS): string {
  const runners: Record<string, unknown> = {};
  for (const p of programs) for (const t of p.tasks) runners[runnerName(p, t)] = { argv: [process.execPath, resolve(p.script), t.arg], cwd: resolve("."), env: ["PATH"], time_limit_s: 120, outcome: "exit_code" };
  return JSON.stringify(runners);
}

export interface Upstream {
  requests: unknown[];
}

export interface ForkResult {
  call_id: string;
  agent: string;
  intent: EditIntent;
  kind: "correction" | "sweep" | "unreachable-remove";
  success: boolean;
  served: number;
  forwarded: number;
  /** calls answered from the record (not sent to the model) */
  from_record: number;
  upstream: number;
  diverged: boolean;
  ms: number;
}

export interface RunResult {
  program: string;
  task: string;
  trace_id: string;
  calls: number;
  success: boolean;
  recorded_upstream: number;
  record_ms: number;
  replay: { same_calls: boolean; same_events: boolean; same_outcome: boolean; upstream: number; served: number; ms: number };
  correction: ForkResult | null;
  forks: ForkResult[];
  /** per credit method: Spearman of call credit against the sweep's signed effects (null: under 3 calls or a constant side) */
  agreement: Record<CreditMethod, number | null>;
  /** failed runs: per method, the planted call's place when calls are ordered by credit, lowest first (1 = the method blames it most) */
  planted_rank: Record<CreditMethod, number | null> | null;
  /** each call's credit under each method (the sum of C(v) over its events), in call order */
  credits: { call_id: string; agent: string; credit: Record<CreditMethod, number | null> }[];
  /** the effects endpoint's own agreement (all interventions of each call, pooled as SPEC.md section 11 says) */
  endpoint_agreement: Record<CreditMethod, number | null>;
}

const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

function runProgramLive(script: string, arg: string, baseUrl: string): Promise<number | null> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [resolve(script), arg], { env: { PATH: process.env.PATH ?? "", OPENAI_BASE_URL: baseUrl } as unknown as NodeJS.ProcessEnv, stdio: ["ignore", "ignore", "inherit"] });
    child.on("close", (code) => done(code));
  });
}

/** Agents running side by side may be recorded in either order: compared agent by agent, each agent's own order kept. */
const byAgent = <T extends { agent: string }>(xs: readonly T[]) => [...xs].sort((a, b) => (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : 0));
const callEssence = (c: ModelCall) => JSON.stringify({ agent: c.agent, input: c.input, output: c.output, finish_reason: c.finish_reason });
const eventEssence = (e: TraceEvent) => JSON.stringify({ type: e.type, agent: e.agent, role: e.role, from: e.from, to: e.to, tool: e.tool, content: e.content, status: e.status });

async function traceRow(traceId: string) {
  return prisma().trace.findUniqueOrThrow({ where: { traceId }, select: { id: true, projectId: true } });
}

async function runRow(runKey: string): Promise<{ served: number; forwarded: number; state: ReplayState; exit: number | null }> {
  const { rows } = await pool().query<{ served: number; forwarded: number; state: ReplayState; runner_exit: number | null }>("SELECT served, forwarded, state, runner_exit FROM replay_runs WHERE run_key = $1", [runKey]);
  return { ...rows[0]!, exit: rows[0]!.runner_exit };
}

/** One run of one planted program, measured end to end. `gateway`: the gateway's origin (its /api/llm routes); `upstream`: the scripted model's request log. */
export async function measureRun(program: PlantedProgram, task: PlantedTask, o: { gateway: string; upstream: Upstream; key: string; sweep?: boolean }): Promise<RunResult> {
  const runner = runnerName(program, task);
  // 1. the run, recorded live through the gateway, graded as a person would (a task_success label)
  const before = o.upstream.requests.length;
  const t0 = performance.now();
  const exit = await runProgramLive(program.script, task.arg, `${o.gateway}/api/llm/run/${o.key}/v1`);
  const flushed = await flushRoute(authRequest("POST", "/api/llm/flush", {}, { run_key: o.key }), { params: Promise.resolve({}) });
  if (flushed.status !== 200) throw new Error(`flush ${o.key}: ${flushed.status} ${await flushed.text()}`);
  const recordMs = performance.now() - t0;
  const recordedUpstream = o.upstream.requests.length - before;
  const traceId = `gw-${o.key}`;
  const success = exit === 0;
  const labelled = await annotateRoute(authRequest("POST", `/api/traces/${traceId}/annotations`, {}, { family: "task_success", value: success ? 1 : 0 }), ctx(traceId));
  if (labelled.status !== 201) throw new Error(`label ${traceId}: ${labelled.status} ${await labelled.text()}`);
  const row = await traceRow(traceId);
  const trace = { id: row.id, projectId: row.projectId };
  const calls = await loadCalls(row.id);
  const original = await loadTraceById(row.id);

  // 2. an unchanged replay
  const r0 = performance.now();
  const rb = o.upstream.requests.length;
  const [replayKey] = await createReplays(trace, 1, runner);
  await runProgram({ project: "default", run_key: replayKey! });
  const replayMs = performance.now() - r0;
  const replayRun = await runRow(replayKey!);
  const replayRow = await traceRow(`gw-${replayKey}`);
  const replayCalls = await loadCalls(replayRow.id);
  const replayTrace = await loadTraceById(replayRow.id);
  const replay = {
    same_calls: byAgent(replayCalls).map(callEssence).join("\n") === byAgent(calls).map(callEssence).join("\n"),
    same_events: byAgent(replayTrace.events).map(eventEssence).join("\n") === byAgent(original.events).map(eventEssence).join("\n"),
    same_outcome: (replayRun.exit === 0) === success,
    upstream: o.upstream.requests.length - rb,
    served: replayRun.served,
    ms: replayMs,
  };

  const fork = async (call: ModelCall, content: string, intent: EditIntent, kind: ForkResult["kind"]): Promise<ForkResult> => {
    const f0 = performance.now();
    const fb = o.upstream.requests.length;
    const made = await createIntervention(trace, { call_id: call.id, edit: { reply: { content } }, intent, samples: 1, runner }, "bench");
    await runProgram({ project: "default", run_key: made.run_keys[0]! });
    const ms = performance.now() - f0;
    const run = await runRow(made.run_keys[0]!);
    return {
      call_id: call.id, agent: call.agent, intent, kind, success: run.exit === 0, served: run.served, forwarded: run.forwarded,
      from_record: run.state.origins.filter((x) => x === "record").length, upstream: o.upstream.requests.length - fb, diverged: run.state.divergence !== null, ms,
    };
  };

  // 3. the planted step corrected
  let correction: ForkResult | null = null;
  if (task.planted !== null) {
    const planted = calls.find((c) => c.agent === task.planted!.agent);
    if (!planted) throw new Error(`${traceId}: no call of ${task.planted.agent}`);
    correction = await fork(planted, task.planted.correct, "correct", "correction");
  }
  // 4. what mattered: one "no answer" per call; the steps that cannot reach the outcome also removed (an empty reply)
  const forks: ForkResult[] = [];
  for (const call of calls) {
    if (o.sweep !== false || program.unreachable.includes(call.agent)) forks.push(await fork(call, NO_ANSWER, "neutralise", "sweep"));
    if (program.unreachable.includes(call.agent)) forks.push(await fork(call, "", "remove", "unreachable-remove"));
  }

  // 5. effects and agreement
  const response = await effectsRoute(authRequest("GET", `/api/traces/${traceId}/effects`), ctx(traceId));
  if (response.status !== 200) throw new Error(`effects ${traceId}: ${response.status} ${await response.text()}`);
  const effects = (await response.json()) as { calls: { call_id: string; credit: Record<CreditMethod, number | null>; interventions: { intent: string; effect: number | null }[] }[]; agreement: Record<CreditMethod, { spearman: number | null }> };
  const swept = effects.calls.map((c) => ({ ...c, neutral: c.interventions.find((i) => i.intent === "neutralise")?.effect ?? null })).filter((c) => c.neutral !== null);
  const agreement = Object.fromEntries(CREDIT_METHODS.map((m) => {
    const pairs = swept.filter((c) => c.credit[m] !== null);
    return [m, pairs.length < swept.length ? null : spearman(pairs.map((c) => c.credit[m]!), pairs.map((c) => -c.neutral!))];
  })) as Record<CreditMethod, number | null>;
  const plantedId = correction?.call_id ?? null;
  const planted_rank = plantedId === null ? null : Object.fromEntries(CREDIT_METHODS.map((m) => {
    const own = effects.calls.find((c) => c.call_id === plantedId)?.credit[m];
    if (own === null || own === undefined) return [m, null];
    const all = effects.calls.map((c) => c.credit[m]).filter((x): x is number => x !== null);
    // ties share the worse place (a method that gives every call the same credit names none)
    return [m, all.filter((x) => x <= own).length];
  })) as Record<CreditMethod, number | null>;
  return {
    program: program.name, task: task.arg, trace_id: traceId, calls: calls.length, success, recorded_upstream: recordedUpstream, record_ms: recordMs,
    replay, correction, forks, agreement, planted_rank,
    credits: effects.calls.map((c) => ({ call_id: c.call_id, agent: calls.find((x) => x.id === c.call_id)?.agent ?? "", credit: c.credit })),
    endpoint_agreement: Object.fromEntries(CREDIT_METHODS.map((m) => [m, effects.agreement[m]?.spearman ?? null])) as Record<CreditMethod, number | null>,
  };
}
