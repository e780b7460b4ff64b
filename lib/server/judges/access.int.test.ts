import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { prisma } from "@/lib/server/db/client";
import { params } from "@/scripts/lib/test-http";
import { answer, authRequest, cleanAccounts, makeUser, signIn, withoutCsrf, type Credentials } from "@/scripts/lib/test-auth";
import { GET as listJudges, POST as createJudge } from "@/app/api/judges/route";
import { GET as getJudge, PATCH as patchJudge } from "@/app/api/judges/[id]/route";
import { POST as startRun } from "@/app/api/judges/[id]/runs/route";

/** Judges are managed by admins of their project (or site admins): the role matrix on the judge routes. */
process.env.BATON_JUDGE_WORKER = "0";
const none = params({});
const body = (project: string, name: string) => ({ project, name, base_url: "http://127.0.0.1:9/v1", model: "m", api_key: "sk-matrix-key-123456", families: ["step_quality"] });

afterEach(async () => {
  await prisma().judge.deleteMany();
  await cleanAccounts();
});

describe("judge routes with accounts", () => {
  let siteAdmin: Credentials, projectAdmin: Credentials, otherAdmin: Credentials, annotator: Credentials;

  beforeEach(async () => {
    await prisma().project.upsert({ where: { name: "p" }, create: { name: "p" }, update: {} });
    siteAdmin = await signIn(await makeUser("root", { isAdmin: true }));
    projectAdmin = await signIn(await makeUser("padmin", { roles: { p: "admin" } }));
    otherAdmin = await signIn(await makeUser("qadmin", { roles: { q: "admin" } }));
    annotator = await signIn(await makeUser("annotator", { roles: { p: "annotator" } }));
  });

  it("create: anonymous 401, annotator 403, another project's admin 403, no CSRF 403, project admin 201", async () => {
    const create = (creds: Credentials, name: string) => createJudge(authRequest("POST", "/api/judges", creds, body("p", name)), none);
    const before = await prisma().judge.count();
    expect((await answer(await create({}, "a"))).status).toBe(401);
    expect((await answer(await create(annotator, "b"))).status).toBe(403);
    expect((await answer(await create(otherAdmin, "c"))).status).toBe(403);
    expect((await answer(await create(withoutCsrf(projectAdmin), "d"))).status).toBe(403);
    const created = await answer(await create(projectAdmin, "e"));
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body)).not.toContain("sk-matrix-key");
    expect(await prisma().judge.count()).toBe(before + 1);
  });

  it("read, change and run: the project's admins and site admins only", async () => {
    const created = await answer(await createJudge(authRequest("POST", "/api/judges", siteAdmin, body("p", "j")), none));
    const id = String((created.body.judge as { id: number }).id);
    expect((await answer(await getJudge(authRequest("GET", `/api/judges/${id}`, annotator), params({ id })))).status).toBe(403);
    expect((await answer(await getJudge(authRequest("GET", `/api/judges/${id}`, otherAdmin), params({ id })))).status).toBe(403);
    expect((await answer(await patchJudge(authRequest("PATCH", `/api/judges/${id}`, annotator, { model: "x" }), params({ id })))).status).toBe(403);
    expect((await answer(await startRun(authRequest("POST", `/api/judges/${id}/runs`, otherAdmin, { filter: {} }), params({ id })))).status).toBe(403);
    const got = await answer(await getJudge(authRequest("GET", `/api/judges/${id}`, projectAdmin), params({ id })));
    expect(got.status).toBe(200);
    expect(got.body.judge).toMatchObject({ name: "j", has_api_key: true });
    expect(JSON.stringify(got.body)).not.toContain("sk-matrix-key");
    // listing shows only judges of projects one administers
    expect(((await answer(await listJudges(authRequest("GET", "/api/judges", projectAdmin), none))).body.judges as unknown[]).length).toBe(1);
    expect(((await answer(await listJudges(authRequest("GET", "/api/judges", otherAdmin), none))).body.judges as unknown[]).length).toBe(0);
    expect((await answer(await listJudges(authRequest("GET", "/api/judges", annotator), none))).status).toBe(403);
  });

  it("bad input is a 400 naming each field and stores nothing", async () => {
    const res = await answer(await createJudge(authRequest("POST", "/api/judges", siteAdmin, { ...body("p", "all"), base_url: "ftp://x", temperature: 9 }), none));
    expect(res.status).toBe(400);
    expect(res.body.error!.details.map((d) => d.path).sort()).toEqual(["$.base_url", "$.name", "$.temperature"]);
    expect(await prisma().judge.count()).toBe(0);
  });
});
