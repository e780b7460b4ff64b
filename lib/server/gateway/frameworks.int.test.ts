/**
 * Real frameworks' runs through the gateway, replayed: their requests and
 * the upstream's answers, as `npm run frameworks:gateway` captured them
 * (lib/gateway/fixtures/<framework>-gateway.json: the OpenAI Agents SDK over
 * the Responses and chat-completions APIs, whole and streamed, and a
 * LangGraph.js supervisor behind ChatOpenAI, Mastra agents on @ai-sdk/openai
 * providers, each unchanged and pointed at the gateway by its base URL
 * alone), go through the route handlers again:
 * the upstream gets what the framework sent, and the stored calls are the
 * captured ones, each as the upstream saw it. Replayed under a replay run
 * key (docs/replay.md), the same requests are answered from the record.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as llmRoute } from "@/app/api/llm/[...path]/route";
import type { ModelCall } from "@/lib/trace/calls";
import { loadCalls } from "@/lib/server/calls/store";
import { pool, prisma } from "@/lib/server/db/client";
import { startScriptedOpenAi, type ScriptedAnswer, type ScriptedOpenAi } from "@/scripts/lib/scripted-openai";
import { recorderSettled } from "./recorder";
import { flushRuns } from "./runs";
import { stopGatewaySweeper } from "./sweeper";
import { putUpstream } from "./upstreams";
import { createReplays } from "../replay/runs";

interface CapturedRun {
  run_key: string;
  api: "responses" | "chat_completions";
  stream: boolean;
  upstream: { path: string; body: Record<string, unknown>; reply: Record<string, unknown> | null; events: Record<string, unknown>[] }[];
  calls: ModelCall[];
  events: { event_id: string; type: string; agent: string }[];
  framework_output: { final: string };
}
/** agent_header: the framework named each agent in the x-baton-agent header (the captured call's agent), which the replay sends again */
const fixtures = ["openai-agents", "ai-sdk", "langgraph", "mastra"].map((name) => JSON.parse(readFileSync(`lib/gateway/fixtures/${name}-gateway.json`, "utf8")) as { framework: string; agent_header?: boolean; runs: CapturedRun[] });

let answers: ScriptedAnswer[] = [];
let upstream: ScriptedOpenAi;
const untimed = ({ t: _t, t_end: _end, ...call }: ModelCall) => call;

beforeAll(async () => {
  upstream = await startScriptedOpenAi(() => answers.shift()!);
  await putUpstream("default", { base_url: upstream.url, api_key: null, max_reply_bytes: 1 << 20, timeout_ms: 10_000, request_token_ids: false, request_logprobs: false, tokenizer: null });
});

afterAll(async () => {
  stopGatewaySweeper();
  await pool().query("DELETE FROM gateway_upstreams");
  await upstream.close();
});

