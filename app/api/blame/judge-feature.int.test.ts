import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pool, prisma } from "@/lib/server/db/client";
import { startScriptedLlm, type ScriptedLlm } from "@/scripts/lib/scripted-llm";
import { getRequest, jsonRequest, params } from "@/scripts/lib/test-http";
import { runBlameJobs, scoredEvaluation } from "@/scripts/lib/test-blame";
import { makeUser } from "@/scripts/lib/test-auth";
import type { BlameResponse } from "@/lib/api/contracts/analysis";
import { GET as blame } from "../traces/[id]/blame/route";
import { POST as ingest } from "../traces/route";
import { POST as attribute } from "./judge/route";

/**
 * A judge's answers as a feature of the learned event model (`learned_judged`), end to end: runs whose five worker
 * steps look alike to every feature of the trace, the decisive one moving from run to run; its text holds "zebra",
 * except in every fifth run, where the next step's does. The judge (the scripted endpoint's `blame:zebra`) names the
 * first step that mentions a zebra: right on 13 of 16 runs. Each run carries its label in its metadata as well
 * (LEAK-...), which no judge request may hold.
 */
const RUNS = 16;
const STEPS = 5;
const ID = (i: number) => `zebra-${i}`;
const decisive = (i: number) => `s${(i * 3) % STEPS}`;
const zebra = (i: number) => (i % 5 === 4 ? `s${((i * 3) % STEPS + 1) % STEPS}` : decisive(i));
const PROJECT = "judged";
let llm: ScriptedLlm;

function run(i: number) {
  const events = [
    { id: "task", t: 0, type: "message", agent: "human", role: "user", content: `Task ${i}.` },
    ...Array.from({ length: STEPS }, (_, j) => ({ id: `s${j}`, t: 1 + j, type: "message", agent: "worker", role: "worker", content: `Working on it: ${`s${j}` === zebra(i) ? "zebra" : "apple"}.` })),
    { id: "end", t: 1 + STEPS, type: "aggregate", agent: "writer", role: "worker", content: "Done. TERMINATE" },
  ];
  const edges = events.slice(1).map((e, j) => ({ src: events[j]!.id, dst: e.id, type: "causal" }));
  // 12 tasks: runs 12-15 share a task with runs 0-3 (nested CV by task has folds of its own)
  return { trace_id: ID(i), task_id: `task-${i % 12}`, project: PROJECT, events, edges, rewards: { task_success: -1 }, costs: { tokens: 0, wall_clock_s: 0 }, metadata: { note: `LEAK-${decisive(i)}` } };
}

const ask = async (id: string, method: string) => {
  const response = await blame(getRequest(`/api/traces/${id}/blame?method=${method}`), params({ id }));
  return { status: response.status, body: (await response.json()) as BlameResponse };
};

beforeAll(async () => {
  process.env.BATON_BLAME_WORKER = "0";
  llm = await startScriptedLlm();
  await prisma().trace.deleteMany();
  await prisma().decisiveError.deleteMany();
  await prisma().judge.deleteMany();
  await prisma().blameScoring.deleteMany();
  await prisma().blameModel.deleteMany();
  await prisma().blameHeldOutModel.deleteMany();
  await pool().query("DELETE FROM pgboss.job WHERE name LIKE 'blame-%'").catch(() => {});
  const annotator = await makeUser("annotator");
  for (let i = 0; i < RUNS; i++) {
    expect((await ingest(jsonRequest("/api/traces", run(i)), params({}))).status).toBe(201);
    await prisma().decisiveError.create({ data: { traceKey: ID(i), eventId: decisive(i), agent: "worker", annotatorId: annotator.id } });
  }
}, 120_000);
afterAll(async () => {
  delete process.env.BATON_BLAME_WORKER;
  await llm.close();
});

