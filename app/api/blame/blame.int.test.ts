import { beforeAll, describe, expect, it } from "vitest";
import { blameInput, defaultFamilies, methodByName, METHODS, scoreRankings, type BlameRanking, type HeuristicMethod } from "@/lib/blame";
import { pool, prisma } from "@/lib/server/db/client";
import { ingestFormatted } from "@/lib/server/ingest/format-ingest";
import { loadTrace } from "@/lib/server/queries/load-trace";
import { getRequest, jsonRequest, params, type ErrorBody } from "@/scripts/lib/test-http";
import { GET as blame } from "../traces/[id]/blame/route";
import { POST as ingest } from "../traces/route";
import { GET as evaluation } from "./evaluation/route";
import { blameEvaluation } from "@/lib/server/blame/evaluation";
import { runBlameJobs, scoredEvaluation } from "@/scripts/lib/test-blame";
import type { BlameResponse } from "@/lib/api/contracts/analysis";
import { refreshProject } from "@/lib/server/blame/jobs";
import { DEFAULT_MODEL, rankWithDefaultModel } from "@/lib/blame/default-model";

/** Twelve real Who&When runs (Algorithm-Generated 1-12), each with its labelled mistake as decisive error. */
const FILES = Array.from({ length: 12 }, (_, i) => `../shared/data/who_and_when/Algorithm-Generated/${i + 1}.json`);
const ID = (i: number) => `whowhen-algorithm-generated-${i}`;

async function ask(id: string, method: string) {
  const response = await blame(getRequest(`/api/traces/${encodeURIComponent(id)}/blame?method=${method}`), params({ id }));
  return { status: response.status, body: (await response.json()) as BlameResponse & ErrorBody };
}

/** Asks, runs the jobs the ask queued (a model to train), asks again. */
async function askTrained(id: string, method: string) {
  await ask(id, method);
  await runBlameJobs();
  return ask(id, method);
}

beforeAll(async () => {
  process.env.BATON_BLAME_WORKER = "0"; // these tests train on request; the job is tested apart
  await prisma().trace.deleteMany();
  await prisma().decisiveError.deleteMany();
  await prisma().blameModel.deleteMany();
  await prisma().blameHeldOutModel.deleteMany();
  await prisma().blameScoring.deleteMany();
  await pool().query("DELETE FROM pgboss.job WHERE name LIKE 'blame-%'").catch(() => {});
  for (const f of FILES) expect((await ingestFormatted(f, { format: "auto", upsert: false })).ok).toBe(true);
});

