import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as graph } from "@/app/api/traces/[id]/graph/route";
import { POST } from "@/app/api/traces/route";
import { syntheticTrace } from "@/lib/demo";
import type { GraphMeta } from "@/lib/graph-view/wire";
import { pool, prisma } from "@/lib/server/db/client";
import { ingestFile } from "@/lib/server/ingest/file-ingest";
import { boss, stopBoss } from "@/lib/server/jobs/boss";
import { getRequest, jsonRequest, params } from "@/scripts/lib/test-http";
import { GRAPH_QUEUE, startGraphWorker, stopGraphWorker, type GraphPagesJob } from "./jobs";

/**
 * The background build of big traces' graph pages after ingest, with the
 * real queue (pg-boss) and database: the job stores the pages an open would
 * have built, byte for byte, and the open then reads them without building.
 */
const THRESHOLD = 5000;
const models = () => ((globalThis as unknown as { batonGraphModels?: Map<string, unknown> }).batonGraphModels ??= new Map());

interface QueuedJob {
  data: GraphPagesJob;
  state: string;
  output: { outcome: string; ms: number } | null;
}

const jobsOf = async (traceDbId: number) =>
  (await pool().query<QueuedJob>("SELECT data, state, output FROM pgboss.job WHERE name = $1 AND (data->>'traceDbId')::int = $2", [GRAPH_QUEUE, traceDbId])).rows;

async function settled(traceDbId: number): Promise<QueuedJob> {
  await expect.poll(async () => (await jobsOf(traceDbId)).map((j) => j.state), { timeout: 60_000, interval: 200 }).toEqual(["completed"]);
  return (await jobsOf(traceDbId))[0]!;
}

const rowOf = (traceId: string) => prisma().trace.findUniqueOrThrow({ where: { traceId }, select: { id: true, updatedAt: true } });
const versionOf = (row: { updatedAt: Date }) => BigInt(row.updatedAt.getTime() * 16 + 2);

async function post(body: unknown, upsert = false): Promise<void> {
  const response = await POST(jsonRequest(`/api/traces${upsert ? "?upsert=1" : ""}`, body), params({}));
  expect(response.status).toBe(201);
}

/** What the graph API answers for the trace: its meta and every page of events, as text. */
async function answers(traceId: string): Promise<string[]> {
  const text = async (query: string) => (await graph(getRequest(`/api/traces/${traceId}/graph${query}`), params({ id: traceId }))).text();
  const meta = await text("");
  const { pages, page_size: size } = JSON.parse(meta) as GraphMeta;
  const out = [meta];
  for (let k = 0; k < pages; k++) out.push(await text(`?part=events&from=${k * size}&limit=${size}`));
  return out;
}

beforeAll(async () => {
  process.env.BATON_GRAPH_PREBUILD_EVENTS = String(THRESHOLD);
  await prisma().trace.deleteMany();
  await boss();
  await pool().query("DELETE FROM pgboss.job WHERE name = $1", [GRAPH_QUEUE]);
});

afterAll(async () => {
  process.env.BATON_GRAPH_PREBUILD_EVENTS = "0";
  await stopBoss();
});

