import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderedEventIds, blameInput } from "@/lib/blame";
import { isHuman } from "@/lib/blame/priors";
import { prisma } from "@/lib/server/db/client";
import { ingestFormatted } from "@/lib/server/ingest/format-ingest";
import { loadTrace } from "@/lib/server/queries/load-trace";
import { startScriptedLlm, type ScriptedLlm } from "@/scripts/lib/scripted-llm";
import { getRequest, jsonRequest, params, type ErrorBody } from "@/scripts/lib/test-http";
import { scoredEvaluation } from "@/scripts/lib/test-blame";
import type { BlameResponse } from "@/lib/api/contracts/analysis";
import { GET as blame } from "../traces/[id]/blame/route";
import { POST as attribute } from "./judge/route";

/**
 * A judge attributing failures, against a scripted OpenAI-compatible
 * endpoint on loopback: `blame:<k>` names step k (all at once) and answers
 * the bisection's questions as if step k were the decisive error.
 */
const FILES = [1, 2, 3, 4].map((n) => `../shared/data/who_and_when/Algorithm-Generated/${n}.json`);
const ID = (n: number) => `whowhen-algorithm-generated-${n}`;
let llm: ScriptedLlm;

beforeAll(async () => {
  process.env.BATON_BLAME_WORKER = "0";
  llm = await startScriptedLlm();
  await prisma().trace.deleteMany();
  await prisma().decisiveError.deleteMany();
  await prisma().judge.deleteMany();
  await prisma().blameScoring.deleteMany();
  for (const f of FILES) expect((await ingestFormatted(f, { format: "auto", upsert: false })).ok).toBe(true);
});
afterAll(async () => llm.close());

async function judge(model: string) {
  const project = await prisma().project.findUniqueOrThrow({ where: { name: "default" } });
  return prisma().judge.create({ data: { projectId: project.id, name: model.replace(":", "-"), baseUrl: llm.url, model, families: ["step_quality"] } });
}
async function run(body: unknown) {
  const response = await attribute(jsonRequest("/api/blame/judge", body), params({}));
  return { status: response.status, body: (await response.json()) as { outcomes: { trace_id: string; event_id: string | null; error: string | null; questions: number }[] } & ErrorBody };
}

