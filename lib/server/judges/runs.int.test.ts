import { readFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_RUBRICS } from "@/lib/rubrics";
import { prisma } from "@/lib/server/db/client";
import { saveRubrics } from "@/lib/server/queries/rubrics";
import { startScriptedLlm, type ScriptedLlm } from "@/scripts/lib/scripted-llm";
import { getRequest, jsonRequest, params } from "@/scripts/lib/test-http";
import { POST as ingest } from "@/app/api/traces/route";
import { GET as listJudgesRoute, POST as createJudgeRoute } from "@/app/api/judges/route";
import { GET as judgeRoute, PATCH as patchJudgeRoute } from "@/app/api/judges/[id]/route";
import { GET as runsRoute, POST as createRunRoute } from "@/app/api/judges/[id]/runs/route";
import { GET as runRoute } from "@/app/api/judge-runs/[id]/route";
import { POST as cancelRoute } from "@/app/api/judge-runs/[id]/cancel/route";
import { POST as resumeRoute } from "@/app/api/judge-runs/[id]/resume/route";
import { GET as unitsRoute } from "@/app/api/judge-runs/[id]/units/route";
import { boss, stopBoss } from "../jobs/boss";
import { JUDGE_QUEUE } from "./queue";
import type { RunStatus } from "@/lib/api/contracts/judges";
import { resumeRun, runStatus } from "./runs";
import { startJudgeWorker } from "./worker";

/**
 * Runs end to end against the scripted OpenAI-compatible server on
 * 127.0.0.1: pg-boss jobs, two workers, failures stored with the raw reply,
 * retries on 429/5xx, timeouts, cancel, a crashed worker and resume, and
 * the API key never leaving the server.
 */
process.env.BATON_JUDGE_WORKER = "0"; // the tests start their own workers
const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>;
const KEY = "sk-test-3f9c2e7a1b5d4c8e9f0a";
// the timeout is well above the scripted answers (a timed-out request the server still works on would count twice in flight)
const FAST_RETRY = { attempts: 3, baseDelayMs: 10, timeoutMs: 1000 };
let llm: ScriptedLlm;
const responses: string[] = [];

async function call(res: Promise<Response>, status: number): Promise<Record<string, unknown>> {
  const r = await res;
  const text = await r.text();
  responses.push(text);
  expect(r.status, text).toBe(status);
  return JSON.parse(text) as Record<string, unknown>;
}

async function newJudge(name: string, model: string, extra: Record<string, unknown> = {}): Promise<number> {
  const body = await call(createJudgeRoute(jsonRequest("/api/judges", { project: "default", name, base_url: llm.url, model, api_key: KEY, families: ["task_success", "tool_use_correctness", "step_quality"], ...extra }), params({})), 201);
  return (body.judge as { id: number }).id;
}

async function run(judgeId: number, input: Record<string, unknown> = { filter: {} }): Promise<RunStatus> {
  return (await call(createRunRoute(jsonRequest(`/api/judges/${judgeId}/runs`, input), params({ id: String(judgeId) })), 201)).run as RunStatus;
}

async function finished(runId: number, states = ["done", "cancelled", "budget_exhausted"]): Promise<RunStatus> {
  for (let i = 0; i < 600; i++) {
    const s = await runStatus(runId);
    if (states.includes(s.state)) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`run ${runId} did not finish: ${JSON.stringify(await runStatus(runId))}`);
}

const labels = (judgeId: number) => prisma().judgeLabel.findMany({ where: { judgeId }, orderBy: [{ eventId: "asc" }, { family: "asc" }, { id: "asc" }] });

beforeAll(async () => {
  llm = await startScriptedLlm({ slowMs: 1300, limitFirst: 2 });
  await boss();
  await startJudgeWorker({ batchSize: 4, pollingIntervalSeconds: 0.5, retry: FAST_RETRY });
  await startJudgeWorker({ batchSize: 4, pollingIntervalSeconds: 0.5, retry: FAST_RETRY }); // a second worker shares the queue
});

