import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { prisma } from "@/lib/server/db/client";
import { getRequest, jsonRequest, params, type ErrorBody } from "@/scripts/lib/test-http";
import { GET as getTrace } from "./[id]/route";
import { GET as getEvents } from "./[id]/events/route";
import { GET as listTraces, POST } from "./route";

const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown> & {
  events: Record<string, unknown>[];
  edges: Record<string, unknown>[];
};

function trace(id: string, patch: (t: typeof example) => void = () => {}) {
  const t = structuredClone(example);
  t.trace_id = id;
  patch(t);
  return t;
}

async function counts() {
  const [traces, events, edges, content] = await Promise.all([
    prisma().trace.count(),
    prisma().event.count(),
    prisma().edge.count(),
    prisma().eventContent.count(),
  ]);
  return { traces, events, edges, content };
}

async function post(body: unknown, query = "") {
  const response = await POST(jsonRequest(`/api/traces${query}`, body), params({}));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & ErrorBody };
}

beforeEach(async () => {
  await prisma().trace.deleteMany();
});

describe("POST /api/traces: valid input", () => {
  it("stores the paper's example trace unchanged and returns it in extended form", async () => {
    const { status, body } = await post(example);
    expect(status).toBe(201);
    expect(body).toMatchObject({ traces: [{ trace_id: "demo-trace-001", events: 8, edges: 8, warnings: [] }] });
    const got = await getTrace(getRequest("/api/traces/demo-trace-001"), params({ id: "demo-trace-001" }));
    const stored = (await got.json()) as Record<string, unknown>;
    const { created_at, warnings, project, ...rest } = stored;
    expect(rest).toEqual(example);
    expect(project).toBe("default");
    expect(typeof created_at).toBe("string");
    expect(warnings).toEqual([]);
  });

  it("accepts an array and JSONL, and keeps extensions and unknown event properties", async () => {
    const a = trace("arr-1");
    const b = trace("arr-2", (t) => {
      t.group_id = "g1";
      t.events[0] = { ...t.events[0], t_end: 0.5, tokens: 12, content: "<b>hi</b>", custom_field: { x: 1 } };
    });
    expect((await post([a, b])).status).toBe(201);
    const jsonl = [trace("line-1"), trace("line-2")].map((t) => JSON.stringify(t)).join("\n") + "\n";
    const response = await POST(jsonRequest("/api/traces", null, { contentType: "application/x-ndjson", raw: jsonl }), params({}));
    expect(response.status).toBe(201);
    expect(await counts()).toEqual({ traces: 4, events: 32, edges: 32, content: 1 });
    const got = (await (await getTrace(getRequest("/api/traces/arr-2?content=1"), params({ id: "arr-2" }))).json()) as typeof example;
    expect(got.events[0]).toEqual({ ...example.events[0], t_end: 0.5, tokens: 12, content: "<b>hi</b>", custom_field: { x: 1 } });
    expect(got.group_id).toBe("g1");
    const without = (await (await getTrace(getRequest("/api/traces/arr-2"), params({ id: "arr-2" }))).json()) as typeof example;
    expect(without.events[0]).not.toHaveProperty("content");
  });

  it("answers 409 for an existing trace_id and replaces it with ?upsert=1", async () => {
    expect((await post(trace("dup"))).status).toBe(201);
    const again = await post(trace("dup"));
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("conflict");
    const replaced = await post(trace("dup", (t) => { t.events = t.events.slice(0, 1); t.edges = []; }), "?upsert=1");
    expect(replaced.status).toBe(201);
    expect(await counts()).toMatchObject({ traces: 1, events: 1, edges: 0 });
  });

  it("reports warnings for edges back in time and events without edges, and stores them", async () => {
    const { status, body } = await post(trace("warn", (t) => {
      t.events.push({ id: "lonely", t: 9, type: "message", agent: "x" });
      t.events[1]!.t = 10;
    }));
    expect(status).toBe(201);
    const warnings = (body.traces as { warnings: { path: string; message: string }[] }[])[0]!.warnings;
    expect(warnings.map((w) => w.path).sort()).toEqual(["$.edges[2]", "$.events[8]"]);
  });

  it("handles trace ids that need URL encoding", async () => {
    expect((await post(trace("run 7/ä?#"))).status).toBe(201);
    const response = await getTrace(getRequest(`/api/traces/${encodeURIComponent("run 7/ä?#")}`), params({ id: "run 7/ä?#" }));
    expect(response.status).toBe(200);
  });
});

