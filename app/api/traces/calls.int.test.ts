import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { adaptOtlpSpans } from "@/lib/adapters/otlp";
import { readOtlpJson } from "@/lib/adapters/otlp-json";
import { pool, prisma } from "@/lib/server/db/client";
import { getRequest, jsonRequest, params } from "@/scripts/lib/test-http";
import { GET as exportDataset } from "../export/route";
import { GET as unitContext } from "./[id]/annotations/context/route";
import { GET as exportTrace } from "./[id]/export/route";
import { POST as ingest } from "./route";

/** Model calls (SPEC.md section 6) on real PostgreSQL: stored apart, the extended round trip, the transitions form. */
const withCalls = JSON.parse(readFileSync("lib/export/fixtures/calls-trace.json", "utf8")) as Record<string, unknown> & { calls: Record<string, unknown>[] };
const withoutCalls = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>;

async function post(body: unknown, query = "") {
  return ingest(jsonRequest(`/api/traces${query}`, body), params({}));
}
async function exported(id: string, query: string) {
  const response = await exportTrace(getRequest(`/api/traces/${id}/export?${query}`), params({ id }));
  expect(response.status).toBe(200);
  return { text: await response.text(), form: response.headers.get("x-baton-form"), note: response.headers.get("x-baton-note") };
}
const lines = (text: string) => text.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);

beforeEach(async () => {
  await prisma().trace.deleteMany();
  // labels are kept by trace_id, apart from the trace rows: another file's labels on these ids would change the numbers
  await prisma().annotation.deleteMany();
  await prisma().adjudication.deleteMany();
  expect((await post(withCalls)).status).toBe(201);
});