afterAll(async () => {
  await stopBoss();
  await llm.close();
  // the key is never in any judges API response
  expect(responses.length).toBeGreaterThan(5);
  for (const text of responses) expect(text).not.toContain(KEY);
});

beforeEach(async () => {
  await prisma().judge.deleteMany();
  await prisma().trace.deleteMany();
  expect((await ingest(jsonRequest("/api/traces", example), params({}))).status).toBe(201);
});

describe("judge runs", () => {
  it("labels every unit once with provenance; the key is sealed at rest and sent only to the endpoint", async () => {
    const id = await newJudge("good", "good");
    const stored = await prisma().judge.findUniqueOrThrow({ where: { id } });
    expect(stored.apiKeyCipher).not.toBeNull();
    expect(stored.apiKeyCipher).not.toContain(KEY);
    const started = await run(id);
    // units: the trace (task_success), e5 (tool_use_correctness), e1 (the orchestrator's decision, baton-spec-4), e4, e7, e8 (step_quality)
    expect(started.total).toBe(6);
    const done = await finished(started.id);
    expect(done).toMatchObject({ state: "done", done: 6, failed: 0, pending: 0 });
    const rows = await labels(id);
    expect(rows.map((r) => [r.eventId, r.family, r.value, r.current])).toEqual([
      ["", "task_success", 1, true], ["e1", "step_quality", 0.5, true], ["e4", "step_quality", 0.5, true], ["e5", "tool_use_correctness", 0.5, true],
      ["e7", "step_quality", 0.5, true], ["e8", "step_quality", 0.5, true],
    ]);
    for (const r of rows) {
      expect(r.model).toBe("good");
      expect(r.promptHash).toMatch(/^[0-9a-f]{16}$/);
      expect(r.tokensIn).toBeGreaterThan(0);
      expect(r.tokensOut).toBe(12);
      expect(r.latencyMs).toBeGreaterThanOrEqual(0);
    }
    expect(llm.requests.filter((q) => q.body.model === "good").every((q) => q.authorization === `Bearer ${KEY}`)).toBe(true);
    // the judge sees the tool call's result, as a person does in the labeling view
    const toolAsk = llm.requests.find((q) => q.body.messages[1]!.content.includes("Step to grade: e5"))!;
    expect(toolAsk.body.messages[1]!.content).toContain("Its tool result: e6");
    expect(toolAsk.body.response_format).toMatchObject({ type: "json_schema" });
    await call(judgeRoute(getRequest(`/api/judges/${id}`), params({ id: String(id) })), 200);
    await call(listJudgesRoute(getRequest("/api/judges"), params({})), 200);
    await call(runsRoute(getRequest(`/api/judges/${id}/runs`), params({ id: String(id) })), 200);
    await call(runRoute(getRequest(`/api/judge-runs/${done.id}`), params({ id: String(done.id) })), 200);
  });

  it("stores garbage and out-of-range replies as failures with the raw reply, never a value", async () => {
    for (const model of ["garbage", "range"]) {
      const id = await newJudge(model, model, { families: ["step_quality"] });
      const done = await finished((await run(id)).id);
      expect(done).toMatchObject({ state: "done", done: 0, failed: 4 });
      const rows = await labels(id);
      expect(rows).toHaveLength(4);
      for (const r of rows) {
        expect(r.value).toBeNull();
        expect(r.current).toBe(false);
        expect(r.raw).toBe(model === "garbage" ? "Looks fine to me, I'd say pretty good overall." : '{"value":3,"reason":"very good"}');
        expect(r.error).toMatch(model === "garbage" ? /not JSON/ : /outside \[-1, 1\]/);
      }
    }
  });

  it("a run's units say which failed and what the model replied, failed first; a good run's say value and reason", async () => {
    const bad = await newJudge("garbage-units", "garbage", { families: ["step_quality", "task_success"] });
    const badRun = (await finished((await run(bad)).id));
    // task_success answers are binary: "garbage" is no JSON for either family
    expect(badRun).toMatchObject({ done: 0, failed: 5 });
    const all = await call(unitsRoute(getRequest(`/api/judge-runs/${badRun.id}/units`), params({ id: String(badRun.id) })), 200) as { units: Record<string, unknown>[]; total: number; counts: Record<string, number>; run: { id: number } };
    expect(all.run.id).toBe(badRun.id);
    expect(all.total).toBe(5);
    expect(all.counts).toEqual({ failed: 5, active: 0, pending: 0, done: 0 });
    expect(all.units.map((u) => [u.event_id, u.family, u.state])).toEqual([
      [null, "task_success", "failed"], ["e1", "step_quality", "failed"], ["e4", "step_quality", "failed"], ["e7", "step_quality", "failed"], ["e8", "step_quality", "failed"],
    ]);
    for (const u of all.units) {
      expect(u).toMatchObject({ trace_id: example.trace_id, value: null, reason: null, raw: "Looks fine to me, I'd say pretty good overall.", model: "garbage" });
      expect(u.error).toMatch(/not JSON/);
    }
    const paged = await call(unitsRoute(getRequest(`/api/judge-runs/${badRun.id}/units?offset=3&limit=2`), params({ id: String(badRun.id) })), 200) as { units: { event_id: string }[] };
    expect(paged.units.map((u) => u.event_id)).toEqual(["e7", "e8"]);
    const none = await call(unitsRoute(getRequest(`/api/judge-runs/${badRun.id}/units?state=done`), params({ id: String(badRun.id) })), 200) as { units: unknown[]; total: number };
    expect(none).toMatchObject({ units: [], total: 0 });
    const refused = await call(unitsRoute(getRequest(`/api/judge-runs/${badRun.id}/units?state=broken&limit=0`), params({ id: String(badRun.id) })), 400) as { error: { details: { path: string }[] } };
    expect(refused.error.details.map((d) => d.path).sort()).toEqual(["limit", "state"]);

    const good = await newJudge("good-units", "good", { families: ["step_quality"] });
    const goodRun = await finished((await run(good)).id);
    const answered = await call(unitsRoute(getRequest(`/api/judge-runs/${goodRun.id}/units?state=done`), params({ id: String(goodRun.id) })), 200) as { units: Record<string, unknown>[]; total: number };
    expect(answered.total).toBe(4);
    for (const u of answered.units) expect(u).toMatchObject({ state: "done", value: 0.5, reason: "scripted answer", raw: null, error: null, model: "good" });
  });

  it("retries 429 and 5xx with backoff; a timeout after the last try is a failure", async () => {
    const limit = await newJudge("limit", "limit", { families: ["tool_use_correctness"] });
    expect(await finished((await run(limit)).id)).toMatchObject({ done: 1, failed: 0 });
    expect(llm.requests.filter((q) => q.body.model === "limit")).toHaveLength(3); // 429, 429, answer
    const flaky = await newJudge("flaky", "flaky", { families: ["tool_use_correctness"] });
    expect(await finished((await run(flaky)).id)).toMatchObject({ done: 1, failed: 0 });
    const slow = await newJudge("slow", "slow", { families: ["tool_use_correctness"] });
    expect(await finished((await run(slow)).id)).toMatchObject({ done: 0, failed: 1 });
    expect((await labels(slow))[0]!.error).toMatch(/timed out after 1000 ms/);
  });

  it("a changed prompt makes new values and keeps the old ones as history", async () => {
    const id = await newJudge("p", "good:0.25", { families: ["tool_use_correctness"] });
    await finished((await run(id)).id);
    await call(patchJudgeRoute(new Request(`http://localhost/api/judges/${id}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ prompts: { tool_use_correctness: "Be strict." }, model: "good:-0.5" }) }), params({ id: String(id) })), 200);
    await finished((await run(id)).id);
    const rows = await labels(id);
    expect(rows.map((r) => [r.value, r.current])).toEqual([[0.25, false], [-0.5, true]]);
    expect(rows[0]!.promptHash).not.toBe(rows[1]!.promptHash);
  });

  it("the project's rubric is in the prompt: editing it changes the system message and the prompt hash", async () => {
    const id = await newJudge("r", "good:0.25", { families: ["tool_use_correctness"] });
    await prisma().rubric.deleteMany({ where: { project: { name: "default" } } });
    const systemOf = () => llm.requests.at(-1)!.body.messages.find((m) => m.role === "system")!.content;
    await finished((await run(id)).id);
    const before = systemOf();
    expect(before).toContain(DEFAULT_RUBRICS.tool_use_correctness.negative);
    await saveRubrics("default", { userId: 0, email: "", name: "test", via: "open" }, {
      rubrics: [{ family: "tool_use_correctness", negative: "Called a tool that does not exist.", neutral: "Harmless but useless call.", positive: "The right tool with the right arguments." }],
      reset: [],
    });
    await finished((await run(id)).id);
    const after = systemOf();
    expect(after).toContain("-1 means: Called a tool that does not exist. 0 means: Harmless but useless call. +1 means: The right tool with the right arguments.");
    expect(after).not.toContain(DEFAULT_RUBRICS.tool_use_correctness.negative);
    const rows = await labels(id);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.promptHash).not.toBe(rows[1]!.promptHash);
    await prisma().rubric.deleteMany({ where: { project: { name: "default" } } });
  });

  it("cancel stops new units; a crashed worker's unit is taken again after its lease; resume finishes the run", async () => {
    const id = await newJudge("c", "good", { families: ["cost"] }); // cost: every event, 8 units
    const started = await run(id, { filter: {}, concurrency: 1 });
    const cancelled = (await call(cancelRoute(new Request(`http://localhost/api/judge-runs/${started.id}/cancel`, { method: "POST" }), params({ id: String(started.id) })), 200)).run as RunStatus;
    expect(cancelled.state).toBe("cancelled");
    await new Promise((r) => setTimeout(r, 800)); // jobs drain without labelling
    const mid = await runStatus(started.id);
    expect(mid.pending).toBeGreaterThan(0);
    // a worker that died holding a unit: active, claimed long ago
    const [held] = await prisma().judgeUnit.findMany({ where: { runId: started.id, state: "pending" }, take: 1 });
    await prisma().judgeUnit.update({ where: { runId_traceKey_eventId_family: { runId: started.id, traceKey: held!.traceKey, eventId: held!.eventId, family: "cost" } }, data: { state: "active", claimedAt: new Date(Date.now() - 3_600_000) } });
    const resumed = (await call(resumeRoute(new Request(`http://localhost/api/judge-runs/${started.id}/resume`, { method: "POST" }), params({ id: String(started.id) })), 200)).run as RunStatus;
    expect(resumed.state).toBe("running");
    expect(await finished(started.id, ["done"])).toMatchObject({ done: 8, failed: 0, pending: 0 });
    const rows = await labels(id);
    expect(rows).toHaveLength(8); // every unit exactly once, despite duplicate jobs
    expect(new Set(rows.map((r) => r.eventId)).size).toBe(8);
  });

  it("a token budget stops the run; resume with a larger budget finishes it", async () => {
    const id = await newJudge("b", "good", { families: ["cost"] });
    const started = await run(id, { filter: {}, concurrency: 1, token_budget: 1 });
    const stopped = await finished(started.id, ["budget_exhausted"]);
    expect(stopped.done).toBe(1); // the first unit spends the budget
    await resumeRun(started.id, { token_budget: null });
    expect(await finished(started.id, ["done"])).toMatchObject({ done: 8 });
  });

  it("at most the run's concurrency in flight, across both workers", async () => {
    llm.peakInFlight = 0;
    const id = await newJudge("k", "delay", { families: ["cost"] }); // 8 units of 100 ms, 2 workers fetching 4 jobs each
    await finished((await run(id, { filter: {}, concurrency: 2 })).id, ["done"]);
    expect(llm.peakInFlight).toBe(2);
    const units = await prisma().judgeUnit.count({ where: { run: { judgeId: id }, state: "done" } });
    expect(units).toBe(8);
    const b = await boss();
    expect(await b.getQueueSize(JUDGE_QUEUE)).toBe(0);
  });
});