describe("POST /api/traces: bad input is refused whole, with paths, and stores nothing", () => {
  const cases: [string, (t: typeof example) => void, { path: string; message?: RegExp }[]][] = [
    ["missing required field", (t) => { delete (t as Record<string, unknown>).task_id; }, [{ path: "$.task_id" }]],
    ["wrong type", (t) => { t.events[2]!.t = "late"; }, [{ path: "$.events[2].t" }]],
    ["unknown event type", (t) => { t.events[1]!.type = "teleport"; }, [{ path: "$.events[1].type" }]],
    ["unknown edge type", (t) => { t.edges[0]!.type = "wormhole"; }, [{ path: "$.edges[0].type" }]],
    ["empty events", (t) => { t.events = []; t.edges = []; }, [{ path: "$.events", message: /at least one event/ }]],
    ["duplicate event id", (t) => { t.events[3]!.id = "e1"; }, [{ path: "$.events[3].id", message: /duplicate event id "e1"/ }]],
    ["edge to a missing event", (t) => { t.edges[1]!.dst = "nope"; }, [{ path: "$.edges[1].dst", message: /no event has id "nope"/ }]],
    ["self-loop", (t) => { t.edges.push({ src: "e4", dst: "e4", type: "causal" }); }, [{ path: "$.edges[8]", message: /self-loop/ }]],
    ["cycle among non-temporal edges", (t) => { t.edges.push({ src: "e8", dst: "e1", type: "causal" }); }, [{ path: "$.edges", message: /cycle/ }]],
    ["negative t", (t) => { t.events[0]!.t = -1; }, [{ path: "$.events[0].t", message: />= 0/ }]],
    ["negative tokens", (t) => { t.events[0]!.tokens = -5; }, [{ path: "$.events[0].tokens" }]],
    ["negative cost", (t) => { (t.costs as Record<string, number>).tokens = -1; }, [{ path: "$.costs.tokens" }]],
    ["t_end before t", (t) => { t.events[4]!.t_end = 1; }, [{ path: "$.events[4].t_end", message: /before t/ }]],
    ["extension field of the wrong type", (t) => { t.events[0]!.tokens = "many"; }, [{ path: "$.events[0].tokens" }]],
    ["ids equal once U+0000 is replaced", (t) => { t.events[0]!.id = "a\u0000"; t.events[1]!.id = "a\ufffd"; t.edges = []; }, [{ path: "$.events[1].id", message: /duplicate event id/ }]],
    ["identifier over 512 characters", (t) => { t.events[0]!.agent = "x".repeat(513); }, [{ path: "$.events[0].agent" }]],
    ["number over 1e15", (t) => { t.events[0]!.t = 1e16; }, [{ path: "$.events[0].t" }]],
  ];
  it.each(cases)("%s -> 400", async (_name, patch, expected) => {
    const { status, body } = await post(trace("bad", patch));
    expect(status).toBe(400);
    expect(body.error.code).toBe("invalid_input");
    for (const e of expected) {
      const found = body.error.details.find((d) => d.path === e.path && (!e.message || e.message.test(d.message)));
      expect(found, `${e.path} in ${JSON.stringify(body.error.details)}`).toBeDefined();
    }
    expect(await counts()).toEqual({ traces: 0, events: 0, edges: 0, content: 0 });
  });

  it("a temporal edge closing a loop is not a cycle", async () => {
    const { status } = await post(trace("temporal-loop", (t) => { t.edges.push({ src: "e8", dst: "e1", type: "temporal" }); }));
    expect(status).toBe(201);
  });

  it("lists every problem of several traces at once", async () => {
    const { status, body } = await post([
      trace("x1", (t) => { t.events[0]!.t = -1; }),
      trace("x2"),
      trace("x3", (t) => { t.edges[0]!.src = "ghost"; delete (t as Record<string, unknown>).costs; }),
    ]);
    expect(status).toBe(400);
    expect(body.error.details.map((d) => d.path).sort()).toEqual(["$[0].events[0].t", "$[2].costs", "$[2].edges[0].src"]);
  });

  it("one bad trace in a batch of 100 stores nothing", async () => {
    const batch = Array.from({ length: 100 }, (_, i) => trace(`batch-${i}`, (t) => { if (i === 57) t.events[2]!.type = "bogus"; }));
    const { status, body } = await post(batch);
    expect(status).toBe(400);
    expect(body.error.details).toEqual([expect.objectContaining({ path: "$[57].events[2].type" })]);
    expect(await counts()).toEqual({ traces: 0, events: 0, edges: 0, content: 0 });
  });

  it("the same trace_id twice in one request is a 400", async () => {
    const { status, body } = await post([trace("twin"), trace("twin")]);
    expect(status).toBe(400);
    expect(body.error.details[0]).toMatchObject({ path: "$[1].trace_id" });
  });

  it("malformed JSON -> 400, wrong content type -> 415, too large -> 413; no stack traces", async () => {
    const malformed = await POST(jsonRequest("/api/traces", null, { raw: '{"trace_id": ' }), params({}));
    expect(malformed.status).toBe(400);
    const text = await malformed.text();
    expect(text).toContain("malformed JSON");
    expect(text).not.toMatch(/\n\s+at /);
    const badLine = await POST(jsonRequest("/api/traces", null, { contentType: "application/x-ndjson", raw: `${JSON.stringify(example)}\n{oops}\n` }), params({}));
    expect(((await badLine.json()) as ErrorBody).error.details[0]).toMatchObject({ path: "$[1]", message: expect.stringContaining("line 2") as unknown });
    const wrongType = await POST(jsonRequest("/api/traces", example, { contentType: "text/plain" }), params({}));
    expect(wrongType.status).toBe(415);
    expect(((await wrongType.json()) as ErrorBody).error.code).toBe("unsupported_media_type");
    process.env.BATON_MAX_BODY_MB = "0.001";
    try {
      const big = await POST(jsonRequest("/api/traces", example), params({}));
      expect(big.status).toBe(413);
    } finally {
      delete process.env.BATON_MAX_BODY_MB;
    }
    expect(await counts()).toEqual({ traces: 0, events: 0, edges: 0, content: 0 });
  });
});

