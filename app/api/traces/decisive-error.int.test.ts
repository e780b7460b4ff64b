import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import type { DecisiveErrorsResponse } from "@/lib/api/decisive-errors";
import type { Actor } from "@/lib/server/auth/access";
import { prisma } from "@/lib/server/db/client";
import { saveDecisiveError } from "@/lib/server/queries/decisive-errors";
import { getRequest, jsonRequest, params, type ErrorBody } from "@/scripts/lib/test-http";
import { POST as importFile } from "../import/route";
import { PUT as adjudicate } from "./[id]/decisive-error/adjudication/route";
import { DELETE as unname, GET as decisive, PUT as name } from "./[id]/decisive-error/route";
import { GET as exportTrace } from "./[id]/export/route";
import { DELETE as deleteTrace } from "./[id]/route";
import { POST as ingest } from "./route";

/** A real run of Who&When's Hand-Crafted subset: its label blames step 12 on WebSurfer. */
const RUN = readFileSync("../shared/data/who_and_when/Hand-Crafted/1.json", "utf8");
const ID = "whowhen-hand-crafted-1";

const put = (url: string, body: unknown) => new Request(`http://localhost${url}`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
async function read(): Promise<DecisiveErrorsResponse> {
  return (await (await decisive(getRequest(`/api/traces/${ID}/decisive-error`), params({ id: ID }))).json()) as DecisiveErrorsResponse;
}
async function exported(format: string): Promise<string> {
  return (await exportTrace(getRequest(`/api/traces/${ID}/export?format=${format}`), params({ id: ID }))).text();
}
async function eventAt(step: number): Promise<{ eventId: string; agent: string }> {
  const rows = await prisma().event.findMany({ where: { trace: { traceId: ID } }, orderBy: { seq: "asc" } });
  return rows.find((r) => (r.extra as { step?: number } | null)?.step === step)!;
}

beforeEach(async () => {
  await prisma().trace.deleteMany();
  await prisma().decisiveError.deleteMany();
  await prisma().decisiveErrorAdjudication.deleteMany();
  // another file's labels would keep their annotators from being deleted
  await prisma().annotation.deleteMany();
  await prisma().adjudication.deleteMany();
  await prisma().user.deleteMany({ where: { local: false } });
  const response = await importFile(new Request("http://localhost/api/import?format=auto&name=1.json", { method: "POST", body: RUN, headers: { "content-type": "application/json" } }), params({}));
  expect(response.status).toBe(201);
});

describe("decisive errors (SPEC.md sections 5, 6)", () => {
  it("a Who&When run arrives with its labelled mistake as the decisive error of an imported annotator", async () => {
    const step12 = await eventAt(12);
    const body = await read();
    expect(body).toMatchObject({ version: "baton-spec-4", trace_id: ID, decisive_event: step12.eventId, decisive_agent: "WebSurfer", adjudication: null });
    expect(body.labels).toEqual([expect.objectContaining({ event_id: step12.eventId, agent: "WebSurfer", annotator: "Who&When ground truth", imported: true })]);
    expect(body.labels[0]!.reason).toBe((JSON.parse(RUN) as { mistake_reason: string }).mistake_reason);
  });

  it("a person names one per trace (history kept), defaults the agent to the event's, and the majority then the adjudication decide", async () => {
    const [e3, e5] = [await eventAt(3), await eventAt(5)];
    const first = await name(put(`/api/traces/${ID}/decisive-error`, { event_id: e3.eventId, reason: "wrong file" }), params({ id: ID }));
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ event_id: e3.eventId, agent: e3.agent, reason: "wrong file", imported: false });
    await name(put(`/api/traces/${ID}/decisive-error`, { event_id: e5.eventId }), params({ id: ID }));
    const mine = await prisma().decisiveError.findMany({ where: { traceKey: ID, annotator: { local: true } }, include: { revisions: { orderBy: { id: "asc" } } } });
    expect(mine).toHaveLength(1);
    expect(mine[0]!.revisions.map((r) => r.eventId)).toEqual([e3.eventId, e5.eventId]);
    // a second person names step 5 too: two against the ground truth's one
    const u = await prisma().user.create({ data: { email: "bo@x.test", name: "bo" } });
    await saveDecisiveError((await prisma().trace.findUniqueOrThrow({ where: { traceId: ID } })), { userId: u.id, email: u.email, name: "bo", via: "session" } satisfies Actor, { event_id: e5.eventId, agent: "Orchestrator" });
    expect((await read()).decisive_event).toBe(e5.eventId);
    const rows = (await exported("jsonl")).trim().split("\n").map((l) => JSON.parse(l) as { event_id: string; decisive_error: boolean | null });
    expect(rows.filter((r) => r.decisive_error).map((r) => r.event_id)).toEqual([e5.eventId]);
    expect(rows.every((r) => r.decisive_error !== null)).toBe(true);
    // an admin settles it
    const adj = await adjudicate(put(`/api/traces/${ID}/decisive-error/adjudication`, { event_id: e3.eventId, reason: "the plan" }), params({ id: ID }));
    expect(adj.status).toBe(200);
    expect(await read()).toMatchObject({ decisive_event: e3.eventId, decisive_agent: e3.agent, adjudication: { event_id: e3.eventId, reason: "the plan" } });
    // undo removes only the caller's own
    expect((await unname(new Request(`http://localhost/api/traces/${ID}/decisive-error`, { method: "DELETE" }), params({ id: ID }))).status).toBe(200);
    expect((await read()).labels.map((l) => l.annotator).sort()).toEqual(["Who&When ground truth", "bo"]);
    expect((await unname(new Request(`http://localhost/api/traces/${ID}/decisive-error`, { method: "DELETE" }), params({ id: ID }))).status).toBe(404);
  });

  it("bad input is a 400 at its path and changes nothing", async () => {
    const before = await read();
    for (const [body, path] of [[{ event_id: "no-such-event" }, "$.event_id"], [{ event_id: 7 }, "$.event_id"], [{ event_id: "e1", extra: 1 }, "$"], [{ event_id: "e1", agent: "" }, "$.agent"]] as const) {
      const response = await name(put(`/api/traces/${ID}/decisive-error`, body), params({ id: ID }));
      expect(response.status).toBe(400);
      expect(((await response.json()) as ErrorBody).error.details.map((d) => d.path)).toContain(path);
    }
    expect(await read()).toEqual(before);
  });

  it("the extended export carries them and comes back in exactly; a deleted trace takes them along", async () => {
    const e3 = await eventAt(3);
    await name(put(`/api/traces/${ID}/decisive-error`, { event_id: e3.eventId, reason: "the search was wrong" }), params({ id: ID }));
    await adjudicate(put(`/api/traces/${ID}/decisive-error/adjudication`, { event_id: e3.eventId }), params({ id: ID }));
    const text = await exported("extended");
    const doc = JSON.parse(text) as { decisive_errors: unknown[]; decisive_error_adjudication: unknown };
    expect(doc.decisive_errors).toHaveLength(2);
    const before = await read();
    expect((await deleteTrace(new Request(`http://localhost/api/traces/${ID}`, { method: "DELETE" }), params({ id: ID }))).status).toBe(200);
    expect(await prisma().decisiveError.count({ where: { traceKey: ID } })).toBe(0);
    expect(await prisma().decisiveErrorAdjudication.count({ where: { traceKey: ID } })).toBe(0);
    expect((await ingest(jsonRequest("/api/traces", doc), params({}))).status).toBe(201);
    expect(await exported("extended")).toBe(text);
    const after = await read();
    expect(after.decisive_event).toBe(before.decisive_event);
    // the names and times come back; every imported label is an imported annotator, never an account here
    expect(after.labels.map(({ imported: _i, ...l }) => l)).toEqual(before.labels.map(({ imported: _i, ...l }) => l));
    expect(after.labels.every((l) => l.imported)).toBe(true);
  });
});
