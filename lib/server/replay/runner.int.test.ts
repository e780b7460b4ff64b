/**
 * The replay runner and the planted-failure check, end to end over real
 * HTTP: the gateway's route handler behind a node:http server on
 * 127.0.0.1, a scripted upstream whose replies depend on what it reads
 * (scripts/lib/planted-model.ts), and the plain-Node multi-agent program
 * scripts/replay/planted-agents.mjs run as an operator-registered runner
 * (a pg-boss job, its own process group, OPENAI_BASE_URL set to the run's
 * URL). The recorded run fails (the planner names the wrong city); an
 * unchanged replay reproduces the failure with zero upstream calls;
 * correcting the planted step flips the outcome in every sample.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as llmRoute } from "@/app/api/llm/[...path]/route";
import { POST as flushRoute } from "@/app/api/llm/flush/route";
import { PUT as putUpstreamRoute } from "@/app/api/projects/[project]/gateway/route";
import { GET as effectsRoute } from "@/app/api/traces/[id]/effects/route";
import { GET as listRoute, POST as interveneRoute } from "@/app/api/traces/[id]/interventions/route";
import { POST as replaysRoute } from "@/app/api/traces/[id]/replays/route";
import type { ModelCall } from "@/lib/trace/calls";
import { loadCalls } from "@/lib/server/calls/store";
import { pool, prisma } from "@/lib/server/db/client";
import { authRequest } from "@/scripts/lib/test-auth";
import { plantedModel } from "@/scripts/lib/planted-model";
import { startScriptedOpenAi, type ScriptedOpenAi } from "@/scripts/lib/scripted-openai";
import { stopBoss } from "../jobs/boss";
import { stopGatewaySweeper } from "../gateway/sweeper";
import { runnerNamesFor, stopRunnerWorker } from "./runner";

const PROGRAM = resolve("scripts/replay/planted-agents.mjs");
let upstream: ScriptedOpenAi;
let server: Server;
let baseUrl: string;

type RunView = { run_key: string; trace_id: string; state: string; served: number; forwarded: number; runner: { state: string | null; exit: number | null; stdout: string; stderr: string } | null };
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

async function runsOf(traceId: string): Promise<{ interventions: { runs: RunView[] }[]; replays: RunView[] }> {
  return (await (await listRoute(authRequest("GET", `/api/traces/${traceId}/interventions`), ctx(traceId))).json()) as { interventions: { runs: RunView[] }[]; replays: RunView[] };
}

/** Waits until every listed run's program has ended and the run is stored (or the runner failed). */
async function settled(traceId: string, keys: readonly string[], seconds = 60): Promise<RunView[]> {
  const until = Date.now() + seconds * 1000;
  for (;;) {
    const all = await runsOf(traceId);
    const runs = [...all.replays, ...all.interventions.flatMap((i) => i.runs)].filter((r) => keys.includes(r.run_key));
    const done = runs.every((r) => r.runner !== null && ["exited", "timed_out", "failed"].includes(r.runner.state ?? "") && (r.state === "stored" || r.runner.state !== "exited"));
    if (done) return runs;
    if (Date.now() > until) throw new Error(`runs not settled: ${JSON.stringify(runs)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const essence = (c: ModelCall) => ({ agent: c.agent, input: c.input, output: c.output, finish_reason: c.finish_reason });
const callsOf = async (traceId: string) => loadCalls((await prisma().trace.findUniqueOrThrow({ where: { traceId } })).id);

beforeAll(async () => {
  upstream = await startScriptedOpenAi((body) => plantedModel(body));
  server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const request = new Request(url, { method: req.method, headers: req.headers as Record<string, string>, body: Buffer.concat(chunks) });
      const path = url.pathname.replace(/^\/api\/llm\//, "").split("/");
      const response = await llmRoute(request, { params: Promise.resolve({ path }) });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })().catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.BATON_REPLAY_BASE_URL = baseUrl;
  process.env.BATON_REPLAY_RUNNERS = JSON.stringify({
    planted: { argv: [process.execPath, PROGRAM], cwd: resolve("."), env: ["PATH"], time_limit_s: 60, outcome: "exit_code" },
    // starts a grandchild, prints its pid, and never ends: the limit must end both
    sleeper: { argv: [process.execPath, "-e", "const c = require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); console.log(c.pid); setInterval(() => {}, 1000);"], cwd: "/tmp", time_limit_s: 1 },
  });
  await pool().query("DELETE FROM gateway_runs");
  await prisma().trace.deleteMany({ where: { traceId: { startsWith: "gw-" } } });
  const put = await putUpstreamRoute(authRequest("PUT", "/api/projects/default/gateway", {}, { base_url: upstream.url }), { params: Promise.resolve({ project: "default" }) });
  expect(put.status).toBe(200);
});

afterAll(async () => {
  await stopRunnerWorker();
  await stopBoss();
  stopGatewaySweeper();
  await pool().query("DELETE FROM gateway_upstreams");
  await new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
  await upstream.close();
  delete process.env.BATON_REPLAY_RUNNERS;
  delete process.env.BATON_REPLAY_BASE_URL;
});

describe("the planted-failure check", () => {
  it("recorded run fails; unchanged replay reproduces it with zero upstream calls; correcting the planted step flips it", { timeout: 120_000 }, async () => {
    // the run, recorded live: the planner's planted mistake (Paris) makes the advice wrong
    const recorded = await new Promise<{ code: number | null; out: string }>((done) => {
      const child = spawn(process.execPath, [PROGRAM], { env: { PATH: process.env.PATH ?? "", OPENAI_BASE_URL: `${baseUrl}/api/llm/run/planted-base/v1` } as unknown as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.on("data", (c: Buffer) => (out += c.toString()));
      child.on("close", (code) => done({ code, out }));
    });
    expect(recorded.code).toBe(1);
    expect(JSON.parse(recorded.out)).toEqual({ final: "Pack light clothes and sunglasses.", success: false });
    expect(upstream.requests).toHaveLength(4);
    const flushed = await flushRoute(authRequest("POST", "/api/llm/flush", {}, { run_key: "planted-base" }), { params: Promise.resolve({}) });
    expect(flushed.status).toBe(200);
    const original = await callsOf("gw-planted-base");
    expect(original.map((c) => c.agent)).toEqual(["planner", "researcher", "researcher", "writer"]);
    upstream.requests.length = 0;

    // unchanged replay, run by the runner: the same calls, the same failure, no model call
    const replay = (await (await replaysRoute(authRequest("POST", "/api/traces/gw-planted-base/replays", {}, { runner: "planted" }), ctx("gw-planted-base"))).json()) as { runs: { run_key: string; trace_id: string }[] };
    const [replayed] = await settled("gw-planted-base", replay.runs.map((r) => r.run_key));
    expect(replayed!.runner).toMatchObject({ state: "exited", exit: 1 });
    expect(JSON.parse(replayed!.runner!.stdout)).toEqual({ final: "Pack light clothes and sunglasses.", success: false });
    expect(replayed).toMatchObject({ state: "stored", served: 4, forwarded: 0 });
    expect(upstream.requests).toHaveLength(0);
    expect((await callsOf(replay.runs[0]!.trace_id)).map(essence)).toEqual(original.map(essence));

    // the correction at the planted step, 3 samples: the rest of the run live
    const intervention = await interveneRoute(authRequest("POST", "/api/traces/gw-planted-base/interventions", {}, { call_id: "call-1", edit: { reply: { content: "City: Oslo" } }, samples: 3, runner: "planted" }), ctx("gw-planted-base"));
    expect(intervention.status).toBe(201);
    const forks = ((await intervention.json()) as { runs: { run_key: string }[] }).runs;
    const done = await settled("gw-planted-base", forks.map((r) => r.run_key));
    expect(done.map((r) => [r.runner?.exit, r.served, r.forwarded, r.state])).toEqual([[0, 1, 3, "stored"], [0, 1, 3, "stored"], [0, 1, 3, "stored"]]);
    expect(upstream.requests).toHaveLength(9);
    expect(upstream.requests.every((r) => !JSON.stringify(r.body).includes("Paris"))).toBe(true);

    const effects = (await (await effectsRoute(authRequest("GET", "/api/traces/gw-planted-base/effects"), ctx("gw-planted-base"))).json()) as { baseline: { kind: string; outcomes: number[] }; calls: { call_id: string; effect: number; samples: number; confirmed_by_replay: boolean | null }[] };
    expect(effects.baseline).toEqual({ kind: "replays", runs: [replay.runs[0]!.run_key], outcomes: [0] });
    expect(effects.calls).toEqual([expect.objectContaining({ call_id: "call-1", effect: 1, samples: 3, confirmed_by_replay: true })]);
  });
});

describe("the runner", () => {
  it("ends the whole process group at the time limit and keeps the output", { timeout: 30_000 }, async () => {
    const response = await replaysRoute(authRequest("POST", "/api/traces/gw-planted-base/replays", {}, { runner: "sleeper" }), ctx("gw-planted-base"));
    expect(response.status).toBe(201);
    const keys = ((await response.json()) as { runs: { run_key: string }[] }).runs.map((r) => r.run_key);
    const [run] = await settled("gw-planted-base", keys);
    expect(run!.runner).toMatchObject({ state: "timed_out" });
    const grandchild = Number(run!.runner!.stdout.trim());
    expect(grandchild).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 300));
    // gone, or dead and waiting to be reaped by whoever adopted it (state Z)
    const state = (() => {
      try {
        return /^\d+ \(.*\) (\S)/.exec(readFileSync(`/proc/${grandchild}/stat`, "utf8"))?.[1] ?? "gone";
      } catch {
        return "gone";
      }
    })();
    expect(["gone", "Z"]).toContain(state);
  });

  it("the label view is offered the runners the trace's project may name, and none without a usable configuration", () => {
    expect(runnerNamesFor("default")).toEqual(["planted", "sleeper"]);
    const registered = process.env.BATON_REPLAY_RUNNERS!;
    const base = process.env.BATON_REPLAY_BASE_URL!;
    try {
      process.env.BATON_REPLAY_RUNNERS = JSON.stringify({ b: { argv: ["x"], cwd: "/tmp", projects: ["research"] }, a: { argv: ["x"], cwd: "/tmp" } });
      expect(runnerNamesFor("default")).toEqual(["a"]);
      expect(runnerNamesFor("research")).toEqual(["a", "b"]);
      process.env.BATON_REPLAY_RUNNERS = "{not json";
      expect(runnerNamesFor("default")).toEqual([]);
      process.env.BATON_REPLAY_RUNNERS = registered;
      delete process.env.BATON_REPLAY_BASE_URL;
      expect(runnerNamesFor("default")).toEqual([]);
    } finally {
      process.env.BATON_REPLAY_RUNNERS = registered;
      process.env.BATON_REPLAY_BASE_URL = base;
    }
  });

  it("a request names a registered runner, never a command", async () => {
    for (const [body, path] of [[{ runner: "nope" }, "$.runner"], [{ runner: "planted", argv: ["sh", "-c", "id"] }, "$"]] as const) {
      const response = await replaysRoute(authRequest("POST", "/api/traces/gw-planted-base/replays", {}, body), ctx("gw-planted-base"));
      expect(response.status).toBe(400);
      const json = (await response.json()) as { error: { details: { path: string }[] } };
      expect(json.error.details.some((d) => d.path.startsWith(path))).toBe(true);
    }
  });
});