describe("GET /api/traces and events", () => {
  it("filters, searches and pages with a cursor", async () => {
    const traces = Array.from({ length: 7 }, (_, i) => trace(`list-${i}`, (t) => {
      t.system = i % 2 === 0 ? "even-sys" : "odd-sys";
      t.group_id = i < 3 ? "grp-a" : "grp-b";
    }));
    expect((await post(traces)).status).toBe(201);
    const list = async (q: string) => (await (await listTraces(getRequest(`/api/traces?${q}`), params({}))).json()) as { traces: { trace_id: string }[]; next_cursor: string | null };
    expect((await list("system=even-sys")).traces.map((t) => t.trace_id)).toEqual(["list-6", "list-4", "list-2", "list-0"]);
    expect((await list("group_id=grp-a&system=odd-sys")).traces.map((t) => t.trace_id)).toEqual(["list-1"]);
    expect((await list("q=LIST-5")).traces.map((t) => t.trace_id)).toEqual(["list-5"]);
    const first = await list("limit=3");
    expect(first.traces.map((t) => t.trace_id)).toEqual(["list-6", "list-5", "list-4"]);
    const second = await list(`limit=3&cursor=${first.next_cursor}`);
    expect(second.traces.map((t) => t.trace_id)).toEqual(["list-3", "list-2", "list-1"]);
    const third = await list(`limit=3&cursor=${second.next_cursor}`);
    expect(third).toMatchObject({ traces: [{ trace_id: "list-0" }], next_cursor: null });
    const bad = await listTraces(getRequest("/api/traces?limit=0&topology=ring"), params({}));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorBody).error.details.map((d) => d.path).sort()).toEqual(["limit", "topology"]);
  });

  it("returns events in event order (ties by position), paged, content on request", async () => {
    await post(trace("ordered", (t) => {
      t.events[0]!.t = 5; // e1 moves after e5 (t=4); e6 also has t=5 but comes later in the array
      t.events[5]!.content = "tool output";
    }));
    const page = async (q: string) => (await (await getEvents(getRequest(`/api/traces/ordered/events?${q}`), params({ id: "ordered" }))).json()) as { events: { id: string; seq: number; content?: string | null }[]; next_cursor: string | null };
    const first = await page("limit=5");
    expect(first.events.map((e) => e.id)).toEqual(["e2", "e3", "e4", "e5", "e1"]);
    expect(first.events[0]).not.toHaveProperty("content");
    const rest = await page(`limit=5&cursor=${first.next_cursor}&content=1`);
    expect(rest.events.map((e) => e.id)).toEqual(["e6", "e7", "e8"]);
    expect(rest.events[0]!.content).toBe("tool output");
    expect(rest.events[1]!.content).toBeNull();
    expect(rest.next_cursor).toBeNull();
    const missing = await getEvents(getRequest("/api/traces/nope/events"), params({ id: "nope" }));
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as ErrorBody).error.code).toBe("not_found");
  });
});

