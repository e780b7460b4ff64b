/**
 * Replays and forks through the gateway's real route handlers, against a
 * scripted upstream on 127.0.0.1 that counts the calls it receives and
 * answers by what it reads, and real PostgreSQL: an unchanged replay makes
 * no upstream call and reproduces the run; a fork is served from the
 * record up to the edit, the edit at it, and live after it; a program that
 * changes its request diverges; effects and agreement are measured.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as llmRoute } from "@/app/api/llm/[...path]/route";
import { POST as flushRoute } from "@/app/api/llm/flush/route";
import { PUT as putUpstreamRoute } from "@/app/api/projects/[project]/gateway/route";
import { POST as annotateRoute } from "@/app/api/traces/[id]/annotations/route";
import { GET as creditRoute } from "@/app/api/traces/[id]/credit/route";
import { GET as effectsRoute } from "@/app/api/traces/[id]/effects/route";
import { GET as listInterventions, POST as postIntervention } from "@/app/api/traces/[id]/interventions/route";
import { POST as postReplays } from "@/app/api/traces/[id]/replays/route";
import { ChatStreamReply } from "@/lib/gateway/chat";
import { SseReader } from "@/lib/gateway/sse";
import { newcombeInterval, spearman } from "@/lib/replay/effects";
import type { ModelCall } from "@/lib/trace/calls";
import { loadCalls } from "@/lib/server/calls/store";
import { pool, prisma } from "@/lib/server/db/client";
import { authRequest, cleanAccounts } from "@/scripts/lib/test-auth";
import { startScriptedOpenAi, type ScriptedAnswer, type ScriptedOpenAi } from "@/scripts/lib/scripted-openai";
import { recorderSettled } from "../gateway/recorder";
import { replayCounts } from "./list";
import { stopGatewaySweeper } from "../gateway/sweeper";

let upstream: ScriptedOpenAi;
const TOOLS = [{ type: "function", function: { name: "multiply", parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } } } }];
type Msg = { role: string; content: string | null; tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[]; tool_call_id?: string };

/** The model: answers by what it reads (so an edit upstream of a call changes what it says). */
function model(body: Record<string, unknown>): ScriptedAnswer {
  const messages = body.messages as Msg[];
  const last = messages.at(-1)!;
  if (messages[0]?.content === "You write.") return { text: `Final: ${String(last.content).replace("Write up: ", "")}` };
  if (last.role === "tool") return { text: `The answer is ${last.content}.` };
  if (last.role === "user") {
    const m = /(\d+) x (\d+)/.exec(String(last.content));
    return m ? { tools: [{ name: "multiply", args: { a: Number(m[1]), b: Number(m[2]) } }] } : { text: "I cannot tell." };
  }
  return { text: "No answer." };
}