describe("GET /api/traces/{id}/blame", () => {
  it("ranks every event and agent of a run, rank 1 first, ties sharing a rank", async () => {
    const { status, body } = await ask(ID(1), "errors");
    expect(status).toBe(200);
    expect(body.version).toBe("baton-spec-4");
    expect(body.method).toBe("errors");
    const trace = await loadTrace(ID(1));
    expect(body.events.map((e) => e.id).sort()).toEqual(trace.events.map((e) => e.id).sort());
    expect(body.events[0]!.rank).toBe(1);
    body.events.forEach((e, i) => {
      if (i === 0) return;
      const prev = body.events[i - 1]!;
      expect(e.score).toBeLessThanOrEqual(prev.score);
      // competition ranking: a tie keeps the rank, else the rank is the position
      expect(e.rank).toBe(e.score === prev.score ? prev.rank : i + 1);
    });
    expect(new Set(body.agents.map((a) => a.agent))).toEqual(new Set(trace.events.map((e) => e.agent)));
    // the same answer as the method on the stored trace itself
    expect(body.events).toEqual((methodByName("errors") as HeuristicMethod).rank(blameInput(trace)).events);
  });

  it("a learned model is never trained on the request: 202 at once while a job trains it, then read by every process from PostgreSQL", async () => {
    const started = performance.now();
    const first = await ask(ID(3), "learned_events");
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ method: "learned_events", state: "training", retry_after_s: 5 });
    // asked again before the job ran: the same one job
    expect((await ask(ID(3), "learned_events")).status).toBe(202);
    expect(await runBlameJobs()).toBe(1);
    expect(await prisma().blameHeldOutModel.findMany({ select: { traceKey: true, method: true, trainedOn: true } })).toEqual([{ traceKey: ID(3), method: "learned_events", trainedOn: 11 }]);
    expect((await ask(ID(3), "learned_events")).status).toBe(200);
    await prisma().blameHeldOutModel.deleteMany();
  });

  it("a caller has at most 4 trainings or rankings waiting; another caller is not held up by them", async () => {
    const asks = await Promise.all([4, 5, 6, 7, 8].map((i) => ask(ID(i), "learned_stumps")));
    expect(asks.map((a) => a.status)).toEqual([202, 202, 202, 202, 202]);
    const queued = await pool().query<{ n: number }>("SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'blame-train' AND state = 'created'");
    expect(queued.rows[0]!.n).toBe(4);
    expect(asks.filter((a) => (a.body as unknown as { reason: string }).reason.includes("4 of your trainings"))).toHaveLength(1);
    // the queued ones run; the refused one is queued when asked again
    expect(await runBlameJobs()).toBe(4);
    expect((await ask(ID(8), "learned_stumps")).status).toBe(202);
    expect(await runBlameJobs()).toBe(1);
    for (const i of [4, 5, 6, 7, 8]) expect((await ask(ID(i), "learned_stumps")).status).toBe(200);
    await prisma().blameHeldOutModel.deleteMany();
  });

  it("a learned method ranks a labelled run with a model that never saw its label: the same ranking once the label is gone", async () => {
    await ask(ID(3), "learned_events");
    await runBlameJobs();
    const labelled = await ask(ID(3), "learned_events");
    expect(labelled.status).toBe(200);
    expect(labelled.body.trained).toMatchObject({ traces: 11, held_out: true });
    await prisma().decisiveError.deleteMany({ where: { traceKey: ID(3) } });
    await ask(ID(3), "learned_events");
    await runBlameJobs();
    const unlabelled = await ask(ID(3), "learned_events");
    expect(unlabelled.body.trained).toMatchObject({ traces: 11, held_out: false });
    expect(unlabelled.body.events).toEqual(labelled.body.events);
    expect(unlabelled.body.agents).toEqual(labelled.body.agents);
    // give the label back for the tests below
    await ingestFormatted(FILES[2]!, { format: "auto", upsert: true });
    expect(await prisma().decisiveError.count({ where: { traceKey: ID(3) } })).toBe(1);
  });

  it("best names the method it chose by cross-validated step accuracy, from the kept scores, never waiting for them", async () => {
    await prisma().blameScoring.deleteMany();
    // nothing scored yet: the model shipped with Baton, and it says why
    const before = await ask(ID(2), "best");
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ method: DEFAULT_MODEL.model.method, chosen: { by: "default" }, trained: { traces: DEFAULT_MODEL.traces, at: DEFAULT_MODEL.trained_at, held_out: false, source: "default" } });
    const scores = await scoredEvaluation("project=default");
    // the best method learns: until the model for this labelled run is trained, the shipped model, saying so
    expect(methodByName(scores.best!)!.learned).toBe(true);
    const meanwhile = await ask(ID(2), "best");
    expect(meanwhile.status).toBe(200);
    expect(meanwhile.body).toMatchObject({ chosen: { by: "default" }, trained: { source: "default", pending: true } });
    const { body } = await askTrained(ID(2), "best");
    expect(body.chosen).toEqual({ by: "cross-validated step accuracy", project: "default", as_of: scores.computed_at });
    expect(body.method).toBe(scores.best);
  }, 300_000);

  it("refuses an unknown method at its path, an unknown trace with 404, and a learned method with nothing to learn from with 422", async () => {
    const bad = await ask(ID(1), "astrology");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]!.path).toBe("method");
    expect((await ask("no-such-trace", "errors")).status).toBe(404);
    const example = { trace_id: "lonely", task_id: "t", project: "empty", events: [{ id: "a", t: 0, type: "message", agent: "x" }], edges: [], rewards: {}, costs: { tokens: 0, wall_clock_s: 0 } };
    expect((await ingest(jsonRequest("/api/traces", example), params({}))).status).toBe(201);
    expect((await ask("lonely", "learned_events")).status).toBe(422);
    const best = await ask("lonely", "best");
    expect(best.status).toBe(200);
    expect(best.body.chosen).toMatchObject({ by: "default" });
    expect((best.body.chosen as { reason: string }).reason).toContain("0 other traces with a decisive error");
    // exactly the shipped model's ranking of the stored trace
    const ranking = rankWithDefaultModel(blameInput(await loadTrace("lonely", { content: "all" })));
    expect(best.body).toMatchObject({ method: ranking.method, events: ranking.events, agents: ranking.agents, trained: { source: "default", traces: DEFAULT_MODEL.traces } });
  });

  it("a project with too few labels of its own ranks with the shipped model, whether or not the trace's own label exists", async () => {
    const events = [
      { id: "task", t: 0, type: "message", agent: "human", role: "user", content: "Find the opening hours." },
      { id: "search", t: 1, type: "tool_call", agent: "Searcher", role: "worker", tool: "web", content: "search: opening hours" },
      { id: "result", t: 2, type: "tool_result", agent: "web", role: "code_executor", tool: "web", status: "error", content: "Error: no results found" },
      { id: "answer", t: 3, type: "aggregate", agent: "Writer", role: "worker", content: "They open at 9. TERMINATE" },
    ];
    const edges = [{ src: "task", dst: "search", type: "causal" }, { src: "search", dst: "result", type: "tool_dependency" }, { src: "result", dst: "answer", type: "causal" }];
    const few = { trace_id: "few-1", task_id: "t", project: "few", events, edges, rewards: { task_success: -1 }, costs: { tokens: 0, wall_clock_s: 0 } };
    expect((await ingest(jsonRequest("/api/traces", few), params({}))).status).toBe(201);
    const unlabelled = await ask("few-1", "best");
    const annotator = await prisma().user.findFirstOrThrow();
    await prisma().decisiveError.create({ data: { traceKey: "few-1", eventId: "search", agent: "Searcher", annotatorId: annotator.id } });
    const labelled = await ask("few-1", "best");
    expect(labelled.body.chosen).toMatchObject({ by: "default" });
    expect(labelled.body.trained).toMatchObject({ source: "default" });
    expect(labelled.body.events).toEqual(unlabelled.body.events);
    expect(labelled.body.agents).toEqual(unlabelled.body.agents);
    await prisma().decisiveError.deleteMany({ where: { traceKey: "few-1" } });
  });
});

