import { readFileSync } from "node:fs";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { queueInput } from "@/lib/api/queues";
import { localUser, type Actor } from "@/lib/server/auth/access";
import { prisma } from "@/lib/server/db/client";
import { adjudicateDecisiveError, saveDecisiveError } from "@/lib/server/queries/decisive-errors";
import { getRequest, jsonRequest, params, type ErrorBody } from "@/scripts/lib/test-http";
import { POST as ingest } from "@/app/api/traces/route";
import { POST as postQueue } from "@/app/api/queues/route";
import { GET as getQueue } from "@/app/api/queues/[id]/route";
import { GET as exportTrace } from "@/app/api/traces/[id]/export/route";
import { createQueue } from "./create";
import { editQueue, previewQueue } from "./edit";
import { decisiveDisagreements, queueAgreement, queueProgress } from "./stats";
import { describeItem, nextItem, skipItem, submitItem } from "./work";

/**
 * A queue that asks for the decisive error of each trace (SPEC.md section 5):
 * its items are whole traces, an answer is the annotator's decisive error,
 * progress counts it (and skips apart), agreement is the share of traces
 * named by >= 2 people on which they name the same event / the same agent.
 */
const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>;
const IDS = ["dq-1", "dq-2", "dq-3", "dq-4"];
// events of the example: e1 orchestrator, e4 planner_1, e5 executor_1 (tool_call), e7 executor_1 (return), e8 orchestrator

async function annotator(name: string, imported = false): Promise<Actor> {
  const u = await prisma().user.create({ data: { email: imported ? `imported:${name}` : `${name}@dq.test`, name, imported } });
  return { userId: u.id, email: u.email, name, via: "session" };
}

const traceRow = (traceId: string) => prisma().trace.findUniqueOrThrow({ where: { traceId } });

beforeEach(async () => {
  await prisma().queue.deleteMany();
  await prisma().trace.deleteMany();
  await prisma().decisiveError.deleteMany();
  await prisma().decisiveErrorAdjudication.deleteMany();
  await prisma().annotation.deleteMany();
  await prisma().adjudication.deleteMany();
  await prisma().user.deleteMany({ where: { local: false } });
  const batch = IDS.map((id) => ({ ...example, trace_id: id }));
  expect((await ingest(jsonRequest("/api/traces", batch), params({}))).status).toBe(201);
});

// leave no queue, trace, label or imported annotator behind for the next file
afterAll(async () => {
  await prisma().queue.deleteMany();
  await prisma().trace.deleteMany({ where: { traceId: { in: IDS } } });
  await prisma().decisiveError.deleteMany();
  await prisma().decisiveErrorAdjudication.deleteMany();
  await prisma().annotation.deleteMany();
  await prisma().user.deleteMany({ where: { email: { endsWith: "@dq.test" } } });
  await prisma().user.deleteMany({ where: { imported: true, name: "dataset ground truth (test)" } });
});

