import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as blame } from "@/app/api/traces/[id]/blame/route";
import { POST as ingest } from "@/app/api/traces/route";
import { blameInput, methodByName, type HeuristicMethod } from "@/lib/blame";
import { rankWithDefaultModel } from "@/lib/blame/default-model";
import { syntheticTrace } from "@/lib/demo";
import { pool, prisma } from "@/lib/server/db/client";
import { runBlameJobs } from "@/scripts/lib/test-blame";
import { getRequest, jsonRequest, params } from "@/scripts/lib/test-http";
import { stopBoss } from "../jobs/boss";
import type { BlamePending, BlameResponse } from "@/lib/api/contracts/analysis";
import { BIG_TRACE } from "./rank";
import { rankStoredElsewhere } from "./report-process";

/** A generated run just big enough to be ranked in the background, with no decisive error, in a project of its own (no labelled run another test left decides its `best`). */
const ID = "blame-big-trace";
const trace = { ...syntheticTrace({ events: BIG_TRACE, seed: 11, traceId: ID }), project: "blame-big" };

async function ask(query: string) {
  const started = performance.now();
  const response = await blame(getRequest(`/api/traces/${ID}/blame?${query}`), params({ id: ID }));
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as BlameResponse & BlamePending, bytes: text.length, ms: performance.now() - started };
}

beforeAll(async () => {
  process.env.BATON_BLAME_WORKER = "0"; // the jobs are run by the test itself
  await prisma().trace.deleteMany({ where: { traceId: ID } });
  await pool().query("DELETE FROM pgboss.job WHERE name LIKE 'blame-%'").catch(() => {});
  expect((await ingest(jsonRequest("/api/traces", trace), params({}))).status).toBe(201);
}, 120_000);

afterAll(async () => {
  delete process.env.BATON_BLAME_WORKER;
  await prisma().trace.deleteMany({ where: { traceId: ID } });
  await stopBoss();
});

describe("blame on a big run: ranked in the background, read a page of top suspects at a time", () => {
  it("answers at once, then pages of the stored ranking, the same events as the whole ranking", async () => {
    const first = await ask("method=errors&limit=10");
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ method: "errors", state: "ranking", retry_after_s: 5 });
    expect(first.ms).toBeLessThan(2_000);
    expect(await runBlameJobs()).toBe(1);
    const whole = (methodByName("errors") as HeuristicMethod).rank(blameInput(trace));
    const page = await ask("method=errors&limit=10");
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ method: "errors", total_events: BIG_TRACE, total_agents: whole.agents.length, offset: 0 });
    expect(page.body.events).toEqual(whole.events.slice(0, 10));
    expect(page.body.agents).toEqual(whole.agents.slice(0, 10));
    const next = await ask("method=errors&limit=10&offset=10");
    expect(next.body.events).toEqual(whole.events.slice(10, 20));
    // the page is small: a few KB, where the whole ranking is half a megabyte
    expect(page.bytes).toBeLessThan(5_000);
    expect(JSON.stringify(whole).length).toBeGreaterThan(100 * page.bytes);
  }, 120_000);

  it("method=best with no labels: the shipped model's ranking, by the same job", async () => {
    expect((await ask("method=best&limit=5")).status).toBe(202);
    expect(await runBlameJobs()).toBe(1);
    const page = await ask("method=best&limit=5");
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ chosen: { by: "default" }, trained: { source: "default" }, total_events: BIG_TRACE });
    expect(page.body.events).toEqual(rankWithDefaultModel(blameInput(trace)).events.slice(0, 5));
  }, 120_000);

  it("the child process loads the run itself: the same kept events as ranking it here, and a run that is gone rejects with the child's reason", async () => {
    const row = await prisma().trace.findUniqueOrThrow({ where: { traceId: ID }, select: { id: true } });
    const whole = (methodByName("errors") as HeuristicMethod).rank(blameInput(trace));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 20);
    const started = performance.now();
    const ranked = await rankStoredElsewhere({ method: "errors", model: null, traceDbId: row.id, groupId: null, keep: 25 }).finally(() => clearInterval(timer));
    expect(ranked.total_events).toBe(BIG_TRACE);
    expect(ranked.events).toEqual(whole.events.slice(0, 25));
    expect(ranked.agents).toEqual(whole.agents);
    // this process's loop went on meanwhile: at least a quarter of the ticks the time allows
    expect(ticks).toBeGreaterThan((performance.now() - started) / 20 / 4);
    await expect(rankStoredElsewhere({ method: "errors", model: null, traceDbId: -1, groupId: null })).rejects.toThrow(/^attribution rank-stored: no trace with id -1/);
  }, 120_000);

  it("refuses a limit out of range at its path", async () => {
    for (const q of ["limit=0", "limit=x", "offset=-1"]) {
      const bad = await ask(`method=errors&${q}`);
      expect(bad.status).toBe(400);
    }
  });
});
