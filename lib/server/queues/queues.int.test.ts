import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { queueInput } from "@/lib/api/queues";
import { computeCredit } from "@/lib/credit";
import { localUser, type Actor } from "@/lib/server/auth/access";
import { prisma } from "@/lib/server/db/client";
import { ApiError } from "@/lib/server/errors";
import { humanLabels } from "@/lib/server/queries/annotations";
import { loadTrace } from "@/lib/server/queries/load-trace";
import { jsonRequest, params } from "@/scripts/lib/test-http";
import { POST as ingest } from "@/app/api/traces/route";
import { adjudicate } from "./adjudicate";
import { createQueue } from "./create";
import { disagreements, queueAgreement, queueProgress } from "./stats";
import { editQueue, previewQueue } from "./edit";
import { describeItem, nextItem, skipItem, submitItem } from "./work";

const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>;
const ID = "demo-trace-001";

async function annotator(name: string): Promise<Actor> {
  const u = await prisma().user.create({ data: { email: `${name}@q.test`, name } });
  return { userId: u.id, email: u.email, name, via: "session" };
}

async function queue(assignees: Actor[], filter: Record<string, unknown>, n: number, name = "q") {
  return createQueue(await localUser(), queueInput.parse({ name, families: ["step_quality"], annotators_per_item: n, assignees: assignees.map((a) => a.email), filter }));
}

const stepQuality = async (eventId: string) => {
  const credit = computeCredit(await loadTrace(ID), { labels: (await humanLabels(ID)).labels });
  return credit.events.find((e) => e.id === eventId)!.by_family.step_quality;
};

beforeEach(async () => {
  await prisma().queue.deleteMany();
  await prisma().trace.deleteMany();
  await prisma().annotation.deleteMany();
  await prisma().adjudication.deleteMany();
  await prisma().user.deleteMany({ where: { local: false } });
  expect((await ingest(jsonRequest("/api/traces", example), params({}))).status).toBe(201);
});