describe("decisive-error queues", () => {
  it("asks each trace's decisive error; progress counts done and skipped; agreement same event / same agent over people only; disagreements, adjudication and export follow", async () => {
    const [ann, bob] = [await annotator("ann"), await annotator("bob")];
    const truth = await annotator("dataset ground truth (test)", true);
    const q = await createQueue(await localUser(), queueInput.parse({ name: "decisive", families: ["decisive_error"], annotators_per_item: 2, assignees: [ann.email, bob.email], filter: { unit: "trace", trace_ids: IDS } }));
    expect(q.items).toBe(4);
    expect(await queueProgress(q.id)).toMatchObject({ items: 4, complete: 0, skipped: 0, pending: 4 });

    // the unit is the whole trace: no reward family to label, the decisive error asked
    const first = (await nextItem(q.id, ann))!;
    expect(first).toMatchObject({ trace_id: "dq-1", event_id: null });
    expect(await describeItem(q.id, first, ann)).toMatchObject({ families: [], decisive_error: true, event_count: 8 });
    // an empty answer is refused until the annotator named one; nothing is done
    await expect(submitItem(q.id, first.id, ann, { labels: [] })).rejects.toMatchObject({ status: 400, details: [{ path: "$.decisive_error" }] });
    expect((await queueProgress(q.id)).people.find((p) => p.name === "ann")!.done).toBe(0);
    // an unknown event is the 400 of the decisive-error route, at its path
    await expect(submitItem(q.id, first.id, ann, { labels: [], decisive_error: { event_id: "nope" } })).rejects.toMatchObject({ status: 400, details: [{ path: "$.event_id" }] });

    const annSays: Record<string, string> = { "dq-1": "e5", "dq-2": "e5", "dq-3": "e4", "dq-4": "e7" };
    for (let item = await nextItem(q.id, ann); item; item = await nextItem(q.id, ann)) {
      await submitItem(q.id, item.id, ann, { labels: [], decisive_error: { event_id: annSays[item.trace_id]!, reason: "r" } });
    }
    expect(await queueProgress(q.id)).toMatchObject({ items: 4, complete: 0, skipped: 0, pending: 4 });

    // bob: the same event on dq-1; on dq-2 another event of the same agent, named first with `w` (the trace's route), then an empty submit;
    // on dq-3 another agent; dq-4 skipped
    for (let item = await nextItem(q.id, bob); item; item = await nextItem(q.id, bob)) {
      if (item.trace_id === "dq-1") await submitItem(q.id, item.id, bob, { labels: [], decisive_error: { event_id: "e5" } });
      if (item.trace_id === "dq-2") {
        await saveDecisiveError(await traceRow("dq-2"), bob, { event_id: "e7", agent: "EXECUTOR_1" });
        await submitItem(q.id, item.id, bob, { labels: [] });
      }
      if (item.trace_id === "dq-3") await submitItem(q.id, item.id, bob, { labels: [], decisive_error: { event_id: "e8" } });
      if (item.trace_id === "dq-4") await skipItem(q.id, item.id, bob, "ambiguous task");
    }
    // the dataset's ground truth on dq-1 names another event: it is not a person and enters no agreement
    await saveDecisiveError(await traceRow("dq-1"), truth, { event_id: "e8" });

    const progress = await queueProgress(q.id);
    expect(progress).toMatchObject({ items: 4, complete: 3, skipped: 1, pending: 0 });
    expect(progress.people.map((p) => [p.name, p.done, p.skipped])).toEqual([["ann", 4, 0], ["bob", 3, 1]]);

    // traces named by both: dq-1 (e5, e5), dq-2 (e5, e7: both executor_1, "EXECUTOR_1" compared case-insensitively), dq-3 (e4 planner_1, e8 orchestrator)
    // same event 1 of 3, same agent 2 of 3; dq-4 has one person only
    const [agreement] = await queueAgreement(q.id, q.families);
    expect(agreement).toEqual({ family: "decisive_error", alpha: null, units: 3, same_event: 1 / 3, same_agent: 2 / 3 });

    const split = await decisiveDisagreements(q.id);
    expect(split.map((d) => [d.trace_id, d.events.map((e) => e.event_id), d.adjudicated])).toEqual([["dq-2", ["e5", "e7"], null], ["dq-3", ["e4", "e8"], null]]);
    expect(split[0]!.labels.map((l) => [l.annotator, l.event_id, l.agent])).toEqual([["ann", "e5", "executor_1"], ["bob", "e7", "EXECUTOR_1"]]);

    // an admin settles dq-3 on e8: listed as adjudicated, and the export marks e8 alone
    await adjudicateDecisiveError(await traceRow("dq-3"), await localUser(), { event_id: "e8", reason: "the final answer was never checked" });
    expect((await decisiveDisagreements(q.id)).find((d) => d.trace_id === "dq-3")!.adjudicated).toEqual({ event_id: "e8", agent: "orchestrator" });
    const rows = (await (await exportTrace(getRequest("/api/traces/dq-3/export?format=jsonl"), params({ id: "dq-3" }))).text()).trim().split("\n").map((l) => JSON.parse(l) as { event_id: string; decisive_error: boolean });
    expect(rows.filter((r) => r.decisive_error).map((r) => r.event_id)).toEqual(["e8"]);
  });

  it("the decisive error is asked of whole traces only; a queue that does not ask for it refuses one; unknown trace ids are named one by one", async () => {
    const ann = await annotator("ann");
    const response = await postQueue(jsonRequest("/api/queues", { name: "bad", families: ["decisive_error"], assignees: [ann.email], filter: { unit: "event" } }), params({}));
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorBody).error.details.map((d) => d.path)).toEqual(["$.families"]);
    expect(await prisma().queue.count()).toBe(0);

    const events = await createQueue(await localUser(), queueInput.parse({ name: "steps", families: ["step_quality"], assignees: [ann.email], filter: { event_types: ["message"], trace_ids: ["dq-1"] } }));
    await expect(editQueue(events.id, { families: ["step_quality", "decisive_error"] })).rejects.toMatchObject({ status: 400, details: [{ path: "$.families" }] });
    const held = (await nextItem(events.id, ann))!;
    await expect(submitItem(events.id, held.id, ann, { labels: [{ family: "step_quality", value: 1 }], decisive_error: { event_id: "e5" } })).rejects.toMatchObject({ status: 400, details: [{ path: "$.decisive_error" }] });
    await expect(submitItem(events.id, held.id, ann, { labels: [] })).rejects.toMatchObject({ status: 400, details: [{ path: "$.labels" }] });
    expect(await prisma().decisiveError.count()).toBe(0);
    expect(await prisma().annotation.count()).toBe(0);

    // trace-level task_success and the decisive error in one queue: a success needs no decisive error
    const both = await createQueue(await localUser(), queueInput.parse({ name: "both", families: ["task_success", "decisive_error"], assignees: [ann.email], filter: { unit: "trace", trace_ids: ["dq-2"] } }));
    const item = (await nextItem(both.id, ann))!;
    expect((await describeItem(both.id, item, ann))!).toMatchObject({ families: ["task_success"], decisive_error: true });
    await submitItem(both.id, item.id, ann, { labels: [{ family: "task_success", value: 1 }] });
    expect(await queueProgress(both.id)).toMatchObject({ items: 1, complete: 1, skipped: 0, pending: 0 });

    const filter = queueInput.shape.filter.parse({ unit: "trace", trace_ids: ["dq-1", "nope", "dq-2", "also nope"] });
    await expect(previewQueue("default", filter)).rejects.toMatchObject({ status: 400, details: [{ path: "$.filter.trace_ids[1]", message: 'no trace "nope" in this project' }, { path: "$.filter.trace_ids[3]", message: 'no trace "also nope" in this project' }] });
    await expect(createQueue(await localUser(), queueInput.parse({ name: "typo", families: ["task_success"], assignees: [ann.email], filter }))).rejects.toMatchObject({ status: 400 });
    expect(await prisma().queue.count()).toBe(2);
  });
  it("GET /api/queues/{id} answers the filter as stored: with the defaults it was written with, and as written before unit and limit existed", async () => {
    const ann = await annotator("ann");
    const q = await createQueue(await localUser(), queueInput.parse({ name: "shown", families: ["decisive_error"], assignees: [ann.email], filter: { unit: "trace", trace_ids: ["dq-1", "dq-2"] } }));
    const read = async () => {
      const response = await getQueue(getRequest(`/api/queues/${q.id}`), params({ id: String(q.id) }));
      expect(response.status).toBe(200);
      return ((await response.json()) as { filter: unknown }).filter;
    };
    expect(await read()).toEqual({ unit: "trace", trace_ids: ["dq-1", "dq-2"], limit: 5000 });
    await prisma().queue.update({ where: { id: q.id }, data: { filter: { trace_ids: ["dq-1"] } } });
    expect(await read()).toEqual({ trace_ids: ["dq-1"] });
  });
});