describe("graph pages built in the background after ingest", () => {
  it("queues nothing for a trace below the threshold, one job for a trace at it, from the CLI's file path too", async () => {
    await post(syntheticTrace({ events: THRESHOLD - 1, seed: 1, traceId: "gp-small", content: false }));
    expect(await jobsOf((await rowOf("gp-small")).id)).toEqual([]);
    const dir = mkdtempSync(path.join(tmpdir(), "baton-graph-pages-"));
    const file = path.join(dir, "at-threshold.jsonl");
    writeFileSync(file, `${JSON.stringify(syntheticTrace({ events: THRESHOLD, seed: 2, traceId: "gp-file", content: false }))}\n`);
    expect((await ingestFile(file, { upsert: false })).ok).toBe(true);
    const row = await rowOf("gp-file");
    expect((await jobsOf(row.id)).map((j) => [j.data, j.state])).toEqual([[{ traceDbId: row.id, events: THRESHOLD }, "created"]]);
    expect(await prisma().graphPage.count()).toBe(0);
  });

  it("an open before the job ran builds on demand, and the job then finds the pages stored", async () => {
    await post(syntheticTrace({ events: 21_000, seed: 4, traceId: "gp-early", content: false }));
    const row = await rowOf("gp-early");
    models().clear();
    await answers("gp-early");
    expect(models().size).toBe(1);
    // the open's process stores them once built (in the background: wait for the rows)
    await expect.poll(() => prisma().graphPage.count({ where: { traceId: row.id, version: versionOf(row) } }), { timeout: 30_000 }).toBe(3);
    await startGraphWorker();
    expect((await settled(row.id)).output?.outcome).toBe("stored already");
    expect((await settled((await rowOf("gp-file")).id)).output?.outcome).toBe("built");
  });

  it("stores the meta and pages of a big trace, which the graph API then serves without building, the same bytes as an on-demand build", async () => {
    await post(syntheticTrace({ events: 45_000, seed: 3, traceId: "gp-big", content: false }));
    const row = await rowOf("gp-big");
    const job = await settled(row.id);
    expect(job.output?.outcome).toBe("built");
    // the meta (from_seq -1) and three pages of 20,000 events, of this version of the trace
    const stored = await prisma().graphPage.findMany({ where: { traceId: row.id }, select: { fromSeq: true, limit: true, version: true }, orderBy: { fromSeq: "asc" } });
    expect(stored.map((p) => [p.fromSeq, p.limit, p.version])).toEqual([[-1, 0, versionOf(row)], [0, 20_000, versionOf(row)], [20_000, 20_000, versionOf(row)], [40_000, 20_000, versionOf(row)]]);

    models().clear();
    const fromJob = await answers("gp-big");
    expect(models().size).toBe(0); // served from graph_pages: nothing built in this process
    expect(JSON.parse(fromJob[0]!)).toMatchObject({ events: 45_000, pages: 3, page_size: 20_000 });
    // stored gzipped: the page served, in under a third of its bytes
    const second = await prisma().graphPage.findUniqueOrThrow({ where: { traceId_fromSeq_limit: { traceId: row.id, fromSeq: 20_000, limit: 20_000 } } });
    expect(second.gz.length).toBeLessThan(fromJob[2]!.length / 3);
    expect(gunzipSync(second.gz).toString("utf8")).toBe(fromJob[2]);

    // the same trace built on demand, as before the job existed
    await prisma().graphPage.deleteMany({ where: { traceId: row.id } });
    const onDemand = await answers("gp-big");
    expect(models().size).toBe(1);
    expect(fromJob).toEqual(onDemand);
    // the on-demand build stores its pages too (in the background: wait for them before the next test replaces the trace)
    await expect.poll(() => prisma().graphPage.count({ where: { traceId: row.id } }), { timeout: 30_000 }).toBe(4);
  });

  it("a new version of the trace (upsert) gets its own job and pages; the old version's go with its row", async () => {
    const old = await rowOf("gp-big");
    await post(syntheticTrace({ events: 30_000, seed: 5, traceId: "gp-big", content: false }), true);
    const row = await rowOf("gp-big");
    expect(row.id).not.toBe(old.id);
    expect(await prisma().graphPage.count({ where: { traceId: old.id } })).toBe(0);
    expect((await settled(row.id)).output?.outcome).toBe("built");
    const pages = await prisma().graphPage.findMany({ where: { traceId: row.id }, select: { version: true } });
    expect(pages.map((p) => p.version)).toEqual([versionOf(row), versionOf(row), versionOf(row)]);
    models().clear();
    const meta = JSON.parse((await answers("gp-big"))[0]!) as GraphMeta;
    expect([meta.events, meta.pages]).toEqual([30_000, 2]);
    expect(models().size).toBe(0);
    await stopGraphWorker();
  });
});