describe("GET /api/blame/evaluation", () => {
  it("scores every method on the labelled runs of a project, the unlearned ones exactly as the methods rank them", async () => {
    const body = await scoredEvaluation("project=default");
    expect(body).toMatchObject({ version: "baton-spec-4", traces: 12, cv: { k: 5, seed: 1, by: "trace" } });
    const first = body.methods.find((m) => m.method === "first_step")!;
    // recomputed here from the stored traces and their decisive events
    const rankings: { ranking: BlameRanking; decisive_event_id: string; decisive_agent: string }[] = [];
    // in trace_id order, as the server sums them (float sums depend on the order)
    for (const id of Array.from({ length: 12 }, (_, i) => ID(i + 1)).sort()) {
      const d = await prisma().decisiveError.findFirstOrThrow({ where: { traceKey: id } });
      rankings.push({ ranking: (methodByName("first_step") as HeuristicMethod).rank(blameInput(await loadTrace(id, { content: "all" }))), decisive_event_id: d.eventId, decisive_agent: d.agent });
    }
    expect(first.scores).toEqual(scoreRankings(rankings));
    expect(body.methods.find((m) => m.method === "learned_events")!.cv).toEqual({ k: 5, seed: 1 });
    expect(body.methods.find((m) => m.method === "divergence")!.not_applicable).toBe(12);
    // nested CV: every family scored on all 12 runs, one kept candidate per outer fold, drawn from the family
    expect(body.nested.map((r) => r.family)).toEqual(Object.keys(defaultFamilies()));
    for (const r of body.nested) {
      expect(r.scores.n).toBe(12);
      expect(r.chosen).toHaveLength(5);
      for (const c of r.chosen) expect(defaultFamilies()[r.family]!.map((m) => m.name)).toContain(c);
    }
    // the leading estimate: nested CV by task; every run here is of its own task, so its folds are the folds by trace
    expect(body.estimate).toMatchObject({ label: "nested CV by task", k: 5, tasks: 12, by_system: [] });
    expect(body.nested_by_task).toEqual(body.nested);
    expect(body.estimate!.scores).toEqual(body.nested.find((r) => r.family === "best (nested)")!.scores);
    // unchanged labels: the stored answer
    expect(await (await evaluation(getRequest("/api/blame/evaluation?project=default"), params({}))).json()).toEqual(body);
    const bad = await evaluation(getRequest("/api/blame/evaluation?projekt=x"), params({}));
    expect(bad.status).toBe(400);
  }, 300_000);
});

