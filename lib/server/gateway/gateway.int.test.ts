/**
 * The recording gateway through its real route handlers, against a
 * scripted OpenAI-compatible upstream on 127.0.0.1 and real PostgreSQL:
 * what the client gets is what the upstream sent, what is recorded is what
 * the upstream was sent and answered, and a run becomes a trace.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as llmRoute } from "@/app/api/llm/[...path]/route";
import { POST as flushRoute } from "@/app/api/llm/flush/route";
import { GET as getUpstreamRoute, PUT as putUpstreamRoute } from "@/app/api/projects/[project]/gateway/route";
import { DELETE as deleteTokenizerRoute, GET as getTokenizerRoute, PUT as putTokenizerRoute } from "@/app/api/projects/[project]/tokenizer/route";
import { GET as statusRoute } from "@/app/api/status/route";
import { GET as exportTrace } from "@/app/api/traces/[id]/export/route";
import { POST as ingestRoute } from "@/app/api/traces/route";
import type { RecordedCall } from "@/lib/gateway/call";
import { loadCalls } from "@/lib/server/calls/store";
import { pool, prisma } from "@/lib/server/db/client";
import { authRequest, cleanAccounts, keyFor, makeUser } from "@/scripts/lib/test-auth";
import { startScriptedOpenAi, type ScriptedAnswer, type ScriptedOpenAi } from "@/scripts/lib/scripted-openai";
import { readFileSync } from "node:fs";
import { recorderSettled } from "./recorder";
import { stopGatewaySweeper } from "./sweeper";

let answers: ScriptedAnswer[] = [];
let upstream: ScriptedOpenAi;
const UPSTREAM_KEY = "sk-upstream-secret-1234";

const TOOLS = [{ type: "function", function: { name: "get_weather", description: "Weather of a city", parameters: { type: "object", properties: { city: { type: "string" } } } } }];

function llm(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const request = new Request(`http://localhost/api/llm/${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  return llmRoute(request, { params: Promise.resolve({ path: path.split("/") }) });
}

async function setUpstream(body: Record<string, unknown>, project = "default") {
  const response = await putUpstreamRoute(authRequest("PUT", `/api/projects/${project}/gateway`, {}, { base_url: upstream.url, api_key: UPSTREAM_KEY, ...body }), { params: Promise.resolve({ project }) });
  expect(response.status).toBe(200);
  return response.json() as Promise<{ upstream: Record<string, unknown> }>;
}

async function flush(runKey: string) {
  const response = await flushRoute(authRequest("POST", "/api/llm/flush", {}, { run_key: runKey }), { params: Promise.resolve({}) });
  expect(response.status).toBe(200);
  return (await response.json()) as { runs: { run_key: string; trace_id: string; status: string; calls: number | null; error: string | null }[] };
}

async function recorded(runKey: string): Promise<{ call: RecordedCall; outcome: string }[]> {
  await recorderSettled();
  const { rows } = await pool().query<{ call: RecordedCall; outcome: string }>("SELECT call, outcome FROM gateway_calls WHERE run_key = $1 ORDER BY id", [runKey]);
  return rows;
}

/** What the spec says a chat message becomes, written independently of the gateway's code: tool_calls as {id, name, arguments}. */
function specMessage(m: Record<string, unknown>): Record<string, unknown> {
  const { tool_calls: calls, ...rest } = m;
  const out: Record<string, unknown> = { ...rest, content: m.content ?? null };
  if (Array.isArray(calls)) out.tool_calls = (calls as { id: string; function: { name: string; arguments: string } }[]).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
  return out;
}

beforeAll(async () => {
  upstream = await startScriptedOpenAi(() => answers.shift() ?? { text: "ok" });
});