describe("model calls", () => {
  it("are stored in their own table, in call order, input and output as sent", async () => {
    const { rows } = await pool().query<{ seq: number; call_id: string; input: unknown; output: unknown; prompt_token_ids: number[] | null; event_ids: string[] }>(
      "SELECT c.seq, c.call_id, c.input, c.output, c.prompt_token_ids, c.event_ids FROM model_calls c JOIN traces t ON t.id = c.trace_id WHERE t.trace_id = 'calls-chain' ORDER BY c.seq",
    );
    expect(rows.map((r) => r.call_id)).toEqual(["c1", "c2", "c3"]);
    const byId = new Map(withCalls.calls.map((c) => [c.id, c]));
    for (const r of rows) {
      expect(r.input).toEqual(byId.get(r.call_id)!.input);
      expect(r.output).toEqual(byId.get(r.call_id)!.output);
      expect(r.event_ids).toEqual(byId.get(r.call_id)!.events);
    }
    expect(rows[0]!.prompt_token_ids).toEqual([1, 2, 3]);
    expect(rows[1]!.prompt_token_ids).toBeNull();
  });

  it("an invalid call is a 400 with its path, and nothing is stored", async () => {
    const bad = { ...withCalls, trace_id: "bad-calls", calls: [{ ...withCalls.calls[0], events: ["nope"] }] };
    const response = await post(bad);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { details: { path: string }[] } };
    expect(body.error.details.map((d) => d.path)).toEqual(["$.calls[0].events[0]"]);
    expect(await prisma().trace.count({ where: { traceId: "bad-calls" } })).toBe(0);
  });

  it("the extended form carries them; export -> import -> export is identical", async () => {
    const first = (await exported("calls-chain", "format=extended")).text;
    const doc = JSON.parse(first) as { calls: { id: string }[] };
    expect(doc.calls.map((c) => c.id)).toEqual(["c1", "c2", "c3"]);
    await prisma().trace.deleteMany();
    expect((await post(doc)).status).toBe(201);
    expect((await exported("calls-chain", "format=extended")).text).toBe(first);
    // an upsert replaces the calls with the new version's
    expect((await post({ ...doc, calls: doc.calls.slice(0, 1) }, "?upsert=1")).status).toBe(201);
    expect((JSON.parse((await exported("calls-chain", "format=extended")).text) as { calls: unknown[] }).calls).toHaveLength(1);
  });

  it("a call as the model saw it (tool calls without text, tool ids, tools, params, logprobs) round-trips exactly", async () => {
    const seen = {
      id: "c2", agent: "w", t: 2, t_end: 2.25, model: "m-w",
      input: [
        { role: "system", content: "Find facts." },
        { role: "user", content: "What is known?" },
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", name: "search", arguments: "{\"q\":\"facts\"}" }] },
        { role: "tool", tool_call_id: "call_1", content: "facts" },
      ],
      output: { role: "assistant", content: null, tool_calls: [{ id: "call_2", name: "finish", arguments: "{}" }, { id: "call_3", name: "note", arguments: "{\"x\":1}" }] },
      tools: [{ type: "function", function: { name: "search", parameters: { type: "object", properties: { q: { type: "string" } } } } }],
      params: { temperature: 0.7, top_p: 1, max_tokens: 256, tool_choice: "auto", parallel_tool_calls: true },
      finish_reason: "tool_calls",
      input_tokens: 31, output_tokens: 3,
      prompt_token_ids: [5, 6, 7], response_token_ids: [8, 9, 10],
      response_logprobs: [-0.25, -1.5e-7, -12.000000000000002],
      token_source: "server",
      response_id: "chatcmpl-9",
      source: "gateway",
      events: ["r"],
    };
    const doc = { ...withCalls, calls: withCalls.calls.map((c) => (c.id === "c2" ? seen : c)) };
    expect((await post(doc, "?upsert=1")).status).toBe(201);
    const first = (await exported("calls-chain", "format=extended")).text;
    const stored = (JSON.parse(first) as { calls: Record<string, unknown>[] }).calls.find((c) => c.id === "c2");
    expect(stored).toEqual(seen);
    // the keys in the documented order, nothing invented
    expect(Object.keys(stored!)).toEqual(["id", "agent", "t", "t_end", "model", "input", "output", "tools", "params", "finish_reason", "input_tokens", "output_tokens", "prompt_token_ids", "response_token_ids", "response_logprobs", "token_source", "response_id", "source", "events"]);
    await prisma().trace.deleteMany();
    expect((await post(JSON.parse(first))).status).toBe(201);
    expect((await exported("calls-chain", "format=extended")).text).toBe(first);
  });

  it("logprobs that do not match the response tokens, or a token source without ids, are 400s with their paths", async () => {
    const c2 = withCalls.calls.find((c) => c.id === "c2")!;
    const bad = { ...withCalls, trace_id: "bad-logprobs", calls: [{ ...c2, response_token_ids: [1, 2], response_logprobs: [-1] }, { ...c2, id: "c4", events: [], token_source: "server" }] };
    const response = await post(bad);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { details: { path: string }[] } };
    expect(body.error.details.map((d) => d.path)).toEqual(["$.calls[0].response_logprobs", "$.calls[1].token_source"]);
  });

  it("the strict form drops them", async () => {
    expect(JSON.parse((await exported("calls-chain", "format=strict")).text)).not.toHaveProperty("calls");
  });
});

describe("format=transitions", () => {
  it("one row per call with the hand-computed reward, credit and advantage (lib/export/transitions.test.ts)", async () => {
    const { text, form } = await exported("calls-chain", "format=transitions&method=terminal&preset=code_generation");
    expect(form).toBe("transitions");
    const rows = lines(text);
    expect(rows.map((r) => r.call_id)).toEqual(["c1", "c2", "c3"]);
    [-0.001, 0.197, -0.906].forEach((v, i) => expect(rows[i]!.reward).toBeCloseTo(v, 12));
    [-0.834, -0.503, -0.906].forEach((v, i) => expect(rows[i]!.credit).toBeCloseTo(v, 12));
    [0, 0, -1.01].forEach((v, i) => expect(rows[i]!.advantage).toBeCloseTo(v, 12));
    expect(rows[0]).toMatchObject({ hacking_flags: [], method: "terminal", preset: "code_generation", prompt_token_ids: [1, 2, 3] });
  });

  it("a trace without calls exports its event rows and says so", async () => {
    expect((await post(withoutCalls)).status).toBe(201);
    const { text, form, note } = await exported("demo-trace-001", "format=transitions");
    expect(form).toBe("rows");
    expect(note).toMatch(/no model calls/);
    expect(lines(text).every((r) => typeof r.event_id === "string")).toBe(true);
  });

  it("a dataset holds the transitions of the traces that have calls", async () => {
    expect((await post(withoutCalls)).status).toBe(201);
    const response = await exportDataset(getRequest("/api/export?format=transitions"), params({}));
    const rows = lines(await response.text());
    expect(rows.map((r) => `${String(r.traj_uid)}/${String(r.call_id)}`)).toEqual(["calls-chain/c1", "calls-chain/c2", "calls-chain/c3"]);
  });
});