describe("the background refresh after a decisive-error change", () => {
  it("a refresh retrains every learned method of the project and rescores its methods; a page asking for scores not kept yet gets none at once", async () => {
    await prisma().blameModel.deleteMany();
    await prisma().blameScoring.deleteMany();
    // the job's work, run here (the queue itself is pg-boss's; a worker of another test file may hold its jobs)
    await refreshProject("default");
    const learned = METHODS.filter((m) => m.learned).map((m) => m.name).sort();
    expect((await prisma().blameModel.findMany({ select: { method: true } })).map((m) => m.method).sort()).toEqual(learned);
    for (const row of await prisma().blameModel.findMany()) expect(row.trainedOn).toBe(12);
    // the scoring of the project's labelled set is queued, not computed by the refresh
    expect(await prisma().blameScoring.findMany({ select: { project: true, state: true } })).toEqual([{ project: "default", state: "queued" }]);
    expect(await blameEvaluation({ system: "CaptainAgent (AG2)" })).toMatchObject({ result: null, fresh: false, scoring: { state: "queued" } });
  }, 300_000);
});

describe("method=best in a project holding two systems", () => {
  it("ranks each trace with the best method of its own system once that system has 10 labelled traces", async () => {
    // ten Magentic-One runs (the shortest of Hand-Crafted: 5-17 steps) join the twelve CaptainAgent runs of the project
    for (const n of [24, 34, 48, 6, 33, 32, 29, 43, 49, 4]) expect((await ingestFormatted(`../shared/data/who_and_when/Hand-Crafted/${n}.json`, { format: "auto", upsert: true })).ok).toBe(true);
    const scores = await scoredEvaluation("project=default");
    expect(scores.traces).toBe(22);
    expect(scores.by_system.map((s) => [s.system, s.traces])).toEqual([["CaptainAgent (AG2)", 12], ["Magentic-One", 10]]);
    for (const system of scores.by_system) {
      expect(system.best).not.toBeNull();
      // nested CV scored on this system's traces
      expect(system.nested.map((r) => r.scores.n)).toEqual(scores.nested.map(() => system.traces));
    }
    // one question (Algorithm-Generated 12, Hand-Crafted 4/24/...) is in both systems: 21 tasks, nested CV by task made apart;
    // the estimate names each system's figure by task and, beside it, the pick trained on the other system alone
    expect(scores.estimate).toMatchObject({ label: "nested CV by task", tasks: 21 });
    expect(scores.estimate!.by_system.map((s) => [s.system, s.scores!.n, s.cross_system!.n])).toEqual([["CaptainAgent (AG2)", 12, 12], ["Magentic-One", 10, 10]]);
    expect(scores.estimate!.scores).toEqual(scores.nested_by_task!.find((r) => r.family === "best (nested)")!.scores);
    for (const [id, system] of [[ID(2), "CaptainAgent (AG2)"], ["whowhen-hand-crafted-4", "Magentic-One"]] as const) {
      const { status, body } = await askTrained(id, "best");
      expect(status).toBe(200);
      expect(body.chosen).toEqual({ by: "cross-validated step accuracy", project: "default", system, as_of: scores.computed_at });
      expect(body.method).toBe(scores.by_system.find((s) => s.system === system)!.best);
    }
  }, 600_000);
});