describe.each(fixtures.map((f) => [f.framework, f] as const))("%s through the gateway", (_name, captured) => {
  const headersOf = (run: CapturedRun, i: number): Record<string, string> => ({ "content-type": "application/json", ...(captured.agent_header && { "x-baton-agent": run.calls[i]!.agent }) });
  it.each(captured.runs.map((r) => [r.run_key, r] as const))("%s: the upstream gets what the SDK sent, the stored calls are the captured ones", async (runKey, run) => {
    await pool().query("DELETE FROM gateway_runs WHERE run_key = $1", [runKey]);
    await prisma().trace.deleteMany({ where: { traceId: `gw-${runKey}` } });
    upstream.requests.length = 0;
    answers = run.upstream.map((u) => ({ replay: { reply: u.reply, events: u.events } }));
    const api = run.api === "responses" ? "responses" : "chat/completions";
    for (const [i, { body }] of run.upstream.entries()) {
      const path = `run/${runKey}/v1/${api}`;
      const request = new Request(`http://localhost/api/llm/${path}`, { method: "POST", headers: headersOf(run, i), body: JSON.stringify(body) });
      const response = await llmRoute(request, { params: Promise.resolve({ path: path.split("/") }) });
      expect(response.status).toBe(200);
      await response.text();
    }
    expect(upstream.requests.map((r) => r.raw)).toEqual(run.upstream.map((u) => JSON.stringify(u.body)));
    await recorderSettled();
    const [outcome] = await flushRuns("default", runKey);
    expect(outcome!.status).toBe("stored");
    const trace = await prisma().trace.findUniqueOrThrow({ where: { traceId: `gw-${runKey}` } });
    const calls = await loadCalls(trace.id);
    expect(calls.map(untimed)).toEqual(run.calls.map(untimed));
    // the tools each call was offered, byte for byte as sent; one lane per agent (three in both scenarios)
    calls.forEach((call, i) => expect(JSON.stringify(call.tools)).toBe(JSON.stringify(run.upstream[i]!.body.tools)));
    expect(new Set(calls.map((c) => c.agent)).size).toBe(3);
    expect(calls.at(-1)!.output).toMatchObject({ role: "assistant", content: run.framework_output.final });
  });

  it.each(captured.runs.map((r) => [r.run_key, r] as const))("%s: an unchanged replay answers the SDK's requests from the record, with no upstream call and the same calls", async (runKey, run) => {
    const api = run.api === "responses" ? "responses" : "chat/completions";
    const send = async (key: string) => {
      const replies: string[] = [];
      for (const [i, { body }] of run.upstream.entries()) {
        const path = `run/${key}/v1/${api}`;
        const request = new Request(`http://localhost/api/llm/${path}`, { method: "POST", headers: headersOf(run, i), body: JSON.stringify(body) });
        const response = await llmRoute(request, { params: Promise.resolve({ path: path.split("/") }) });
        expect(response.status).toBe(200);
        replies.push(response.headers.get("x-baton-replay") ?? "upstream");
        await response.text();
      }
      await recorderSettled();
      expect((await flushRuns("default", key))[0]!.status).toBe("stored");
      return { replies, calls: await loadCalls((await prisma().trace.findUniqueOrThrow({ where: { traceId: `gw-${key}` } })).id) };
    };
    const base = `${runKey}-base`;
    await pool().query("DELETE FROM gateway_runs WHERE run_key LIKE $1", [`${runKey}%`]);
    await prisma().trace.deleteMany({ where: { traceId: { startsWith: `gw-${runKey}` } } });
    answers = run.upstream.map((u) => ({ replay: { reply: u.reply, events: u.events } }));
    const recorded = await send(base);
    const trace = await prisma().trace.findUniqueOrThrow({ where: { traceId: `gw-${base}` } });
    const [key] = await createReplays({ id: trace.id, projectId: trace.projectId }, 1);
    upstream.requests.length = 0;
    const replayed = await send(key!);
    expect(upstream.requests).toHaveLength(0);
    expect(replayed.replies).toEqual(run.upstream.map(() => "record"));
    const essence = ({ t: _t, t_end: _end, ...call }: ModelCall) => call;
    expect(replayed.calls.map(essence)).toEqual(recorded.calls.map(essence));
    await prisma().trace.deleteMany({ where: { traceId: { in: [`gw-${base}`, `gw-${key!}`] } } });
  });

  it("chat-completions calls: every message as the SDK sent it, assistant tool_calls as {id, name, arguments}", () => {
    for (const run of captured.runs.filter((r) => r.api === "chat_completions")) {
      run.calls.forEach((call, i) => {
        const sent = run.upstream[i]!.body.messages as Record<string, unknown>[];
        const expected = sent.map((m) => {
          const { tool_calls: toolCalls, ...rest } = m as { tool_calls?: { id: string; function: { name: string; arguments: string } }[] };
          return { ...rest, content: m.content ?? null, ...(toolCalls && { tool_calls: toolCalls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })) }) };
        });
        expect(call.input).toEqual(expected);
      });
    }
  });
});