describe("a framework run (OpenAI Agents over OTLP)", () => {
  it("keeps every model call and exports one transition per call, prompt and response included, credit not uniform", async () => {
    const read = readOtlpJson(JSON.parse(readFileSync("lib/adapters/otlp/fixtures/openai-agents.json", "utf8")));
    if (!read.ok) throw new Error(read.problems.join("; "));
    const trace = adaptOtlpSpans(read.spans);
    expect((await post({ ...trace, rewards: { task_success: 1 } })).status).toBe(201);
    const rows = lines((await exported(trace.trace_id, "format=transitions")).text);
    expect(rows).toHaveLength(5);
    expect(rows.map((r) => r.agent)).toEqual(["triage", "researcher", "researcher", "triage", "writer"]);
    expect((rows[0]!.prompt as { content: string }[])[1]!.content).toBe("Where is my order 42? Please answer politely.");
    expect((rows[4]!.response as { content: string }).content).toBe("Good news: your order 42 shipped on Monday and should arrive on Thursday.");
    expect(new Set(rows.map((r) => r.credit)).size).toBeGreaterThan(1);
  });
});

/** A Parquet response read with DuckDB, JSON columns parsed. */
async function parquetRows(response: Response, jsonColumns: string[]): Promise<Record<string, unknown>[]> {
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/vnd.apache.parquet");
  const file = path.join(mkdtempSync(path.join(tmpdir(), "baton-pq-")), "x.parquet");
  writeFileSync(file, Buffer.from(await response.arrayBuffer()));
  const db = await DuckDBInstance.create(":memory:");
  const reader = await (await db.connect()).runAndReadAll(`SELECT * FROM read_parquet('${file}')`);
  return (reader.getRowObjectsJson() as Record<string, unknown>[]).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, jsonColumns.includes(k) && typeof v === "string" ? JSON.parse(v) : v])));
}

describe("parquet=1", () => {
  it("per trace and per dataset, the Parquet transitions equal the JSONL ones value for value", async () => {
    const query = "format=transitions&method=terminal&preset=code_generation";
    const jsonl = lines((await exported("calls-chain", query)).text);
    const one = await parquetRows(await exportTrace(getRequest(`/api/traces/calls-chain/export?${query}&parquet=1`), params({ id: "calls-chain" })), ["prompt", "response"]);
    expect(one).toEqual(jsonl);
    const all = await parquetRows(await exportDataset(getRequest(`/api/export?${query}&parquet=1`), params({})), ["prompt", "response"]);
    expect(all).toEqual(jsonl);
  });

  it("event rows and the extended trace as one row", async () => {
    const jsonl = lines((await exported("calls-chain", "format=jsonl")).text);
    expect(await parquetRows(await exportTrace(getRequest("/api/traces/calls-chain/export?format=jsonl&parquet=1"), params({ id: "calls-chain" })), ["rewards"])).toEqual(jsonl);
    const doc = JSON.parse((await exported("calls-chain", "format=extended")).text) as Record<string, unknown>;
    const [row] = await parquetRows(await exportTrace(getRequest("/api/traces/calls-chain/export?format=extended&parquet=1"), params({ id: "calls-chain" })), ["events", "edges", "calls", "rewards", "costs", "annotations", "adjudications", "decisive_errors"]);
    for (const [key, value] of Object.entries(doc)) expect(row![key], key).toEqual(value);
  });

  it("parquet=2 is a 400 before anything is sent", async () => {
    const response = await exportTrace(getRequest("/api/traces/calls-chain/export?format=transitions&parquet=2"), params({ id: "calls-chain" }));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { details: { path: string }[] } }).error.details.map((d) => d.path)).toEqual(["parquet"]);
  });
});