describe("a judge as an attribution method", () => {
  it("all at once: one request per run with the numbered timeline; the named step is stored and ranked first", async () => {
    const j = await judge("blame:1");
    const before = llm.requests.length;
    const { status, body } = await run({ judge_id: j.id, mode: "all_at_once", trace_ids: [ID(1), ID(2)] });
    expect(status).toBe(200);
    expect(llm.requests.length - before).toBe(2);
    expect(llm.requests.at(-1)!.body.messages[1]!.content).toContain("[step 0]");
    const ids1 = orderedEventIds(blameInput(await loadTrace(ID(1), { content: "all" })));
    expect(body.outcomes.find((o) => o.trace_id === ID(1))).toMatchObject({ event_id: ids1[1], error: null });
    const ranked = (await (await blame(getRequest(`/api/traces/${ID(1)}/blame?method=judge:blame-1:all_at_once`), params({ id: ID(1) }))).json()) as BlameResponse;
    expect(ranked.events[0]).toMatchObject({ id: ids1[1], rank: 1 });
    expect(ranked.events.slice(1).every((e) => e.rank === 2)).toBe(true);
  });

  it("binary search: the judge answers the guided questions, at most ceil(log2 N) + 1 of them, and the search ends at its step", async () => {
    const j = await judge("blame:2");
    const { body } = await run({ judge_id: j.id, mode: "binary_search", trace_ids: [ID(3)] });
    const ids = orderedEventIds(blameInput(await loadTrace(ID(3), { content: "all" })));
    expect(body.outcomes[0]).toMatchObject({ event_id: ids[2], error: null });
    expect(body.outcomes[0]!.questions).toBeLessThanOrEqual(Math.ceil(Math.log2(ids.length)) + 1);
    expect(body.outcomes[0]!.questions).toBeGreaterThan(0);
  });

  it("step by step: one question per step, the run shown up to that step, stopping at the first step the judge calls decisive", async () => {
    const j = await judge("blame:3");
    const before = llm.requests.length;
    const { body } = await run({ judge_id: j.id, mode: "step_by_step", trace_ids: [ID(2)] });
    const input = blameInput(await loadTrace(ID(2), { content: "all" }));
    const ids = orderedEventIds(input);
    // people's steps are not asked about; steps 0..3 are asked in order, then it stops
    const asked = [0, 1, 2, 3].filter((k) => !isHuman(input.trace.events.find((e) => e.id === ids[k])!));
    expect(body.outcomes[0]).toMatchObject({ event_id: ids[3], error: null, questions: asked.length });
    const sent = llm.requests.slice(before).map((r) => r.body.messages[1]!.content);
    expect(sent).toHaveLength(asked.length);
    sent.forEach((content, i) => {
      expect(content).toMatch(new RegExp(`Is step ${asked[i]} the decisive error\\?$`));
      expect(content).not.toContain(`[step ${asked[i]! + 1}]`);
    });
    const stored = await prisma().judgeAttribution.findFirstOrThrow({ where: { judgeId: j.id, mode: "step_by_step" } });
    expect((stored.questions as { decisive: boolean }[]).map((q) => q.decisive)).toEqual(asked.map((k) => k === 3));
    const ranked = (await (await blame(getRequest(`/api/traces/${ID(2)}/blame?method=judge:blame-3:step_by_step`), params({ id: ID(2) }))).json()) as BlameResponse;
    expect(ranked.events[0]).toMatchObject({ id: ids[3], rank: 1 });
    // a judge that calls no step decisive names nothing
    const never = await judge("blame:9999");
    expect((await run({ judge_id: never.id, mode: "step_by_step", trace_ids: [ID(2)] })).body.outcomes[0]).toMatchObject({ event_id: null, error: "the judge called no step decisive" });
  });

  it("a reply that is not the asked JSON is stored as a failure and scored as a miss", async () => {
    const j = await judge("garbage");
    const { body } = await run({ judge_id: j.id, trace_ids: [ID(4)] });
    expect(body.outcomes[0]).toMatchObject({ event_id: null, error: "the reply is not a JSON object" });
    expect((await prisma().judgeAttribution.findFirstOrThrow({ where: { judgeId: j.id } })).raw).toContain("Looks fine");
    const scores = await scoredEvaluation("project=default");
    const garbage = scores.methods.find((m) => m.method === "judge:garbage:all_at_once")!;
    expect(garbage).toMatchObject({ not_applicable: 3, scores: { n: 1, step: { top1: { value: 0 } }, agent: { top1: { value: 0 } } } });
    // the all-at-once judge is scored on the two runs it attributed: hand-checked against each run's decisive event
    const named = scores.methods.find((m) => m.method === "judge:blame-1:all_at_once")!;
    let hits = 0;
    for (const n of [1, 2]) {
      const d = await prisma().decisiveError.findFirstOrThrow({ where: { traceKey: ID(n) } });
      hits += orderedEventIds(blameInput(await loadTrace(ID(n), { content: "all" })))[1] === d.eventId ? 1 : 0;
    }
    expect(named.scores!.step.top1.value).toBe(hits / 2);
    expect(scores.best?.startsWith("judge:")).toBe(false);
  });

  it("refuses traces of another project, unknown judges and bad bodies with their paths", async () => {
    const j = await prisma().judge.findFirstOrThrow();
    expect((await run({ judge_id: j.id, trace_ids: ["nope"] })).body.error.details[0]!.path).toBe("$.trace_ids[0]");
    expect((await run({ judge_id: 999_999, trace_ids: [ID(1)] })).status).toBe(404);
    expect((await run({ judge_id: j.id, mode: "telepathy", trace_ids: [ID(1)] })).body.error.details[0]!.path).toBe("$.mode");
  });
});