describe("text PostgreSQL cannot hold", () => {
  it("stores NUL characters as U+FFFD, in text and JSON columns, with a warning", async () => {
    const { status, body } = await post(trace("nul", (t) => {
      t.events[0] = { ...t.events[0], content: "a\u0000b", note: "x\u0000y", literal: "\\u0000 stays text" };
    }));
    expect(status).toBe(201);
    expect((body.traces as { warnings: { path: string }[] }[])[0]!.warnings).toEqual([
      expect.objectContaining({ path: "$.events[0].content" }),
      expect.objectContaining({ path: "$.events[0].note" }),
    ]);
    const got = (await (await getTrace(getRequest("/api/traces/nul?content=1"), params({ id: "nul" }))).json()) as typeof example;
    expect(got.events[0]).toMatchObject({ content: "a\ufffdb", note: "x\ufffdy", literal: "\\u0000 stays text" });
  });
});

describe("baton-spec-2 edges of input", () => {
  it("answers a 4,500-level body with 400 and a path, storing nothing", async () => {
    const body = `{"trace_id": "deep", "metadata": ${"[".repeat(4500)}${"]".repeat(4500)}}`;
    const response = await POST(new Request("http://localhost/api/traces", { method: "POST", headers: { "content-type": "application/json" }, body }), params({}));
    expect(response.status).toBe(400);
    const error = ((await response.json()) as ErrorBody).error;
    expect(error.details[0]!.path).toBe(`$.metadata${"[0]".repeat(64)}`);
    expect(await counts()).toEqual({ traces: 0, events: 0, edges: 0, content: 0 });
  });

  it("computes the same message_redundancy at ingest and after a recompute: hi\\u0000 and hi\\uFFFD are one key", async () => {
    const { status } = await post(trace("nul-key", (t) => {
      t.events = [
        { id: "m1", t: 0, type: "message", agent: "A", content: "hi\u0000" },
        { id: "m2", t: 1, type: "message", agent: "B", content: "hi\ufffd" },
      ];
      t.edges = [{ src: "m1", dst: "m2", type: "message" }];
    }));
    expect(status).toBe(201);
    const atIngest = await prisma().trace.findUniqueOrThrow({ where: { traceId: "nul-key" } });
    expect(atIngest.messageRedundancy).toBe(0.5);
    const { recomputeMetrics } = await import("@/lib/server/compute/persist");
    expect((await recomputeMetrics(atIngest.id)).e3.message_redundancy).toBe(0.5);
  });

  it("keeps metadata of any JSON type, an unknown decision, reason and reward key, with warnings", async () => {
    const { status, body } = await post(trace("lenient", (t) => {
      t.metadata = [1, "two"];
      t.events[0] = { ...t.events[0], decision: "dance", reason: "bored", rewards: { novelty: 0.5 } };
    }));
    expect(status).toBe(201);
    const paths = (body.traces as { warnings: { path: string }[] }[])[0]!.warnings.map((w) => w.path);
    expect(paths).toEqual(expect.arrayContaining(["$.events[0].decision", "$.events[0].reason", "$.events[0].rewards.novelty"]));
    const got = (await (await getTrace(getRequest("/api/traces/lenient"), params({ id: "lenient" }))).json()) as typeof example;
    expect(got.metadata).toEqual([1, "two"]);
    expect(got.events[0]).toMatchObject({ decision: "dance", reason: "bored", rewards: { novelty: 0.5 } });
  });
});