describe("queues", () => {
  it("judge disagreement first: units where judges disagree, then where they are least certain; unjudged last; trace order again on edit", async () => {
    await prisma().judge.deleteMany();
    const a = await annotator("ann");
    const judge = async (name: string, project = "default") => {
      const p = await prisma().project.upsert({ where: { name: project }, create: { name: project }, update: {} });
      return (await prisma().judge.create({ data: { projectId: p.id, name, baseUrl: "http://127.0.0.1:1/v1", model: "m", families: ["step_quality"] } })).id;
    };
    const value = (judgeId: number, eventId: string, v: number) =>
      prisma().judgeLabel.create({ data: { judgeId, traceKey: ID, eventId, family: "step_quality", value: v, reason: "r", current: true, model: "m", promptHash: "h", latencyMs: 1 } });
    const [alpha, beta, other] = [await judge("alpha"), await judge("beta"), await judge("other", "elsewhere")];
    await value(alpha, "e4", 0.9); // agree and are sure: last of the judged
    await value(beta, "e4", 0.9);
    await value(other, "e4", -1); // another project's judge: ignored
    await value(alpha, "e7", 1); // disagree (sd 1): first
    await value(beta, "e7", -1);
    await value(alpha, "e8", 0.1); // one judge, unsure (|mean| 0.1): second
    const filter = { event_types: ["orchestrator_decision", "message", "return", "aggregate"] }; // e1 has no judge value: last
    const q = await createQueue(await localUser(), queueInput.parse({ name: "judged", families: ["step_quality"], assignees: [a.email], filter, order: "judge_disagreement" }));
    const order = async () => (await prisma().queueItem.findMany({ where: { queueId: q.id }, orderBy: { position: "asc" } })).map((i) => i.eventId);
    expect(await order()).toEqual(["e7", "e8", "e4", "e1"]);
    expect((await nextItem(q.id, a))!.event_id).toBe("e7");
    expect((await editQueue(q.id, { order: "trace" })).itemOrder).toBe("trace");
    expect(await order()).toEqual(["e1", "e4", "e7", "e8"]);
    await editQueue(q.id, { order: "judge_disagreement" });
    expect(await order()).toEqual(["e7", "e8", "e4", "e1"]);
    await prisma().judge.deleteMany();
  });

  it("previews the item count, closes (nothing handed out, 409) and reopens; a skip keeps its reason", async () => {
    const a = await annotator("ann");
    expect(await previewQueue("default", queueInput.shape.filter.parse({ event_types: ["message", "return", "aggregate"] }))).toBe(3);
    expect(await prisma().queue.count()).toBe(0); // the preview created nothing
    const q = await queue([a], { event_types: ["message", "return", "aggregate"] }, 1, "steps");
    await editQueue(q.id, { closed: true, name: "steps (closed)" });
    await expect(nextItem(q.id, a)).rejects.toMatchObject({ status: 409, code: "queue_closed" });
    await editQueue(q.id, { closed: false });
    const item = (await nextItem(q.id, a))!;
    expect(item.event_id).toBe("e4");
    await skipItem(q.id, item.id, a, "ambiguous task");
    expect(await prisma().queueWork.findFirst({ where: { itemId: item.id } })).toMatchObject({ state: "skipped", reason: "ambiguous task" });
    expect((await prisma().queue.findUniqueOrThrow({ where: { id: q.id } })).name).toBe("steps (closed)");
  });

  it("a unit offers exactly the queue's families it anchors; another family is a 400 with its path and writes nothing", async () => {
    const a = await annotator("ann");
    const families = ["step_quality", "tool_use_correctness", "orchestration", "stop_decision", "cost"] as const;
    const q = await createQueue(await localUser(), queueInput.parse({ name: "mixed", families, assignees: [a.email], filter: { event_types: ["orchestrator_decision", "message", "tool_call", "aggregate"] } }));
    const offered: Record<string, string[]> = {};
    for (let item = await nextItem(q.id, a); item; item = await nextItem(q.id, a)) {
      offered[item.event_id!] = (await describeItem(q.id, item, a))!.families;
      if (item.event_id === "e4") {
        // a chat message carries no tool_use_correctness: refused at its path, nothing stored, the item still held
        await expect(submitItem(q.id, item.id, a, { labels: [{ family: "step_quality", value: 1 }, { family: "tool_use_correctness", value: -1 }] }))
          .rejects.toMatchObject({ status: 400, details: [{ path: "$.labels[1].family" }] });
        expect(await prisma().annotation.count()).toBe(0);
      }
      await skipItem(q.id, item.id, a, "seen");
    }
    expect(offered).toEqual({
      e1: ["step_quality", "cost"], // an orchestrator's decision is a step (baton-spec-4)
      e4: ["step_quality", "cost"],
      e5: ["tool_use_correctness", "cost"],
      // no stop event in this trace: the terminal aggregate is the stop_decision anchor
      e8: ["step_quality", "orchestration", "stop_decision", "cost"],
    });
  });

  it("builds items from a filter", async () => {
    const a = await annotator("ann");
    expect((await queue([a], { event_types: ["message", "return", "aggregate"] }, 1, "steps")).items).toBe(3); // e4, e7, e8
    expect((await queue([a], { unit: "trace", e1: 1 }, 1, "traces")).items).toBe(1);
    expect((await queue([a], { event_types: ["message"], e1: 0 }, 1, "failed-messages")).items).toBe(0);
    expect((await queue([a], { trace_ids: [ID], event_types: ["spawn"] }, 1, "one-trace")).items).toBe(2);
    await expect(queue([a], { trace_ids: [ID, "other"], event_types: ["spawn"] }, 1, "unknown-trace")).rejects.toMatchObject({ status: 400, details: [{ path: "$.filter.trace_ids[1]" }] });
    await expect(queue([a], {}, 2, "too-many")).rejects.toThrow(ApiError);
  });

  it("two annotators work through a queue with N = 2; agreement, disagreements and adjudication follow", async () => {
    const [a, b] = [await annotator("ann"), await annotator("bob")];
    const q = await queue([a, b], { event_types: ["message", "return", "aggregate"] }, 2);
    const a1 = (await nextItem(q.id, a))!;
    const b1 = (await nextItem(q.id, b))!;
    expect([a1.event_id, b1.event_id]).toEqual(["e4", "e7"]); // e4 is held by ann, so bob gets the next one
    expect((await nextItem(q.id, a))!.id).toBe(a1.id); // asking again returns the held item
    const values: Record<string, [number, number]> = { e4: [1, 0.5], e7: [-1, -1], e8: [0, 0] };
    const work = async (who: Actor, k: 0 | 1) => {
      for (let item = await nextItem(q.id, who); item; item = await nextItem(q.id, who)) {
        await submitItem(q.id, item.id, who, { labels: [{ family: "step_quality", value: values[item.event_id!]![k] }] });
      }
    };
    await work(a, 0); // ann does e4 and e8; e7 is held by bob
    await work(b, 1); // bob does e7, e4, e8
    await work(a, 0); // now ann can do e7
    const progress = await queueProgress(q.id);
    expect(progress).toMatchObject({ items: 3, complete: 3 });
    expect(progress.people.map((p) => [p.name, p.done])).toEqual([["ann", 3], ["bob", 3]]);
    // units [1, 0.5], [-1, -1], [0, 0]: D_o = 0.5 / 6; D_e = 38.5 / 30; alpha = 1 - 15/231 = 216/231
    const [agreement] = await queueAgreement(q.id, ["step_quality"]);
    expect(agreement!.units).toBe(3);
    expect(agreement!.alpha).toBeCloseTo(216 / 231, 12);
    const disputed = await disagreements(q.id, 0.4);
    expect(disputed.map((u) => [u.event_id, u.spread])).toEqual([["e4", 0.5]]);
    // the mean 0.75 is credit at e4 until an admin sets the final value
    expect(await stepQuality("e4")).toBeCloseTo(0.75, 12);
    await adjudicate(await localUser(), { trace_id: ID, event_id: "e4", family: "step_quality", value: -1 });
    expect(await stepQuality("e4")).toBeCloseTo(-1, 12);
    expect((await disagreements(q.id, 0.4))[0]!.adjudicated).toBe(-1);
  });

  it("never hands one reservation to two of 10 concurrent annotators", async () => {
    const people = await Promise.all(Array.from({ length: 10 }, (_, i) => annotator(`p${i}`)));
    const q = await queue(people, { unit: "event" }, 1); // 8 events, one annotator each
    const items = await Promise.all(people.map((p) => nextItem(q.id, p)));
    const held = items.filter((i) => i !== null).map((i) => i.id);
    expect(held).toHaveLength(8);
    expect(new Set(held).size).toBe(8);
    const rows = await prisma().queueItem.findMany({ where: { queueId: q.id } });
    expect(new Set(rows.map((r) => r.reservedBy)).size).toBe(8);
  });

  it("an expired reservation passes to the next annotator; skipping leaves the item to others", async () => {
    const [a, b] = [await annotator("ann"), await annotator("bob")];
    const q = await queue([a, b], { event_types: ["message"] }, 1); // one item: e4
    const held = (await nextItem(q.id, a))!;
    expect(await nextItem(q.id, b)).toBeNull();
    await prisma().queueItem.update({ where: { id: held.id }, data: { reservedUntil: new Date(Date.now() - 1000) } });
    expect((await nextItem(q.id, b))!.id).toBe(held.id);
    await expect(submitItem(q.id, held.id, a, { labels: [{ family: "step_quality", value: 1 }] })).rejects.toMatchObject({ status: 409 });
    await skipItem(q.id, held.id, b);
    expect(await nextItem(q.id, b)).toBeNull(); // bob skipped it
    expect((await nextItem(q.id, a))!.id).toBe(held.id); // ann may take it again
    const stranger = await annotator("eve");
    await expect(nextItem(q.id, stranger)).rejects.toMatchObject({ status: 403 });
    await expect(submitItem(q.id, held.id, a, { labels: [{ family: "cost", value: 1 }] })).rejects.toMatchObject({ status: 400 });
  });

  it("accepts only 0 or 1 for trace-level task_success, in a queue submission and in POST /api/adjudications", async () => {
    const a = await annotator("ann");
    const q = await createQueue(await localUser(), queueInput.parse({ name: "success", families: ["task_success"], assignees: [a.email], filter: { unit: "trace" } }));
    const held = (await nextItem(q.id, a))!;
    for (const value of [0.3, -1]) {
      await expect(submitItem(q.id, held.id, a, { labels: [{ family: "task_success", value }] })).rejects.toMatchObject({ status: 400, details: [{ path: "$.labels[0].value" }] });
    }
    await submitItem(q.id, held.id, a, { labels: [{ family: "task_success", value: 0 }] });
    expect((await humanLabels(ID)).labels.trace.task_success).toMatchObject({ values: [0] });

    const { POST: adjudications } = await import("@/app/api/adjudications/route");
    for (const value of [0.3, -1]) {
      const response = await adjudications(jsonRequest("/api/adjudications", { trace_id: ID, family: "task_success", value }), params({}));
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { details: { path: string }[] } }).error.details.map((d) => d.path)).toEqual(["$.value"]);
    }
    expect(await prisma().adjudication.count()).toBe(0);
    const ok = await adjudications(jsonRequest("/api/adjudications", { trace_id: ID, family: "task_success", value: 1 }), params({}));
    expect(ok.status).toBe(201);
    // an event-level task_success value may be anything in [-1, 1]
    const eventLevel = await adjudications(jsonRequest("/api/adjudications", { trace_id: ID, event_id: "e4", family: "task_success", value: 0.3 }), params({}));
    expect(eventLevel.status).toBe(201);
  });
});
