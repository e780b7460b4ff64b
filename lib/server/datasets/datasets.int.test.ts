import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getFile } from "@/app/api/datasets/[id]/files/[...path]/route";
import { GET as getOne } from "@/app/api/datasets/[id]/route";
import { GET as list, POST as create } from "@/app/api/datasets/route";
import { POST as annotate } from "@/app/api/traces/[id]/annotations/route";
import { DELETE as unnameDecisive, PUT as nameDecisive } from "@/app/api/traces/[id]/decisive-error/route";
import { POST as ingest } from "@/app/api/traces/route";
import { adaptOtlpSpans } from "@/lib/adapters/otlp";
import { readOtlpJson } from "@/lib/adapters/otlp-json";
import { sha256 } from "@/lib/datasets/layout";
import { demoTraces } from "@/lib/demo";
import { duck, snapshot as sharedSnapshot, snapshotFile } from "@/scripts/lib/test-datasets";
import { getRequest, jsonRequest, params } from "@/scripts/lib/test-http";
import { pool, prisma } from "../db/client";
import { buildSnapshot } from "./build";

/** Dataset snapshots on real PostgreSQL with the real pg-boss worker; files read back with DuckDB. */

const withCalls = JSON.parse(readFileSync("lib/export/fixtures/calls-trace.json", "utf8")) as Record<string, unknown>;
const withoutCalls = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>;

interface Summary {
  id: number;
  state: string;
  diff: { added: number; removed: number; changed: number; keys: { added: string[]; removed: string[]; changed: string[] } } | null;
  manifest: { counts: { traces: number; rows: number; traces_without_calls: number }; files: { path: string; sha256: string; bytes: number; rows: number }[] } | null;
  files?: { path: string; sha256: string }[];
}

async function post(body: unknown) {
  return create(jsonRequest("/api/datasets", body), params({}));
}

const snapshot = (body: unknown) => sharedSnapshot<Summary>(body);
const file = snapshotFile;

const REQUEST = { name: "calls", filter: {}, form: "transitions", format: "parquet", method: "ccp", preset: "code_generation" };

beforeAll(async () => {
  await prisma().dataset.deleteMany();
  await prisma().trace.deleteMany();
  await prisma().annotation.deleteMany();
  const read = readOtlpJson(JSON.parse(readFileSync("lib/adapters/otlp/fixtures/ai-sdk-6.json", "utf8")));
  if (!read.ok) throw new Error("fixture");
  for (const t of [withCalls, withoutCalls, { ...adaptOtlpSpans(read.spans), rewards: { task_success: 1 } }]) expect((await ingest(jsonRequest("/api/traces", t), params({}))).status).toBe(201);
});

