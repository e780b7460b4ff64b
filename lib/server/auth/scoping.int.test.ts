import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as metrics } from "@/app/api/metrics/route";
import { GET as getTrace } from "@/app/api/traces/[id]/route";
import { POST as importFile } from "@/app/api/import/route";
import { GET as list, POST as ingest } from "@/app/api/traces/route";
import { prisma } from "@/lib/server/db/client";
import { params } from "@/scripts/lib/test-http";
import { answer, authRequest, cleanAccounts, exampleTrace, makeUser, signIn, TRACE_PREFIX, type Credentials } from "@/scripts/lib/test-auth";

/** Project scoping: ingest checks every project a body touches; with BATON_PUBLIC_READ=0 reads follow roles. */
let siteAdmin: Credentials;
let pAnnotator: Credentials;

beforeEach(async () => {
  siteAdmin = await signIn(await makeUser("root", { isAdmin: true }));
  pAnnotator = await signIn(await makeUser("pann", { roles: { p: "annotator" } }));
  expect((await ingest(authRequest("POST", "/api/traces", siteAdmin, [exampleTrace("in-p", "p"), exampleTrace("in-q", "q")]), params({}))).status).toBe(201);
});

afterEach(async () => {
  delete process.env.BATON_PUBLIC_READ;
  await cleanAccounts();
});

describe("project scoping", () => {
  it("an annotator of p ingests into p, not into q, and cannot replace q's trace through upsert", async () => {
    expect((await ingest(authRequest("POST", "/api/traces", pAnnotator, exampleTrace("new-p", "p")), params({}))).status).toBe(201);
    const intoQ = await answer(await ingest(authRequest("POST", "/api/traces", pAnnotator, exampleTrace("new-q", "q")), params({})));
    expect([intoQ.status, intoQ.code]).toEqual([403, "forbidden"]);
    const hijack = await answer(await ingest(authRequest("POST", "/api/traces?upsert=1", pAnnotator, exampleTrace("in-q", "p")), params({})));
    // a 409 that names no project: q's trace is neither replaced nor told apart from any taken id
    expect([hijack.status, hijack.code]).toEqual([409, "conflict"]);
    expect(JSON.stringify(hijack.body)).not.toMatch(/"q"|project/);
    const kept = await prisma().trace.findUniqueOrThrow({ where: { traceId: `${TRACE_PREFIX}in-q` }, include: { project: true } });
    expect(kept.project.name).toBe("q");
    // the import door follows the same rule
    const viaImport = await importFile(authRequest("POST", "/api/import?upsert=1&name=t.json", pAnnotator, exampleTrace("in-q", "p")), params({}));
    expect(viaImport.status).toBe(409);
    // replacing its own project's trace still works
    expect((await ingest(authRequest("POST", "/api/traces?upsert=1", pAnnotator, exampleTrace("in-p", "p")), params({}))).status).toBe(201);
  });

  it("with BATON_PUBLIC_READ=0 anonymous reads get 401 and members see only their projects", async () => {
    process.env.BATON_PUBLIC_READ = "0";
    expect((await list(authRequest("GET", "/api/traces"), params({}))).status).toBe(401);
    const mine = await answer(await list(authRequest("GET", `/api/traces?q=${TRACE_PREFIX}`, pAnnotator), params({})));
    expect((mine.body.traces as { trace_id: string }[]).map((t) => t.trace_id)).toEqual([`${TRACE_PREFIX}in-p`]);
    expect((await getTrace(authRequest("GET", `/api/traces/${TRACE_PREFIX}in-q`, pAnnotator), params({ id: `${TRACE_PREFIX}in-q` }))).status).toBe(404); // like an unknown id
    expect((await getTrace(authRequest("GET", `/api/traces/${TRACE_PREFIX}in-p`, pAnnotator), params({ id: `${TRACE_PREFIX}in-p` }))).status).toBe(200);
    const agg = await answer(await metrics(authRequest("GET", "/api/metrics", pAnnotator), params({})));
    expect(agg.body.traces).toBe(1);
    const all = await answer(await list(authRequest("GET", `/api/traces?q=${TRACE_PREFIX}`, siteAdmin), params({})));
    expect((all.body.traces as unknown[]).length).toBe(2);
  });
});
