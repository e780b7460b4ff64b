/**
 * An extended trace's labels (SPEC.md section 6) are restored under imported
 * people of the same names, never under this instance's accounts: an import
 * cannot label or adjudicate as `admin`, nor overwrite a person's own label
 * through ?upsert=1. Imported adjudications need the project's admin role.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { prisma } from "@/lib/server/db/client";
import { params } from "@/scripts/lib/test-http";
import { answer, authRequest, cleanAccounts, exampleTrace, makeUser, signIn, TRACE_PREFIX, type Credentials } from "@/scripts/lib/test-auth";
import { POST as importFile } from "../import/route";
import { POST as annotate, GET as listLabels } from "./[id]/annotations/route";
import { GET as exportTrace } from "./[id]/export/route";
import { POST as ingest } from "./route";

const ID = `${TRACE_PREFIX}labelled`;
const NAMES = ["admin", "padmin", "ann"];
const at = "2026-12-01T10:00:00.000Z";

let padminId: number;
let projectAdmin: Credentials, annotator: Credentials, siteAdmin: Credentials;

function extended(labels: { annotations?: unknown[]; adjudications?: unknown[] }, id = ID) {
  return { ...exampleTrace("labelled", "p"), trace_id: id, annotations: labels.annotations ?? [], adjudications: labels.adjudications ?? [] };
}
const label = (annotator: string, value: number, comment: string | null = null) => ({ event_id: null, family: "step_quality", value, comment, annotator, updated_at: at });
const send = (url: string, creds: Credentials, body: unknown) => ingest(authRequest("POST", url, creds, body), params({}));

beforeEach(async () => {
  const root = await makeUser("admin", { isAdmin: true });
  siteAdmin = await signIn(root);
  const padmin = await makeUser("padmin", { roles: { p: "admin" } });
  padminId = padmin.id;
  projectAdmin = await signIn(padmin);
  annotator = await signIn(await makeUser("ann", { roles: { p: "annotator" } }));
  expect((await send("/api/traces", siteAdmin, exampleTrace("labelled", "p"))).status).toBe(201);
  // the project admin's own label
  const own = await annotate(authRequest("POST", `/api/traces/${ID}/annotations`, projectAdmin, { family: "step_quality", value: 0.5, comment: "mine" }), params({ id: ID }));
  expect(own.status).toBe(201);
});

afterEach(async () => {
  await cleanAccounts();
  await prisma().user.deleteMany({ where: { imported: true, name: { in: NAMES } } });
});

const labelsOf = (traceKey: string) =>
  prisma().annotation.findMany({ where: { traceKey }, include: { annotator: { select: { id: true, name: true, imported: true } } }, orderBy: { id: "asc" } });

describe("imported labels never act as an account", () => {
  it("?upsert=1 with labels named after the site admin and the project admin: stored under imported people, the admin's own label untouched", async () => {
    const response = await send("/api/traces?upsert=1", annotator, extended({ annotations: [label("padmin", -1, "forged"), label("admin", -0.5)] }));
    expect(response.status).toBe(201);
    const labels = await labelsOf(ID);
    const own = labels.find((l) => l.annotator.id === padminId)!;
    expect([own.value, own.comment, own.annotator.imported]).toEqual([0.5, "mine", false]);
    const imported = labels.filter((l) => l.annotator.imported).map((l) => [l.annotator.name, l.value, l.comment]);
    expect(imported.sort()).toEqual([["admin", -0.5, null], ["padmin", -1, "forged"]]);
    // no account got a label it did not write
    expect(labels.filter((l) => !l.annotator.imported).map((l) => l.annotator.id)).toEqual([padminId]);
    // and the API tells the two "padmin"s apart
    const listed = (await (await listLabels(authRequest("GET", `/api/traces/${ID}/annotations`, projectAdmin), params({ id: ID }))).json()) as { annotations: { annotator: string; imported: boolean; value: number }[] };
    expect(listed.annotations.map((a) => [a.annotator, a.imported, a.value]).sort()).toEqual([["admin", true, -0.5], ["padmin", false, 0.5], ["padmin", true, -1]]);
  });

  it("adjudications: an annotator's import is refused at their path (403, nothing stored); the project admin's is stored under an imported adjudicator", async () => {
    const adjudications = [{ event_id: null, family: "step_quality", value: 1, adjudicator: "admin", updated_at: at }];
    const other = `${TRACE_PREFIX}adjudicated`;
    const refused = await answer(await send("/api/traces", annotator, extended({ adjudications }, other)));
    expect([refused.status, refused.code]).toEqual([403, "forbidden"]);
    expect(refused.body.error!.details.map((d) => d.path)).toEqual(["$.adjudications"]);
    expect(await prisma().trace.count({ where: { traceId: other } })).toBe(0);
    // the import door too
    const viaImport = await importFile(authRequest("POST", "/api/import?name=t.json", annotator, extended({ adjudications }, other)), params({}));
    expect(viaImport.status).toBe(403);
    expect(await prisma().adjudication.count({ where: { traceKey: other } })).toBe(0);

    expect((await send("/api/traces", projectAdmin, extended({ adjudications }, other))).status).toBe(201);
    const stored = await prisma().adjudication.findFirstOrThrow({ where: { traceKey: other } });
    const adjudicator = await prisma().user.findUniqueOrThrow({ where: { id: stored.adjudicatorId } });
    expect([adjudicator.name, adjudicator.imported, adjudicator.isAdmin, adjudicator.passwordHash]).toEqual(["admin", true, false, null]);
    await prisma().adjudication.deleteMany({ where: { traceKey: other } });
  });

  it("decisive errors: imported under imported people, never an account; an imported adjudication of one needs the admin role", async () => {
    const other = `${TRACE_PREFIX}decisive`;
    const trace = extended({}, other);
    const event = ((trace as unknown as { events: { id: string }[] }).events)[0]!.id;
    const decisive = { ...trace, decisive_errors: [{ event_id: event, agent: "x", reason: "forged", annotator: "padmin" }] };
    const adjudicated = { ...decisive, decisive_error_adjudication: { event_id: event, agent: "x", reason: null, adjudicator: "admin" } };
    const refused = await answer(await send("/api/traces", annotator, adjudicated));
    expect([refused.status, refused.body.error!.details.map((d) => d.path)]).toEqual([403, ["$.decisive_error_adjudication"]]);
    expect(await prisma().trace.count({ where: { traceId: other } })).toBe(0);
    expect((await send("/api/traces", annotator, decisive)).status).toBe(201);
    const stored = await prisma().decisiveError.findFirstOrThrow({ where: { traceKey: other }, include: { annotator: true } });
    expect([stored.annotator.name, stored.annotator.imported, stored.annotatorId === padminId]).toEqual(["padmin", true, false]);
    await prisma().decisiveError.deleteMany({ where: { traceKey: other } });
  });

  it("the round trip keeps the names: the exported labels name the people who labelled", async () => {
    expect((await send("/api/traces?upsert=1", annotator, extended({ annotations: [label("admin", -0.5)] }))).status).toBe(201);
    const response = await exportTrace(authRequest("GET", `/api/traces/${ID}/export?format=extended`, siteAdmin), params({ id: ID }));
    const doc = (await response.json()) as { annotations: { annotator: string; value: number }[] };
    expect(doc.annotations.map((a) => [a.annotator, a.value]).sort()).toEqual([["admin", -0.5], ["padmin", 0.5]]);
  });
});