describe("POST /api/datasets", () => {
  it("a snapshot of the demo data: one row per model call with prompt, response and non-uniform credit", async () => {
    const demo = demoTraces();
    expect((await ingest(jsonRequest("/api/traces", demo), params({}))).status).toBe(201);
    const s = await snapshot({ ...REQUEST, name: "demo", filter: { ids: demo.map((t) => t.trace_id).join(",") }, preset: "multi_source_research" });
    const calls = demo.reduce((n, t) => n + (t.calls?.length ?? 0), 0);
    const rows = await duck(s, (glob) => `SELECT count(*)::INTEGER AS n, count(prompt)::INTEGER AS prompts, count(response)::INTEGER AS responses, count(DISTINCT round(credit, 9))::INTEGER AS credits FROM read_parquet('${glob}')`);
    expect(rows[0]).toEqual({ n: calls, prompts: calls, responses: calls, credits: expect.any(Number) as number });
    expect(rows[0]!.credits as number).toBeGreaterThan(10);
    await prisma().trace.deleteMany({ where: { traceId: { in: demo.map((t) => t.trace_id) } } });
  });

  it("bad filters and unknown settings are 400 with their paths, and nothing is written", async () => {
    const before = await prisma().dataset.count();
    const response = await post({ name: "x", filter: { nope: "1", tokens_min: "0x10" }, form: "transitions", preset: "no-such", weights: { not_a_family: 1 }, method: "magic" });
    expect(response.status).toBe(400);
    const paths = ((await response.json()) as { error: { details: { path: string }[] } }).error.details.map((d) => d.path).sort();
    expect(paths).toEqual(expect.arrayContaining(["$.filter.nope", "$.filter.tokens_min", "$.method"]));
    expect(paths.some((p) => p.startsWith("$.weights") || p === "$.preset")).toBe(true);
    expect((await post({ name: "x", form: "pictures" })).status).toBe(400);
    expect((await post({ filter: {} })).status).toBe(400);
    expect(await prisma().dataset.count()).toBe(before);
  });

  it("freezes a Hugging Face layout with a manifest; DuckDB reads one row per model call with prompt, response and non-uniform credit", async () => {
    const s = await snapshot(REQUEST);
    expect(s.files!.map((f) => f.path)).toEqual(["README.md", "data/train-00000-of-00001.parquet", "manifest.json"]);
    for (const f of s.files!) expect(sha256(await file(s.id, f.path))).toBe(f.sha256);
    const manifest = JSON.parse((await file(s.id, "manifest.json")).toString("utf8")) as NonNullable<Summary["manifest"]>;
    expect(manifest.counts).toMatchObject({ traces: 2, rows: 9, traces_without_calls: 1 });
    expect(manifest.files[0]).toMatchObject({ path: "data/train-00000-of-00001.parquet", rows: 9, sha256: s.files!.find((f) => f.path.startsWith("data/"))!.sha256 });
    const card = (await file(s.id, "README.md")).toString("utf8");
    expect(card).toContain("path: data/train-*.parquet");
    expect(card).toContain(JSON.stringify(manifest, null, 2));
    const rows = await duck(s, (glob) => `SELECT traj_uid, call_id, prompt, response, credit FROM read_parquet('${glob}')`);
    expect(rows).toHaveLength(9);
    for (const r of rows) expect(r.prompt !== null && r.response !== null).toBe(true);
    const chain = rows.filter((r) => r.traj_uid === "calls-chain").map((r) => r.credit as number);
    expect(chain.map((c) => Number(c.toFixed(9)))).toEqual([-0.834, -0.503, -0.906]);
  });

  it("the same snapshot twice gives the same bytes; after one new label the diff names exactly the changed row", async () => {
    const a = await snapshot(REQUEST);
    const b = await snapshot(REQUEST);
    expect(b.files).toEqual(a.files);
    for (const f of a.files!) expect((await file(b.id, f.path)).equals(await file(a.id, f.path))).toBe(true);
    expect(b.diff).toMatchObject({ added: 0, removed: 0, changed: 0 });

    const label = await annotate(jsonRequest("/api/traces/calls-chain/annotations", { event_id: "r", family: "step_quality", value: -0.5 }), params({ id: "calls-chain" }));
    expect(label.status).toBe(201);
    const c = await snapshot(REQUEST);
    expect(c.diff).toEqual({ previous: b.id, added: 0, removed: 0, changed: 1, keys: { added: [], removed: [], changed: [JSON.stringify(["calls-chain", "c2"])] } });
  });

  it("shards: N files named of-0000N that DuckDB reads as one table", async () => {
    const response = await post({ ...REQUEST, name: "sharded" });
    const { dataset } = (await response.json()) as { dataset: Summary };
    // the worker may have started it; wait for it, then build a sharded copy by hand
    await snapshotDone(dataset.id);
    const row = await prisma().dataset.create({ data: { name: "sharded-by-hand", filterKey: "by-hand", request: (await prisma().dataset.findUniqueOrThrow({ where: { id: dataset.id } })).request as object } });
    await buildSnapshot(row.id, { shardRows: 4 });
    const s = (await (await getOne(getRequest(`/api/datasets/${row.id}`), params({ id: String(row.id) }))).json()) as Summary;
    expect(s.files!.map((f) => f.path).filter((p) => p.startsWith("data/"))).toEqual(["data/train-00000-of-00003.parquet", "data/train-00001-of-00003.parquet", "data/train-00002-of-00003.parquet"]);
    const [count] = await duck(s, (glob) => `SELECT count(*)::INTEGER AS n FROM read_parquet('${glob}')`);
    expect(count!.n).toBe(9);
  });

  it("event rows carry each trace's decisive error, read for a page of traces at once", async () => {
    const id = withoutCalls.trace_id as string;
    const events = withoutCalls.events as { id: string }[];
    const chosen = events[2]!.id;
    expect((await nameDecisive(new Request(`http://localhost/api/traces/${id}/decisive-error`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ event_id: chosen, reason: "the wrong plan" }) }), params({ id }))).status).toBe(200);
    try {
      const s = await snapshot({ name: "rows", filter: {}, form: "rows", format: "jsonl", method: "ccp", preset: "code_generation" });
      const text = (await file(s.id, "data/train-00000-of-00001.jsonl")).toString("utf8");
      const rows = text.trim().split("\n").map((l) => JSON.parse(l) as { traj_uid: string; event_id: string; decisive_error: boolean | null });
      expect(rows.filter((r) => r.decisive_error === true).map((r) => [r.traj_uid, r.event_id])).toEqual([[id, chosen]]);
      // the other traces have no decisive error: null, not false
      expect(rows.filter((r) => r.traj_uid === id).every((r) => r.decisive_error !== null)).toBe(true);
      expect(rows.filter((r) => r.traj_uid !== id).every((r) => r.decisive_error === null)).toBe(true);
    } finally {
      await unnameDecisive(new Request(`http://localhost/api/traces/${id}/decisive-error`, { method: "DELETE" }), params({ id }));
    }
  });

  it("a build that dies leaves no half snapshot listed, and its retry starts from nothing", async () => {
    // a snapshot of REQUEST (the demo one's traces are gone; without an order any ready row may come first)
    const base = await prisma().dataset.findFirstOrThrow({ where: { state: "ready", name: "calls" }, orderBy: { id: "asc" } });
    const row = await prisma().dataset.create({ data: { name: "killed", filterKey: "killed", request: base.request as object } });
    await expect(buildSnapshot(row.id, { shardRows: 2, failAfterShards: 2 })).rejects.toThrow(/stopped/);
    expect(await prisma().datasetFile.count({ where: { datasetId: row.id } })).toBe(0);
    expect(await prisma().datasetRowSet.count({ where: { datasetId: row.id } })).toBe(0);
    // a worker killed mid-build: its shards are there, the row still says building
    await prisma().dataset.update({ where: { id: row.id }, data: { state: "building" } });
    await pool().query("INSERT INTO dataset_files (dataset_id, path, bytes, sha256, size) VALUES ($1, 'partial/00000', '\\x00', 'x', 1)", [row.id]);
    const listed = ((await (await list(getRequest("/api/datasets"), params({}))).json()) as { datasets: Summary[] }).datasets.find((d) => d.id === row.id);
    expect(listed?.state).toBe("building");
    const download = await getFile(getRequest(`/api/datasets/${row.id}/files/partial/00000`), { params: Promise.resolve({ id: String(row.id), path: ["partial", "00000"] }) });
    expect(download.status).toBe(404);
    await buildSnapshot(row.id, { shardRows: 2 });
    const files = await prisma().datasetFile.findMany({ where: { datasetId: row.id }, select: { path: true } });
    expect(files.some((f) => f.path.startsWith("partial/"))).toBe(false);
    expect(files.filter((f) => f.path.startsWith("data/"))).toHaveLength(5);
  });
});

async function snapshotDone(id: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const row = await prisma().dataset.findUniqueOrThrow({ where: { id } });
    if (row.state === "ready" || row.state === "failed") return;
    await new Promise((r) => setTimeout(r, 100));
  }
}