/** A two-agent program: a planner that calls a tool, then a writer; graded on whether the final text says 42. */
async function program(path: string, o: { stream?: boolean; task?: string } = {}): Promise<{ final: string; success: boolean }> {
  const chat = async (agent: string, messages: Msg[], tools?: unknown[]): Promise<Msg> => {
    const request = new Request(`http://localhost/api/llm/${path}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-baton-agent": agent },
      body: JSON.stringify({ model: "m", messages, ...(tools && { tools }), ...(o.stream && { stream: true, stream_options: { include_usage: true } }) }),
    });
    const response = await llmRoute(request, { params: Promise.resolve({ path: `${path}/chat/completions`.split("/") }) });
    expect(response.status).toBe(200);
    if (!o.stream) return ((await response.json()) as { choices: { message: Msg }[] }).choices[0]!.message;
    const sse = new SseReader();
    const reply = new ChatStreamReply();
    const text = await response.text();
    for (const data of [...sse.push(new TextEncoder().encode(text)), ...sse.end()]) if (data !== "[DONE]") reply.add(JSON.parse(data) as Record<string, unknown>);
    const out = reply.reply().output;
    return { role: "assistant", content: typeof out.content === "string" ? out.content : null, ...(out.tool_calls && { tool_calls: out.tool_calls.map((c) => ({ id: c.id!, type: "function", function: { name: c.name, arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments) } })) }) };
  };
  const system: Msg = { role: "system", content: "You plan." };
  const user: Msg = { role: "user", content: o.task ?? "What is 6 x 7?" };
  const first = await chat("planner", [system, user], TOOLS);
  const results: Msg[] = (first.tool_calls ?? []).map((c) => {
    const args = JSON.parse(c.function.arguments) as { a: number; b: number };
    return { role: "tool", tool_call_id: c.id, content: String(args.a * args.b) };
  });
  const second = await chat("planner", [system, user, first, ...results], TOOLS);
  const final = await chat("writer", [{ role: "system", content: "You write." }, { role: "user", content: `Write up: ${second.content}` }]);
  return { final: final.content ?? "", success: (final.content ?? "").includes("42") };
}

async function flush(runKey: string) {
  const response = await flushRoute(authRequest("POST", "/api/llm/flush", {}, { run_key: runKey }), { params: Promise.resolve({}) });
  expect(response.status).toBe(200);
  const { runs } = (await response.json()) as { runs: { status: string; error: string | null }[] };
  expect(runs).toEqual([expect.objectContaining({ status: "stored", error: null })]);
}

const callsOf = async (traceId: string) => loadCalls((await prisma().trace.findUniqueOrThrow({ where: { traceId } })).id);
const metadataOf = async (traceId: string) => (await prisma().trace.findUniqueOrThrow({ where: { traceId } })).metadata as { counterfactual?: Record<string, unknown> };
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
const pathOf = (baseUrl: string) => baseUrl.replace(/^http:\/\/localhost\/api\/llm\//, "");
/** What a call is, for comparing runs: who, what was asked and what came back. */
const essence = (c: ModelCall) => ({ agent: c.agent, input: c.input, output: c.output, tools: c.tools, finish_reason: c.finish_reason, response_id: c.response_id });

async function replays(traceId: string, samples = 1) {
  const response = await postReplays(authRequest("POST", `/api/traces/${traceId}/replays`, {}, { samples }), ctx(traceId));
  expect(response.status).toBe(201);
  return ((await response.json()) as { runs: { run_key: string; base_url: string; trace_id: string }[] }).runs;
}

async function intervene(traceId: string, body: Record<string, unknown>) {
  const response = await postIntervention(authRequest("POST", `/api/traces/${traceId}/interventions`, {}, body), ctx(traceId));
  const json = (await response.json()) as { intervention: { id: number; call_index: number }; runs: { run_key: string; base_url: string; trace_id: string }[] };
  expect(response.status, JSON.stringify(json)).toBe(201);
  return json;
}

async function label(traceId: string, success: boolean) {
  const response = await annotateRoute(authRequest("POST", `/api/traces/${traceId}/annotations`, {}, { family: "task_success", value: success ? 1 : 0 }), ctx(traceId));
  expect(response.status).toBe(201);
}

let recordedBase: string;

beforeAll(async () => {
  upstream = await startScriptedOpenAi((body) => model(body));
  const response = await putUpstreamRoute(authRequest("PUT", "/api/projects/default/gateway", {}, { base_url: upstream.url }), { params: Promise.resolve({ project: "default" }) });
  expect(response.status).toBe(200);
});

beforeEach(async () => {
  await recorderSettled();
  await pool().query("DELETE FROM gateway_runs");
  await prisma().trace.deleteMany({ where: { traceId: { startsWith: "gw-" } } });
  upstream.requests.length = 0;
  // the run every test replays: recorded live through the gateway
  const run = await program("run/base/v1");
  expect(run).toEqual({ final: "Final: The answer is 42.", success: true });
  expect(upstream.requests).toHaveLength(3);
  await flush("base");
  recordedBase = "gw-base";
  upstream.requests.length = 0;
});

afterEach(async () => {
  await recorderSettled();
  await cleanAccounts();
});

afterAll(async () => {
  stopGatewaySweeper();
  await pool().query("DELETE FROM gateway_upstreams");
  await upstream.close();
});

describe("deterministic replay", () => {
  it("an unchanged replay reproduces the run with zero upstream calls, whole or streamed", async () => {
    const original = await callsOf(recordedBase);
    expect(original.map((c) => c.agent)).toEqual(["planner", "planner", "writer"]);
    for (const stream of [false, true]) {
      const [run] = await replays(recordedBase);
      expect(run!.base_url).toBe(`http://localhost/api/llm/run/${run!.run_key}/v1`);
      const result = await program(pathOf(run!.base_url), { stream });
      expect(result).toEqual({ final: "Final: The answer is 42.", success: true });
      expect(upstream.requests).toHaveLength(0);
      await flush(run!.run_key);
      const again = await callsOf(run!.trace_id);
      expect(again.map(essence)).toEqual(original.map(essence));
      expect((await metadataOf(run!.trace_id)).counterfactual).toMatchObject({ of: recordedBase, call_id: null, edit: null, sample: 1, group: recordedBase, divergence: null, origins: ["record", "record", "record"], served: 3, forwarded: 0 });
    }
  });

  it("a program that changes its request diverges there: recorded, and every call from it on is live", async () => {
    const [run] = await replays(recordedBase);
    const result = await program(pathOf(run!.base_url), { task: "What is 6 x 8?" });
    expect(result.success).toBe(false);
    expect(upstream.requests).toHaveLength(3);
    await flush(run!.run_key);
    expect((await metadataOf(run!.trace_id)).counterfactual).toMatchObject({ divergence: { call_index: 0, expected_call_id: "call-1", agent: "planner" }, origins: ["live", "live", "live"], served: 0, forwarded: 3 });
  });
});