beforeEach(async () => {
  upstream.requests.length = 0;
  answers = [];
  await recorderSettled();
  await pool().query("DELETE FROM gateway_runs");
  await prisma().trace.deleteMany({ where: { traceId: { startsWith: "gw-" } } });
  await setUpstream({});
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

describe("chat completions through the gateway", () => {
  it("a run with parallel tool calls: the client gets the upstream's reply, calls are stored as the upstream saw them, the run becomes a trace", async () => {
    answers = [{ tools: [{ name: "get_weather", args: { city: "Paris" } }, { name: "get_weather", args: { city: "Oslo" } }] }, { text: "Paris 18 C, Oslo 4 C." }];
    const first = { model: "m", messages: [{ role: "system", content: "You plan." }, { role: "user", content: "Weather in Paris and Oslo?" }], tools: TOOLS, tool_choice: "auto", temperature: 0.3 };
    const r1 = await llm("run/r-chat/v1/chat/completions", first, { "x-baton-agent": "planner" });
    expect(r1.status).toBe(200);
    expect(r1.headers.get("x-baton-run")).toBe("r-chat");
    const reply1 = (await r1.json()) as { choices: { message: { tool_calls: { id: string }[] } }[] };
    expect(reply1).toEqual(upstream.requests[0]!.reply);
    const calls = reply1.choices[0]!.message.tool_calls;
    const second = { ...first, messages: [...first.messages, reply1.choices[0]!.message, { role: "tool", tool_call_id: calls[0]!.id, content: "18 C" }, { role: "tool", tool_call_id: calls[1]!.id, content: "4 C" }] };
    const r2 = await llm("run/r-chat/v1/chat/completions", second, { "x-baton-agent": "planner" });
    expect(await r2.json()).toEqual(upstream.requests[1]!.reply);
    // the upstream got the client's body unchanged, with the upstream's key (never the client's)
    expect(upstream.requests.map((r) => r.body)).toEqual([first, second]);
    expect(upstream.requests[0]!.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);

    const rows = await recorded("r-chat");
    expect(rows.map((r) => r.outcome)).toEqual(["complete", "complete"]);
    rows.forEach(({ call }, i) => {
      const log = upstream.requests[i]!;
      const reply = log.reply as { id: string; choices: { message: Record<string, unknown>; finish_reason: string }[]; usage: { prompt_tokens: number; completion_tokens: number } };
      expect(JSON.stringify(call.input)).toBe(JSON.stringify((log.body.messages as Record<string, unknown>[]).map(specMessage)));
      expect(JSON.stringify(call.tools)).toBe(JSON.stringify(log.body.tools));
      expect(call.output).toEqual(specMessage(reply.choices[0]!.message));
      expect(call).toMatchObject({ agent: "planner", model: "m", params: { tool_choice: "auto", temperature: 0.3 }, finish_reason: reply.choices[0]!.finish_reason, input_tokens: reply.usage.prompt_tokens, output_tokens: reply.usage.completion_tokens, response_id: reply.id, source: "gateway" });
    });
    expect(rows[0]!.call.output).toMatchObject({ content: null });

    const { runs } = await flush("r-chat");
    expect(runs).toEqual([{ run_key: "r-chat", trace_id: "gw-r-chat", status: "stored", calls: 2, error: null }]);
    const trace = await prisma().trace.findUniqueOrThrow({ where: { traceId: "gw-r-chat" } });
    const stored = await loadCalls(trace.id);
    expect(stored.map((c) => c.input)).toEqual(rows.map((r) => r.call.input));
    expect(stored.map((c) => c.output)).toEqual(rows.map((r) => r.call.output));
    expect(stored.map((c) => c.events)).toEqual([["turn-1", "tool-1-1", "tool-1-2"], ["turn-2", "final"]]);
    const events = await pool().query<{ event_id: string; type: string }>("SELECT event_id, type FROM events WHERE trace_id = $1 ORDER BY seq", [trace.id]);
    expect(events.rows.map((e) => `${e.event_id}:${e.type}`)).toEqual(["turn-1:message", "tool-1-1:tool_call", "tool-1-2:tool_call", "result-1-1:tool_result", "result-1-2:tool_result", "turn-2:message", "final:aggregate"]);
  });

  it("streams chunk by chunk: the first chunk reaches the client before the upstream has finished, the bytes unchanged", async () => {
    answers = [{ text: "Streaming is passed through as it comes.", chunkChars: 5, chunkDelayMs: 40 }];
    const started = performance.now();
    const response = await llm("run/r-stream/v1/chat/completions", { model: "m", stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: "go" }] });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = response.body!.getReader();
    const first = await reader.read();
    const firstAt = performance.now() - started;
    const parts = [first.value!];
    for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
    const total = performance.now() - started;
    expect(firstAt).toBeLessThan(total / 3);
    const text = Buffer.concat(parts).toString("utf8");
    expect(text).toBe(upstream.requests[0]!.events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("") + "data: [DONE]\n\n");
    const [row] = await recorded("r-stream");
    expect(row!.call.output).toEqual({ role: "assistant", content: "Streaming is passed through as it comes." });
    expect(row!.call).toMatchObject({ finish_reason: "stop", input_tokens: 20, output_tokens: 40 });
  });

  it("streamed parallel tool calls are put together as the whole reply would have them", async () => {
    answers = [{ tools: [{ id: "call_x", name: "a", args: { n: 1 } }, { id: "call_y", name: "b", args: { n: 2 } }] }];
    const response = await llm("run/r-stream-tools/v1/chat/completions", { model: "m", stream: true, messages: [{ role: "user", content: "go" }], tools: TOOLS });
    await response.text();
    const [row] = await recorded("r-stream-tools");
    expect(row!.call.output).toEqual({ role: "assistant", content: null, tool_calls: [{ id: "call_x", name: "a", arguments: '{"n":1}' }, { id: "call_y", name: "b", arguments: '{"n":2}' }] });
    expect(row!.call.finish_reason).toBe("tool_calls");
  });

  it("when the project asks, token ids and logprobs are requested upstream and stored; the client gets the reply it would have had", async () => {
    await setUpstream({ request_token_ids: true, request_logprobs: true });
    answers = [{ text: "Hi there" }, { text: "Hi there" }];
    const body = { model: "m", messages: [{ role: "user", content: "hello" }] };
    const whole = (await (await llm("run/r-ids/v1/chat/completions", body)).json()) as Record<string, unknown>;
    expect(upstream.requests[0]!.body).toEqual({ ...body, return_token_ids: true, logprobs: true });
    const upstreamReply = upstream.requests[0]!.reply as { prompt_token_ids?: number[]; choices: Record<string, unknown>[] };
    const { prompt_token_ids: _ids, ...withoutIds } = upstreamReply;
    expect(whole).toEqual({ ...withoutIds, choices: upstreamReply.choices.map(({ token_ids: _t, ...c }) => ({ ...c, logprobs: null })) });
    const streamed = await (await llm("run/r-ids/v1/chat/completions", { ...body, stream: true })).text();
    expect(streamed).not.toContain("token_ids");
    expect(streamed).not.toContain("logprob\"");
    const rows = await recorded("r-ids");
    const ids = [..."Hi there"].map((c) => c.codePointAt(0));
    for (const { call } of rows) {
      expect(call).toMatchObject({ response_token_ids: ids, response_logprobs: ids.map((_, i) => -(i + 1) / 100), token_source: "server" });
      expect(call.prompt_token_ids!.length).toBeGreaterThan(0);
    }
    // the parameters recorded are the client's, not what Baton added
    expect(rows[0]!.call.params).toBeUndefined();

    // the trace's extended export carries them exactly, and an import of that export gives the same calls back
    await flush("r-ids");
    const exportOf = async (id: string) => {
      const response = await exportTrace(new Request(`http://localhost/api/traces/${id}/export?format=extended`), { params: Promise.resolve({ id }) });
      expect(response.status).toBe(200);
      return JSON.parse(await response.text()) as { trace_id: string; calls: RecordedCall[] };
    };
    const exported = await exportOf("gw-r-ids");
    expect(exported.calls.map((c) => [c.prompt_token_ids, c.response_token_ids, c.response_logprobs, c.token_source, c.source])).toEqual(rows.map((r) => [r.call.prompt_token_ids, r.call.response_token_ids, r.call.response_logprobs, "server", "gateway"]));
    await prisma().trace.deleteMany({ where: { traceId: "gw-r-ids-copy" } });
    const imported = await ingestRoute(new Request("http://localhost/api/traces", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ...exported, trace_id: "gw-r-ids-copy" }) }), { params: Promise.resolve({}) });
    expect(imported.status).toBe(201);
    expect(JSON.stringify((await exportOf("gw-r-ids-copy")).calls)).toBe(JSON.stringify(exported.calls));
    await prisma().trace.deleteMany({ where: { traceId: "gw-r-ids-copy" } });
  });
});

