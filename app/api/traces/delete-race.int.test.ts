/**
 * Deleting a trace while it is being labelled: every concurrent label write
 * either lands before the delete (and is deleted with the trace) or after it
 * (and finds no trace: 404), never a 500, and no label outlives its trace
 * (to reappear on a re-ingested trace with the same id). A queue never hands
 * out an item of a deleted trace.
 */
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { localUser } from "@/lib/server/auth/access";
import { prisma } from "@/lib/server/db/client";
import { nextItem } from "@/lib/server/queues/work";
import { jsonRequest, params } from "@/scripts/lib/test-http";
import { POST as annotate } from "./[id]/annotations/route";
import { DELETE as remove } from "./[id]/route";
import { POST as ingest } from "./route";

const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown> & { events: { id: string }[] };
const ID = "delete-race-trace";
const FAMILIES = ["task_success", "step_quality", "orchestration", "cost", "stop_decision"] as const;

afterAll(async () => {
  await prisma().trace.deleteMany({ where: { traceId: ID } });
  await prisma().annotation.deleteMany({ where: { traceKey: ID } });
  await prisma().queue.deleteMany({ where: { name: { startsWith: "delete-race" } } });
});

/** 25 label writes: trace-level (five families) and event-level (every event), values by hand in range. */
function labelWrites(): Promise<Response>[] {
  const bodies = [
    ...FAMILIES.map((family) => ({ family, value: family === "task_success" ? 1 : 0.5 })),
    ...example.events.flatMap((e) => [{ event_id: e.id, family: "step_quality", value: -0.5 }, { event_id: e.id, family: "cost", value: 0.25 }]),
  ].slice(0, 25);
  return bodies.map((body) => annotate(jsonRequest(`/api/traces/${ID}/annotations`, body), params({ id: ID })));
}

describe("a trace deleted while it is labelled", () => {
  it("6 rounds of 25 concurrent writes and a delete: 201 or 404 only, no label left, none on the re-ingested trace", async () => {
    for (let round = 0; round < 6; round++) {
      expect((await ingest(jsonRequest("/api/traces", { ...example, trace_id: ID }), params({}))).status).toBe(201);
      expect(await prisma().annotation.count({ where: { traceKey: ID } })).toBe(0);
      // the delete starts after a few writes, so that writes fall on both sides of it
      const writes = labelWrites();
      const deleted = new Promise<Response>((resolve) => setTimeout(() => resolve(remove(new Request(`http://localhost/api/traces/${ID}`, { method: "DELETE" }), params({ id: ID }))), round * 3));
      const statuses = (await Promise.all([...writes, deleted])).map((r) => r.status);
      expect(statuses.at(-1)).toBe(200);
      expect(statuses.slice(0, -1).filter((s) => s !== 201 && s !== 404)).toEqual([]);
      expect(await prisma().annotation.count({ where: { traceKey: ID } })).toBe(0);
    }
  });

  it("a queue's next skips the items of a deleted trace (and the delete removes them)", async () => {
    expect((await ingest(jsonRequest("/api/traces", { ...example, trace_id: ID }), params({}))).status).toBe(201);
    const actor = await localUser();
    const project = await prisma().project.findUniqueOrThrow({ where: { name: "default" } });
    const queue = await prisma().queue.create({
      data: { projectId: project.id, name: `delete-race-${Date.now()}`, filter: {}, families: ["step_quality"], createdById: actor.userId, assignees: { create: [{ userId: actor.userId }] } },
    });
    // one item of the trace, one of a trace that no longer exists (left by an older version)
    await prisma().queueItem.createMany({ data: [{ queueId: queue.id, position: 0, traceKey: "delete-race-gone", eventId: "" }, { queueId: queue.id, position: 1, traceKey: ID, eventId: "" }] });
    expect((await nextItem(queue.id, actor))?.trace_id).toBe(ID);
    expect((await remove(new Request(`http://localhost/api/traces/${ID}`, { method: "DELETE" }), params({ id: ID }))).status).toBe(200);
    expect(await prisma().queueItem.count({ where: { queueId: queue.id, traceKey: ID } })).toBe(0);
    expect(await nextItem(queue.id, actor)).toBeNull();
  });
});