describe("the label view's context", () => {
  it("names the model call an event came from, with its prompt and answer as text", async () => {
    const response = await unitContext(getRequest("/api/traces/calls-chain/annotations/context?event=s"), params({ id: "calls-chain" }));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { call: unknown };
    expect(body.call).toEqual({ id: "c1", agent: "orch", model: "m-orch", input: [{ role: "user", content: "Write a brief." }], output: { role: "assistant", content: "spawn(w)" }, events: ["d", "s"] });
    const last = (await (await unitContext(getRequest("/api/traces/calls-chain/annotations/context?event=a"), params({ id: "calls-chain" }))).json()) as { call: { output: unknown } };
    expect(last.call.output).toEqual({ role: "assistant", content: "Brief." });
  });

  it("shows the tools a message called and the tool call a result answers, and no text where there is none", async () => {
    // c2 made a call whose prompt holds a tool call and its result, and whose answer only calls tools
    const c2 = {
      id: "c2", agent: "w", t: 2, t_end: 2.25,
      input: [
        { role: "user", content: "What is known?" },
        { role: "assistant", content: null },
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", name: "search", arguments: "{\"q\":\"facts\"}" }] },
        { role: "tool", tool_call_id: "call_1", content: "facts" },
      ],
      output: { role: "assistant", content: null, tool_calls: [{ id: "call_2", name: "finish", arguments: "{}" }, { name: "note", arguments: { x: 1 } }] },
      events: ["r"],
    };
    expect((await post({ ...withCalls, calls: withCalls.calls.map((c) => (c.id === "c2" ? c2 : c)) }, "?upsert=1")).status).toBe(201);
    const response = await unitContext(getRequest("/api/traces/calls-chain/annotations/context?event=r"), params({ id: "calls-chain" }));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { call: { id: string; input: unknown[]; output: unknown } };
    expect(body.call.id).toBe("c2");
    expect(body.call.input.slice(1)).toEqual([
      { role: "assistant", content: "" },
      { role: "assistant", content: "", tool_calls: [{ id: "call_1", name: "search", arguments: "{\"q\":\"facts\"}" }] },
      { role: "tool", content: "facts", tool_call_id: "call_1" },
    ]);
    expect(body.call.output).toEqual({ role: "assistant", content: "", tool_calls: [{ id: "call_2", name: "finish", arguments: "{}" }, { id: null, name: "note", arguments: "{\"x\":1}" }] });
  });
});

describe("a stored call that does not parse", () => {
  it("is a logged 500 naming nothing of the server's internals, on export and in the label view, and changes nothing", async () => {
    // what a hand edit or a bug in another writer could leave: a prompt that is not a list of messages
    await pool().query("UPDATE model_calls SET input = '\"not a list\"'::jsonb WHERE call_id = 'c1'");
    const logged: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    try {
      const exportedAnswer = await exportTrace(getRequest("/api/traces/calls-chain/export?format=extended"), params({ id: "calls-chain" }));
      expect(exportedAnswer.status).toBe(500);
      const body = (await exportedAnswer.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("internal");
      expect(body.error.message).not.toMatch(/at \w+ \(|\.ts:\d+/);
      const context = await unitContext(getRequest("/api/traces/calls-chain/annotations/context?event=s"), params({ id: "calls-chain" }));
      expect(context.status).toBe(500);
    } finally {
      spy.mockRestore();
    }
    expect(logged.some((l) => l.includes('model call "c1" does not parse ($.input: '))).toBe(true);
    // the stored value is left as it was, for a person to see
    const { rows } = await pool().query<{ input: unknown }>("SELECT input FROM model_calls WHERE call_id = 'c1'");
    expect(rows[0]!.input).toBe("not a list");
  });
});
