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
  for (const t of [withCalls, withoutCalls]) expect((await ingest(jsonRequest("/api/traces", t), params({}))).status).toBe(201);
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
    expect(row.tracesDone).toBe(2);
  });

  it("a child that runs out of memory leaves the snapshot failed, saying so, with nothing of it kept", async () => {
    process.env.BATON_DATASET_HEAP_MB = "4";
    const row = await prisma().dataset.create({ data: { name: "starved", filterKey: "child-c", request: REQUEST } });
    await expect(buildSnapshotElsewhere(row.id, { child: true })).rejects.toThrow(/its process ran out of memory/);
    const after = await prisma().dataset.findUniqueOrThrow({ where: { id: row.id } });
    expect(after.state).toBe("failed");
    expect(after.error).toMatch(/heap of 5 MB .*BATON_DATASET_HEAP_MB/);
    expect(await prisma().datasetFile.count({ where: { datasetId: row.id } })).toBe(0);
  });

  it("sizes the child's heap by the largest trace, not by how many traces there are", () => {
    expect(buildHeapMb(0)).toBe(320);
    expect(buildHeapMb(10)).toBe(321);
    expect(buildHeapMb(200_000)).toBe(320 + 782);
    process.env.BATON_DATASET_HEAP_MB = "1000";
    expect(buildHeapMb(0)).toBe(1000);
  });
});