describe("token ids from a built-in encoding", () => {
  it("a project naming o200k_base gets ids for text calls the server gave none for, marked tokenizer; the server's ids win", async () => {
    await setUpstream({ tokenizer: "o200k_base" });
    answers = [{ text: "Hello, world!" }, { text: "Hello, world!" }];
    await (await llm("run/r-tok/v1/chat/completions", { model: "m", messages: [{ role: "user", content: "Hi" }] })).text();
    await (await llm("run/r-tok/v1/chat/completions", { model: "m", messages: [{ role: "user", content: "Hi" }], return_token_ids: true })).text();
    const [own, server] = await recorded("r-tok");
    expect(own!.call).toMatchObject({ response_token_ids: [13225, 11, 2375, 0], token_source: "tokenizer" });
    // "Hi" is 12194 in o200k_base, inside the chat layout's special tokens
    expect(own!.call.prompt_token_ids).toContain(12194);
    expect(server!.call).toMatchObject({ response_token_ids: [..."Hello, world!"].map((c) => c.codePointAt(0)), token_source: "server" });
  });
});

describe("token ids from the project's own tokenizer", () => {
  const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../gateway/fixtures/${name}`, import.meta.url), "utf8")) as Record<string, unknown>;
  const tokenizerRequest = (method: string, body?: unknown) => authRequest(method, "/api/projects/default/tokenizer", {}, body);
  const at = { params: Promise.resolve({ project: "default" }) };

  it("an admin uploads tokenizer.json and its config; calls the server gave no ids get the template's, tool calls included", async () => {
    // "project" before there is one: 400 at $.tokenizer, the upstream unchanged
    const early = await putUpstreamRoute(authRequest("PUT", "/api/projects/default/gateway", {}, { base_url: upstream.url, tokenizer: "project" }), at);
    expect([early.status, ((await early.json()) as { error: { details: { path: string }[] } }).error.details[0]!.path]).toEqual([400, "$.tokenizer"]);
    // a template that cannot be parsed: 400 at $.chat_template, nothing stored
    const broken = await putTokenizerRoute(tokenizerRequest("PUT", { name: "tiny", tokenizer: fixture("tiny-bpe.tokenizer.json"), chat_template: "{% for %}" }), at);
    expect([broken.status, ((await broken.json()) as { error: { details: { path: string }[] } }).error.details[0]!.path]).toEqual([400, "$.chat_template"]);
    expect(((await (await getTokenizerRoute(tokenizerRequest("GET"), at)).json()) as { tokenizer: unknown }).tokenizer).toBeNull();

    const put = await putTokenizerRoute(tokenizerRequest("PUT", { name: "tiny", tokenizer: fixture("tiny-bpe.tokenizer.json"), tokenizer_config: fixture("tiny-bpe.tokenizer_config.json") }), at);
    expect(put.status).toBe(200);
    expect((await put.json()) as unknown).toMatchObject({ tokenizer: { project: "default", name: "tiny", vocab_size: 266, chat_template: "config" } });
    await setUpstream({ tokenizer: "project" });

    answers = [{ tools: [{ id: "call_1", name: "get_weather", args: { city: "Rome" } }] }, { text: "hello" }];
    const first = { model: "m", messages: [{ role: "user", content: "hi" }], tools: TOOLS };
    await (await llm("run/r-hf/v1/chat/completions", first)).text();
    const toolCall = (upstream.requests[0]!.reply as { choices: { message: Record<string, unknown> }[] }).choices[0]!.message;
    await (await llm("run/r-hf/v1/chat/completions", { model: "m", messages: [{ role: "user", content: "hi" }, toolCall, { role: "tool", tool_call_id: "call_1", content: "21 C" }] })).text();
    const [withTools, text] = await recorded("r-hf");
    // the second call: no tools offered, ids worked out by hand (ids 0-255 are bytes; 256-263 the merges; 264/265 <|im_start|>/<|im_end|>)
    expect(text!.call.response_token_ids).toEqual([260, 265]);
    expect(text!.call.prompt_token_ids!.slice(0, 7)).toEqual([264, 263, 10, 256, 265, 10, 264]);
    expect(text!.call.token_source).toBe("tokenizer");
    // the first: the tools in the system turn and the tool call in the reply, as the template writes them
    const merged = ["hi", "he", "ll", "hell", "hello", "us", "use", "user", "<|im_start|>", "<|im_end|>"];
    const decode = (ids: number[]) => Buffer.concat(ids.map((i) => (i < 256 ? Buffer.from([i]) : Buffer.from(merged[i - 256]!)))).toString("utf8");
    expect(withTools!.call.token_source).toBe("tokenizer");
    expect(decode(withTools!.call.prompt_token_ids!)).toContain('"name": "get_weather"');
    expect(decode(withTools!.call.response_token_ids!)).toBe('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n</tool_call><|im_end|>');

    // in use: it cannot be deleted until the upstream names another source
    expect((await deleteTokenizerRoute(tokenizerRequest("DELETE"), at)).status).toBe(409);
    await setUpstream({ tokenizer: null });
    expect((await deleteTokenizerRoute(tokenizerRequest("DELETE"), at)).status).toBe(204);
  });
});

describe("the Responses API through the gateway", () => {
  it("whole and streamed: the client gets the upstream's reply, the call is stored as chat messages", async () => {
    answers = [{ tools: [{ id: "call_r1", name: "get_weather", args: { city: "Rome" } }] }, { text: "Rome: 21 C", chunkChars: 3 }];
    const tools = [{ type: "function", name: "get_weather", parameters: { type: "object" }, strict: false }];
    const first = { model: "m", instructions: "You are the weather agent.", input: [{ role: "user", content: "Rome?" }], tools, parallel_tool_calls: true };
    const r1 = await llm("v1/responses", first, { "x-baton-run": "r-resp", "x-baton-agent": "weather" });
    expect(await r1.json()).toEqual(upstream.requests[0]!.reply);
    const second = { ...first, stream: true, input: [...first.input, ...(upstream.requests[0]!.reply!.output as unknown[]), { type: "function_call_output", call_id: "call_r1", output: "21 C" }] };
    const r2 = await llm("v1/responses", second, { "x-baton-run": "r-resp", "x-baton-agent": "weather" });
    const events = (await r2.text()).split("\n\n").filter((b) => b.includes("data: ")).map((b) => JSON.parse(b.slice(b.indexOf("data: ") + 6)) as unknown);
    expect(events).toEqual(upstream.requests[1]!.events);
    const rows = await recorded("r-resp");
    expect(rows[0]!.call).toMatchObject({
      agent: "weather",
      input: [{ role: "system", content: "You are the weather agent." }, { role: "user", content: "Rome?" }],
      output: { role: "assistant", content: null, tool_calls: [{ id: "call_r1", name: "get_weather", arguments: '{"city":"Rome"}' }] },
      tools, params: { parallel_tool_calls: true }, finish_reason: "completed", input_tokens: 20, output_tokens: 7, response_id: upstream.requests[0]!.reply!.id,
    });
    expect(JSON.stringify(rows[0]!.call.tools)).toBe(JSON.stringify(tools));
    expect(rows[1]!.call.input.slice(2)).toEqual([
      { role: "assistant", content: null, tool_calls: [{ id: "call_r1", name: "get_weather", arguments: '{"city":"Rome"}' }] },
      { role: "tool", content: "21 C", tool_call_id: "call_r1" },
    ]);
    expect(rows[1]!.call.output).toEqual({ role: "assistant", content: "Rome: 21 C" });
    const { runs } = await flush("r-resp");
    expect(runs[0]!.status).toBe("stored");
  });
});

describe("errors, timeouts and disconnects", () => {
  it("429 and 500 reach the client as the upstream sent them; nothing is recorded; the counter says so", async () => {
    const before = (await (await statusRoute(new Request("http://localhost/api/status"), { params: Promise.resolve({}) })).json()) as { gateway: { upstream_errors: number } };
    answers = [{ status: 429 }, { status: 500 }];
    const limited = await llm("run/r-err/v1/chat/completions", { model: "m", messages: [] });
    expect([limited.status, limited.headers.get("retry-after"), await limited.json()]).toEqual([429, "1", { error: { message: "scripted 429", type: "scripted", code: "429" } }]);
    const failed = await llm("run/r-err/v1/chat/completions", { model: "m", messages: [] });
    expect(failed.status).toBe(500);
    expect(await recorded("r-err")).toEqual([]);
    const after = (await (await statusRoute(new Request("http://localhost/api/status"), { params: Promise.resolve({}) })).json()) as { gateway: { upstream_errors: number } };
    expect(after.gateway.upstream_errors - before.gateway.upstream_errors).toBe(2);
  });

  it("an upstream slower than the project's time limit: 504 before the headers; a stall mid-stream cuts the stream and records what came", async () => {
    await setUpstream({ timeout_ms: 300 });
    answers = [{ text: "late", delayMs: 1000 }];
    const late = await llm("run/r-slow/v1/chat/completions", { model: "m", messages: [] });
    expect(late.status).toBe(504);
    answers = [{ text: "abcdefghijklmnopqrstuvwxyz", chunkChars: 2, chunkDelayMs: 100 }];
    const cut = await llm("run/r-slow/v1/chat/completions", { model: "m", stream: true, messages: [] });
    await expect(cut.text()).rejects.toThrow();
    const [row] = await recorded("r-slow");
    expect(row!.outcome).toBe("upstream_timeout");
    expect(typeof (row!.call.output as { content: string }).content).toBe("string");
  });

  it("a client that leaves mid-stream: the upstream call is stopped, what was seen is recorded and marked", async () => {
    answers = [{ text: "a long answer that the client will not wait for", chunkChars: 4, chunkDelayMs: 30 }];
    const response = await llm("run/r-gone/v1/chat/completions", { model: "m", stream: true, messages: [{ role: "user", content: "go" }] });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    await new Promise((r) => setTimeout(r, 150));
    expect(upstream.requests[0]!.aborted).toBe(true);
    const [row] = await recorded("r-gone");
    expect(row!.outcome).toBe("client_disconnected");
    const text = (row!.call.output as { content: string }).content;
    expect("a long answer that the client will not wait for".startsWith(text)).toBe(true);
    expect(text.length).toBeLessThan(20);
    expect(row!.call.finish_reason).toBeUndefined();
    const { runs } = await flush("r-gone");
    const trace = await prisma().trace.findUniqueOrThrow({ where: { traceId: runs[0]!.trace_id } });
    const turn = await pool().query<{ status: string }>("SELECT status FROM events WHERE trace_id = $1 AND event_id = 'turn-1'", [trace.id]);
    expect(turn.rows[0]!.status).toBe("client_disconnected");
  });

  it("a database outage loses the record, not the call, and the lost counter says so", async () => {
    const status = async () => ((await (await statusRoute(new Request("http://localhost/api/status"), { params: Promise.resolve({}) })).json()) as { gateway: { lost: number } }).gateway;
    const before = await status();
    await pool().query("ALTER TABLE gateway_calls RENAME TO gateway_calls_away");
    try {
      answers = [{ text: "still answered" }];
      const response = await llm("run/r-outage/v1/chat/completions", { model: "m", messages: [] });
      expect(((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe("still answered");
      await recorderSettled();
    } finally {
      await pool().query("ALTER TABLE gateway_calls_away RENAME TO gateway_calls");
    }
    expect((await status()).lost - before.lost).toBe(1);
  });
});

describe("access, runs and agents", () => {
  it("with accounts: an ingest key may call, a read key may not; the upstream key is never in an answer", async () => {
    const admin = await makeUser("gw-admin", { isAdmin: true });
    const ingest = await keyFor(admin, ["ingest"]);
    const read = await keyFor(admin, ["read"]);
    const body = { model: "m", messages: [] };
    const call = (bearer: string) => llmRoute(authRequest("POST", "/api/llm/v1/chat/completions", { bearer }, body), { params: Promise.resolve({ path: ["v1", "chat", "completions"] }) });
    expect((await call(ingest.bearer)).status).toBe(200);
    expect((await call(read.bearer)).status).toBe(403);
    expect((await call("sk-not-a-baton-key")).status).toBe(401);
    // the upstream's configuration is for project admins: an ingest key may not read it
    expect((await getUpstreamRoute(authRequest("GET", "/api/projects/default/gateway", { bearer: ingest.bearer }), { params: Promise.resolve({ project: "default" }) })).status).toBe(403);
    await cleanAccounts();
    const open = (await (await getUpstreamRoute(authRequest("GET", "/api/projects/default/gateway"), { params: Promise.resolve({ project: "default" }) })).json()) as { upstream: Record<string, unknown> };
    expect(open.upstream).toMatchObject({ base_url: upstream.url, has_api_key: true });
    expect(JSON.stringify(open)).not.toContain(UPSTREAM_KEY);
  });

  it("a page on another site cannot spend the upstream: cross-site writes and form or text bodies are refused before any call", async () => {
    const post = (headers: Record<string, string>) =>
      llmRoute(new Request("http://127.0.0.1:3000/api/llm/v1/chat/completions", { method: "POST", headers: { host: "127.0.0.1:3000", ...headers }, body: JSON.stringify({ model: "m", messages: [] }) }), { params: Promise.resolve({ path: ["v1", "chat", "completions"] }) });
    expect((await post({ origin: "https://evil.example", "content-type": "application/json" })).status).toBe(403);
    expect((await post({ "content-type": "text/plain" })).status).toBe(415);
    expect(upstream.requests).toHaveLength(0);
  });

  it("without a run key, calls join the project's open auto run; without an agent name, the system prompt's hash names the lane", async () => {
    const body = (system: string) => ({ model: "m", messages: [{ role: "system", content: system }, { role: "user", content: "hi" }] });
    await (await llm("v1/chat/completions", body("You are A."))).text();
    await (await llm("v1/chat/completions", body("You are B."))).text();
    await (await llm("v1/chat/completions", { ...body("You are A."), user: "alice" })).text();
    await recorderSettled();
    const { rows } = await pool().query<{ run_key: string; auto: boolean; call_count: number }>("SELECT run_key, auto, call_count FROM gateway_runs");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ auto: true, call_count: 3 });
    const agents = (await recorded(rows[0]!.run_key)).map((r) => r.call.agent);
    expect(agents[0]).toMatch(/^agent-[0-9a-f]{8}$/);
    expect(agents[1]).not.toBe(agents[0]);
    expect(agents[2]).toBe("alice");
  });

  it("a recorded call that no longer parses: the run fails with the call named, in the log and on the run; no trace is stored", async () => {
    const answer = await llm("run/r-broken/v1/chat/completions", { model: "m", messages: [{ role: "user", content: "hi" }] });
    expect(answer.status).toBe(200);
    await answer.text();
    await recorderSettled();
    const { rows } = await pool().query<{ id: string }>("UPDATE gateway_calls SET call = jsonb_set(call::jsonb, '{input}', '\"not a list\"')::json WHERE run_key = 'r-broken' RETURNING id::text AS id");
    const logged: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    try {
      const { runs } = await flush("r-broken");
      expect(runs).toEqual([{ run_key: "r-broken", trace_id: "gw-r-broken", status: "failed", calls: null, error: `recorded call ${rows[0]!.id} of the run does not parse (see the log)` }]);
    } finally {
      spy.mockRestore();
    }
    expect(logged.some((l) => l.includes(`gateway call ${rows[0]!.id} of run r-broken does not parse ($.call.input: `))).toBe(true);
    expect(await prisma().trace.count({ where: { traceId: "gw-r-broken" } })).toBe(0);
  });

  it("no upstream: 503 saying how to set one; an unknown path: 404", async () => {
    await pool().query("DELETE FROM gateway_upstreams");
    await new Promise((r) => setTimeout(r, 1100));
    expect((await llm("v1/chat/completions", { model: "m", messages: [] })).status).toBe(503);
    expect((await llm("v1/embeddings", { model: "m", input: "x" })).status).toBe(404);
  });
});