describe.runIf(process.env.BATON_REPLAY_TIMING === "1")("timing (BATON_REPLAY_TIMING=1)", () => {
  it("a call served from the record against one forwarded to the scripted upstream, through the route handler", async () => {
    const n = 200;
    const time = async (path: string) => {
      const ms: number[] = [];
      for (let i = 0; i < n; i++) {
        const request = new Request(`http://localhost/api/llm/${path}/chat/completions`, { method: "POST", headers: { "content-type": "application/json", "x-baton-agent": "planner" }, body: JSON.stringify({ model: "m", messages: [{ role: "system", content: "You plan." }, { role: "user", content: "What is 6 x 7?" }], tools: TOOLS }) });
        const started = performance.now();
        const response = await llmRoute(request, { params: Promise.resolve({ path: `${path}/chat/completions`.split("/") }) });
        await response.text();
        ms.push(performance.now() - started);
      }
      ms.sort((a, b) => a - b);
      return { p50: ms[Math.floor(n / 2)]!, p99: ms[Math.floor(n * 0.99)]! };
    };
    // each served call is call-1 of its own replay (a replay key serves its record once per call)
    const keys = await replays(recordedBase, 20);
    const served: number[] = [];
    for (let i = 0; i < n; i++) {
      const key = keys[i % keys.length]!;
      if (i >= keys.length) await pool().query("UPDATE replay_runs SET state = $2 WHERE run_key = $1", [key.run_key, JSON.stringify({ cursors: {}, origins: [], divergence: null, edit_served: false })]);
      const request = new Request(`http://localhost/api/llm/run/${key.run_key}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json", "x-baton-agent": "planner" }, body: JSON.stringify({ model: "m", messages: [{ role: "system", content: "You plan." }, { role: "user", content: "What is 6 x 7?" }], tools: TOOLS }) });
      const started = performance.now();
      const response = await llmRoute(request, { params: Promise.resolve({ path: `run/${key.run_key}/v1/chat/completions`.split("/") }) });
      expect(response.headers.get("x-baton-replay")).toBe("record");
      await response.text();
      served.push(performance.now() - started);
    }
    served.sort((a, b) => a - b);
    const forwarded = await time("run/timing-live/v1");
    console.log(`served from the record: p50 ${served[n / 2]!.toFixed(2)} ms, p99 ${served[Math.floor(n * 0.99)]!.toFixed(2)} ms; forwarded: p50 ${forwarded.p50.toFixed(2)} ms, p99 ${forwarded.p99.toFixed(2)} ms (${n} calls each)`);
  });
});

describe("agents side by side", () => {
  it("a replay answers agents that call at once, in another order than recorded, from the record", async () => {
    const ask = (path: string, agent: string, content: string) => {
      const request = new Request(`http://localhost/api/llm/${path}/chat/completions`, { method: "POST", headers: { "content-type": "application/json", "x-baton-agent": agent }, body: JSON.stringify({ model: "m", messages: [{ role: "user", content }] }) });
      return llmRoute(request, { params: Promise.resolve({ path: `${path}/chat/completions`.split("/") }) }).then(async (r) => ({ replay: r.headers.get("x-baton-replay"), text: ((await r.json()) as { choices: { message: Msg }[] }).choices[0]!.message.content }));
    };
    const agents = ["a", "b", "c", "d"];
    for (const agent of agents) await ask("run/side/v1", agent, `What is ${agents.indexOf(agent) + 2} x 3? (${agent})`).then((r) => expect(r.replay).toBeNull());
    await flush("side");
    upstream.requests.length = 0;
    const [run] = await replays("gw-side");
    const answers = await Promise.all([...agents].reverse().map((agent) => ask(pathOf(run!.base_url), agent, `What is ${agents.indexOf(agent) + 2} x 3? (${agent})`)));
    expect(answers.map((a) => a.replay)).toEqual(["record", "record", "record", "record"]);
    expect(upstream.requests).toHaveLength(0);
    await flush(run!.run_key);
    expect((await metadataOf(run!.trace_id)).counterfactual).toMatchObject({ divergence: null, served: 4, forwarded: 0 });
  });
});

describe("interventions (counterfactual forks)", () => {
  it("a reply edit: the prefix from the record, the edit at the call, the live model after it", async () => {
    const { intervention, runs } = await intervene(recordedBase, { call_id: "call-1", edit: { reply: { content: null, tool_calls: [{ name: "multiply", arguments: { a: 6, b: 8 } }] } }, samples: 2, params: { temperature: 0.7 } });
    expect(intervention.call_index).toBe(0);
    expect(runs).toHaveLength(2);
    const result = await program(pathOf(runs[0]!.base_url));
    expect(result).toEqual({ final: "Final: The answer is 48.", success: false });
    // calls 2 and 3 went to the model, with the edit's consequence in them and the fork's temperature
    expect(upstream.requests).toHaveLength(2);
    expect((upstream.requests[0]!.body.messages as Msg[]).at(-1)).toMatchObject({ role: "tool", content: "48" });
    expect(upstream.requests.map((r) => r.body.temperature)).toEqual([0.7, 0.7]);
    await flush(runs[0]!.run_key);
    const fork = await callsOf(runs[0]!.trace_id);
    expect(fork[0]!.output).toMatchObject({ content: null, tool_calls: [{ name: "multiply", arguments: '{"a":6,"b":8}' }] });
    expect((await metadataOf(runs[0]!.trace_id)).counterfactual).toMatchObject({ of: recordedBase, call_id: "call-1", sample: 1, intent: "correct", divergence: null, origins: ["edit", "live", "live"] });

    const list = (await (await listInterventions(authRequest("GET", `/api/traces/${recordedBase}/interventions`), ctx(recordedBase))).json()) as { interventions: { runs: { state: string; served: number; forwarded: number }[] }[] };
    expect(list.interventions[0]!.runs.map((r) => [r.state, r.served, r.forwarded])).toEqual([["stored", 1, 2], ["waiting", 0, 0]]);
  });

  it("a later edit serves the recorded prefix across agents, then the edit", async () => {
    const { runs } = await intervene(recordedBase, { call_id: "call-3", edit: { reply: { content: "Final: it is 41." } } });
    const result = await program(pathOf(runs[0]!.base_url), { stream: true });
    expect(result).toEqual({ final: "Final: it is 41.", success: false });
    expect(upstream.requests).toHaveLength(0);
  });

  it("a tool result edit: the call that reads it goes live with the edited text", async () => {
    const { runs } = await intervene(recordedBase, { call_id: "call-2", edit: { tool_result: { content: "40" } } });
    const result = await program(pathOf(runs[0]!.base_url));
    expect(result).toEqual({ final: "Final: The answer is 40.", success: false });
    expect(upstream.requests).toHaveLength(2);
    expect((upstream.requests[0]!.body.messages as Msg[]).at(-1)).toMatchObject({ role: "tool", content: "40" });
  });

  it("refuses an unknown call or a bad edit with the path of each problem, and creates nothing", async () => {
    for (const [body, path] of [
      [{ call_id: "call-9", edit: { reply: { content: "x" } } }, "$.call_id"],
      [{ call_id: "call-1", edit: { reply: {} } }, "$.edit"],
      [{ call_id: "call-1", edit: { tool_result: { content: "x" } } }, "$.edit.tool_result"],
      [{ call_id: "call-1", edit: { reply: { content: "x" } }, samples: 0 }, "$.samples"],
    ] as const) {
      const response = await postIntervention(authRequest("POST", `/api/traces/${recordedBase}/interventions`, {}, body), ctx(recordedBase));
      expect(response.status).toBe(400);
      const json = (await response.json()) as { error: { details: { path: string }[] } };
      expect(json.error.details.map((d) => d.path).some((p) => p.startsWith(path))).toBe(true);
    }
    const { rows } = await pool().query<{ n: number }>("SELECT count(*)::int AS n FROM interventions");
    expect(rows[0]!.n).toBe(0);
  });
});

describe("measured effects", () => {
  it("effect against the unchanged replays, with Wilson and Newcombe intervals; agreement per credit method", async () => {
    await label(recordedBase, true);
    const [baseline] = await replays(recordedBase);
    await program(pathOf(baseline!.base_url));
    await flush(baseline!.run_key);
    await label(baseline!.trace_id, true);

    // neutralise each call in turn (2 samples each), grade the forks
    const edits: [string, Record<string, unknown>, string][] = [
      ["call-1", { reply: { content: "I cannot tell." } }, "neutralise"],
      ["call-2", { reply: { content: "" } }, "neutralise"],
      ["call-3", { reply: { content: "Final: The answer is 42." } }, "correct"],
    ];
    for (const [callId, edit, intent] of edits) {
      const { runs } = await intervene(recordedBase, { call_id: callId, edit, intent, samples: 2 });
      for (const run of runs) {
        const result = await program(pathOf(run.base_url));
        await flush(run.run_key);
        await label(run.trace_id, result.success);
      }
    }
    const response = await effectsRoute(authRequest("GET", `/api/traces/${recordedBase}/effects?preset=uniform`), ctx(recordedBase));
    expect(response.status).toBe(200);
    const effects = (await response.json()) as { baseline: { kind: string; outcomes: number[] }; calls: { call_id: string; effect: number; low: number | null; high: number | null; samples: number; divergences: number; signed_effect: number; credit: Record<string, number | null> }[]; agreement: Record<string, { spearman: number | null; calls: number }> };
    if (process.env.BATON_PRINT_EFFECTS) console.log(JSON.stringify(effects, null, 1));
    expect(effects.baseline).toMatchObject({ kind: "replays", outcomes: [1] });
    expect(effects.calls.map((c) => [c.call_id, c.effect, c.samples, c.divergences, c.signed_effect])).toEqual([["call-1", -1, 2, 0, 1], ["call-2", -1, 2, 0, 1], ["call-3", 0, 2, 0, 0]]);
    const n = newcombeInterval(0, 2, 1, 1)!;
    expect(effects.calls[0]!.low).toBeCloseTo(n.low, 12);
    expect(effects.calls[0]!.high).toBeCloseTo(n.high, 12);
    // agreement = Spearman of each call's credit (sum of C(v) over its events, from GET /credit) against the signed effects
    const credit = (await (await creditRoute(authRequest("GET", `/api/traces/${recordedBase}/credit?method=ccp&preset=uniform`), ctx(recordedBase))).json()) as { events: { id: string; total: number }[] };
    const byEvent = new Map(credit.events.map((e) => [e.id, e.total]));
    const calls = await callsOf(recordedBase);
    const callCredit = calls.map((c) => c.events.reduce((s, id) => s + byEvent.get(id)!, 0));
    expect(effects.calls.map((c) => c.credit.ccp)).toEqual(callCredit.map((x) => expect.closeTo(x, 12) as unknown as number));
    expect(effects.agreement.ccp!.calls).toBe(3);
    expect(effects.agreement.ccp!.spearman).toBeCloseTo(spearman(callCredit, [1, 1, 0])!, 12);
    // a fork that diverged before its edit does not count
    const { runs: [diverged] } = await intervene(recordedBase, { call_id: "call-3", edit: { reply: { content: "Final: 42" } } });
    await program(pathOf(diverged!.base_url), { task: "What is 7 x 6?" });
    await flush(diverged!.run_key);
    const after = (await (await effectsRoute(authRequest("GET", `/api/traces/${recordedBase}/effects`), ctx(recordedBase))).json()) as typeof effects;
    expect(after.calls.find((c) => c.call_id === "call-3")).toMatchObject({ effect: 0, samples: 2, divergences: 1 });
    // grpo needs a group of >= 2: no value
    expect(effects.agreement.grpo).toEqual({ spearman: null, calls: 0 });
    // what the original's page counts: 1 unchanged replay; 4 interventions (3 of 2 samples, the diverged one of 1) with 7 forks
    const base = await prisma().trace.findUniqueOrThrow({ where: { traceId: recordedBase } });
    expect(await replayCounts(base.id)).toEqual({ replays: 1, interventions: 4, forks: 7 });
  });
});