describe("a judge's answers as a feature of the learned event model", () => {
  let before: Awaited<ReturnType<typeof scoredEvaluation>>;

  it("without any judge's answer nothing changes: no learned_judged, no family of it", async () => {
    before = await scoredEvaluation(`project=${PROJECT}`);
    expect(before.traces).toBe(RUNS);
    expect(before.methods.map((m) => m.method)).not.toContain("learned_judged");
    expect(before.nested.map((r) => r.family)).toEqual(["learned_events (tuned)", "learned_stumps (tuned)", "learned (tuned)", "best (nested)"]);
    // nothing in the traces tells the decisive step apart
    expect(before.methods.find((m) => m.method === "learned_events")!.scores!.step.top1.value).toBeLessThan(0.5);
  }, 300_000);

  it("once a judge answered, learned_judged is scored like every learned method (CV, nested CV by run and by task), and is best", async () => {
    const project = await prisma().project.findUniqueOrThrow({ where: { name: PROJECT } });
    const judge = await prisma().judge.create({ data: { projectId: project.id, name: "zebra", baseUrl: llm.url, model: "blame:zebra", families: ["step_quality"] } });
    const sent = llm.requests.length;
    const response = await attribute(jsonRequest("/api/blame/judge", { judge_id: judge.id, mode: "all_at_once", trace_ids: Array.from({ length: RUNS }, (_, i) => ID(i)) }), params({}));
    expect(response.status).toBe(200);
    const { outcomes } = (await response.json()) as { outcomes: { trace_id: string; event_id: string }[] };
    for (let i = 0; i < RUNS; i++) expect(outcomes.find((o) => o.trace_id === ID(i))!.event_id).toBe(zebra(i));
    // the judge saw the runs without their labels
    expect(llm.requests.slice(sent).some((r) => JSON.stringify(r.body).includes("LEAK"))).toBe(false);

    const after = await scoredEvaluation(`project=${PROJECT}`);
    const method = (name: string) => after.methods.find((m) => m.method === name)!;
    const right = Array.from({ length: RUNS }, (_, i) => zebra(i) === decisive(i)).filter(Boolean).length;
    expect(right).toBe(13);
    expect(method("judge:zebra:all_at_once").scores!.step.top1.value).toBe(right / RUNS);
    expect(method("learned_judged")).toMatchObject({ learned: true, cv: { k: 5, seed: 1 }, not_applicable: 0, scores: { n: RUNS } });
    // trained on the other folds' runs, it follows the judge: as right as the judge is
    expect(method("learned_judged").scores!.step.top1.value).toBe(right / RUNS);
    // the other methods score exactly as before: they never read the judges
    for (const m of before.methods) expect(method(m.method)).toEqual(m);
    expect(after.best).toBe("learned_judged");
    for (const nested of [after.nested, after.nested_by_task!]) {
      expect(nested.map((r) => r.family)).toEqual(["learned_events (tuned)", "learned_stumps (tuned)", "learned (tuned)", "learned_judged (tuned)", "best (nested)"]);
      const family = nested.find((r) => r.family === "learned_judged (tuned)")!;
      expect(family.scores.n).toBe(RUNS);
      for (const c of family.chosen) expect(c).toMatch(/^learned_judged\(l2=/);
      expect(family.scores.step.top1.value).toBeGreaterThan(nested.find((r) => r.family === "learned (tuned)")!.scores.step.top1.value);
    }
    // runs of one task on both sides of a fold by run: the by-task nested CV is computed apart, and leads
    expect(after.estimate).toMatchObject({ label: "nested CV by task", tasks: 12 });
    expect(after.estimate!.scores).toEqual(after.nested_by_task!.find((r) => r.family === "best (nested)")!.scores);
  }, 300_000);

  it("ranks a run with the judge's answer about it, by a model that never saw the run's label; a new answer retrains it", async () => {
    expect((await ask(ID(0), "learned_judged")).status).toBe(202);
    await runBlameJobs();
    const ranked = await ask(ID(0), "learned_judged");
    expect(ranked.status).toBe(200);
    expect(ranked.body.trained).toMatchObject({ traces: RUNS - 1, held_out: true, source: "project" });
    expect(ranked.body.events[0]!.id).toBe(zebra(0));
    expect(ranked.body.events[0]!.signals.judge_all_at_once).toBeGreaterThan(0);
    // method=best is learned_judged here: the same ranking
    const best = await ask(ID(0), "best");
    expect(best.body).toMatchObject({ method: "learned_judged", events: ranked.body.events });
    // a run judged wrongly: the judge's step first, not the labelled one
    await ask(ID(4), "learned_judged");
    await runBlameJobs();
    expect((await ask(ID(4), "learned_judged")).body.events[0]!.id).toBe(zebra(4));
    // another judge's answer: what the model learned from changed; the older model answers meanwhile, saying so
    const project = await prisma().project.findUniqueOrThrow({ where: { name: PROJECT } });
    const bisect = await prisma().judge.create({ data: { projectId: project.id, name: "zebra-bisect", baseUrl: llm.url, model: "blame:zebra", families: ["step_quality"] } });
    expect((await attribute(jsonRequest("/api/blame/judge", { judge_id: bisect.id, mode: "binary_search", trace_ids: [ID(1)] }), params({}))).status).toBe(200);
    const stale = await ask(ID(0), "learned_judged");
    expect(stale.body.trained).toMatchObject({ pending: true });
    await runBlameJobs();
    const fresh = await ask(ID(0), "learned_judged");
    expect(fresh.body.trained).not.toHaveProperty("pending");
    expect(fresh.body.events[0]!.id).toBe(zebra(0));
    // a method that does not read the judges keeps its model
    await ask(ID(0), "learned_events");
    await runBlameJobs();
    const events = await ask(ID(0), "learned_events");
    expect(events.body.events[0]!.signals).not.toHaveProperty("judge_all_at_once");
  }, 300_000);
});
