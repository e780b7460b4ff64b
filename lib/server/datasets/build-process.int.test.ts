import { readFileSync } from "node:fs";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { POST as ingest } from "@/app/api/traces/route";
import { jsonRequest, params } from "@/scripts/lib/test-http";
import { prisma } from "../db/client";
import { buildSnapshot } from "./build";
import { buildHeapMb, buildSnapshotElsewhere } from "./build-process";

const withCalls = JSON.parse(readFileSync("lib/export/fixtures/calls-trace.json", "utf8")) as Record<string, unknown>;
const withoutCalls = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>;
const REQUEST = { body: { name: "child", filter: {}, form: "transitions", format: "parquet", method: "ccp", preset: "code_generation" }, readable: null };

async function files(datasetId: number): Promise<{ path: string; sha256: string; size: number }[]> {
  return prisma().datasetFile.findMany({ where: { datasetId }, select: { path: true, sha256: true, size: true }, orderBy: { path: "asc" } });
}

beforeAll(async () => {
  await prisma().dataset.deleteMany();
  await prisma().trace.deleteMany();
  // two more runs with model calls, so that shards of a few rows cut through traces
  const copies = [2, 3].map((n) => ({ ...withCalls, trace_id: `${String(withCalls.trace_id)}-${n}` }));
  for (const t of [withCalls, withoutCalls, ...copies]) expect((await ingest(jsonRequest("/api/traces", t), params({}))).status).toBe(201);
});

afterEach(() => {
  delete process.env.BATON_DATASET_HEAP_MB;
});

describe("a snapshot built in a process of its own", () => {
  it("has the same files, byte for byte, as one built in this process", async () => {
    const here = await prisma().dataset.create({ data: { name: "here", filterKey: "child-a", request: REQUEST } });
    const there = await prisma().dataset.create({ data: { name: "there", filterKey: "child-b", request: REQUEST } });
    await buildSnapshot(here.id);
    await buildSnapshotElsewhere(there.id, { child: true });
    const row = await prisma().dataset.findUniqueOrThrow({ where: { id: there.id } });
    expect(row.state).toBe("ready");
    const a = await files(here.id);
    expect(a.map((f) => f.path)).toEqual(["README.md", "data/train-00000-of-00001.parquet", "manifest.json"]);
    // the card and manifest name the snapshot; the data file is the same bytes
    expect((await files(there.id)).find((f) => f.path.startsWith("data/"))).toEqual(a.find((f) => f.path.startsWith("data/")));
    expect(row.tracesDone).toBe(4);
  });

  for (const [form, format] of [["transitions", "parquet"], ["rows", "jsonl"]] as const) {
    it(`shards built by two processes are the files one process builds (${form}, ${format}), cut every N rows through the traces`, async () => {
      const request = { ...REQUEST, body: { ...REQUEST.body, form, format } };
      const whole = await prisma().dataset.create({ data: { name: "whole", filterKey: `whole-${form}`, request } });
      const here = await prisma().dataset.create({ data: { name: "here", filterKey: `here-${form}`, request } });
      const there = await prisma().dataset.create({ data: { name: "there", filterKey: `there-${form}`, request } });
      await buildSnapshot(whole.id);
      await buildSnapshot(here.id, { shardRows: 4 });
      await buildSnapshotElsewhere(there.id, { child: true, processes: 2, shardRows: 4 });
      const data = async (id: number) => (await files(id)).filter((f) => f.path.startsWith("data/"));
      const [a, b] = [await data(here.id), await data(there.id)];
      // 3 runs x 3 model calls (the run without calls gives none); event rows: every event of the 4 runs
      const total = form === "transitions" ? 3 * (withCalls.calls as unknown[]).length : 3 * (withCalls.events as unknown[]).length + (withoutCalls.events as unknown[]).length;
      const manifest = (await prisma().dataset.findUniqueOrThrow({ where: { id: there.id } })).manifest as { counts: { rows: number; traces: number }; files: { rows: number }[] };
      expect(manifest.counts.rows).toBe(total);
      expect(manifest.files.map((f) => f.rows)).toEqual([...Array.from({ length: Math.floor(total / 4) }, () => 4), ...(total % 4 ? [total % 4] : [])]);
      expect(a.length).toBe(Math.ceil(total / 4));
      expect(b).toEqual(a);
      if (format === "jsonl") {
        // the shards, read in order, are the unsharded snapshot's rows
        const text = async (id: number, paths: string[]) => (await Promise.all(paths.map(async (p) => (await prisma().datasetFile.findFirstOrThrow({ where: { datasetId: id, path: p } })).bytes))).map((x) => Buffer.from(x).toString("utf8")).join("");
        expect(await text(there.id, b.map((f) => f.path))).toBe(await text(whole.id, (await data(whole.id)).map((f) => f.path)));
      }
      expect((await prisma().dataset.findUniqueOrThrow({ where: { id: there.id } })).tracesDone).toBe(4);
    });
  }

  it("a child that runs out of memory leaves the snapshot failed, saying so, with nothing of it kept", async () => {
    process.env.BATON_DATASET_HEAP_MB = "4";
    const row = await prisma().dataset.create({ data: { name: "starved", filterKey: "child-c", request: REQUEST } });
    await expect(buildSnapshotElsewhere(row.id, { child: true })).rejects.toThrow(/its process ran out of memory/);
    const after = await prisma().dataset.findUniqueOrThrow({ where: { id: row.id } });
    expect(after.state).toBe("failed");
    expect(after.error).toMatch(/heap of 5 MB .*BATON_DATASET_HEAP_MB/);
    expect(await prisma().datasetFile.count({ where: { datasetId: row.id } })).toBe(0);
  });

  it("a shard that fails in one process stops the others, and nothing of the build is kept", async () => {
    process.env.BATON_DATASET_FAIL_SHARD = "2";
    try {
      const row = await prisma().dataset.create({ data: { name: "one fails", filterKey: "child-d", request: REQUEST } });
      await expect(buildSnapshotElsewhere(row.id, { child: true, processes: 2, shardRows: 1 })).rejects.toThrow(/stopped by the test at shard 2/);
      const after = await prisma().dataset.findUniqueOrThrow({ where: { id: row.id } });
      expect(after.state).toBe("failed");
      expect(after.error).toBe("stopped by the test at shard 2");
      expect(await prisma().datasetFile.count({ where: { datasetId: row.id } })).toBe(0);
      expect(await prisma().datasetRowSet.count({ where: { datasetId: row.id } })).toBe(0);
    } finally {
      delete process.env.BATON_DATASET_FAIL_SHARD;
    }
  });

  it("sizes the child's heap by the largest trace, not by how many traces there are", () => {
    expect(buildHeapMb(0)).toBe(320);
    expect(buildHeapMb(10)).toBe(321);
    expect(buildHeapMb(200_000)).toBe(320 + 782);
    process.env.BATON_DATASET_HEAP_MB = "1000";
    expect(buildHeapMb(0)).toBe(1000);
  });
});
