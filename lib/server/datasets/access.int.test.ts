import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getOne } from "@/app/api/datasets/[id]/route";
import { GET as getFile } from "@/app/api/datasets/[id]/files/[...path]/route";
import { DELETE as del } from "@/app/api/datasets/[id]/route";
import { GET as list, POST as create } from "@/app/api/datasets/route";
import { POST as ingest } from "@/app/api/traces/route";
import { answer, authRequest, cleanAccounts, exampleTrace, keyFor, makeUser, signIn, withoutCsrf, type Credentials } from "@/scripts/lib/test-auth";
import { params } from "@/scripts/lib/test-http";
import { prisma } from "../db/client";
import { buildContext, failDeadBuilds, STOPPED_BUILD, UNREADABLE_REQUEST } from "./build";

/** Who may create a dataset snapshot, and which projects' traces it then holds (accounts on, public read on by default). */

const none = params({});
const BODY = { name: "access", form: "rows", format: "jsonl" };

let annotatorId: number;
let siteAdmin: Credentials, annotator: Credentials, viewer: Credentials, otherAdmin: Credentials, ingestKey: Credentials, readIngestKey: Credentials;

beforeAll(async () => {
  await prisma().dataset.deleteMany();
  const root = await makeUser("root", { isAdmin: true });
  siteAdmin = await signIn(root);
  const annotatorUser = await makeUser("annotator", { roles: { p: "annotator", q: "viewer" } });
  annotator = await signIn(annotatorUser);
  annotatorId = annotatorUser.id;
  viewer = await signIn(await makeUser("viewer", { roles: { p: "viewer" } }));
  otherAdmin = await signIn(await makeUser("qadmin", { roles: { q: "admin" } }));
  ingestKey = { bearer: (await keyFor(annotatorUser, ["ingest"])).bearer };
  readIngestKey = { bearer: (await keyFor(annotatorUser, ["read", "ingest"])).bearer };
  for (const [id, project] of [["ds-p", "p"], ["ds-q", "q"]] as const) {
    expect((await ingest(authRequest("POST", "/api/traces", siteAdmin, exampleTrace(id, project)), none)).status).toBe(201);
  }
});

afterAll(async () => {
  await prisma().dataset.deleteMany();
  await cleanAccounts();
});

const post = (creds: Credentials, body: unknown) => create(authRequest("POST", "/api/datasets", creds, body), none);

async function ready(creds: Credentials, id: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const { body } = await answer(await getOne(authRequest("GET", `/api/datasets/${id}`, creds), params({ id: String(id) })));
    if ((body as { state: string }).state === "ready") return;
    if ((body as { state: string }).state === "failed") throw new Error(`snapshot ${id} failed`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("snapshot not ready in 30 s");
}

/** The trace ids in a ready JSONL snapshot's only shard. */
async function traceIds(creds: Credentials, id: number): Promise<string[]> {
  const name = "data/train-00000-of-00001.jsonl";
  const response = await getFile(authRequest("GET", `/api/datasets/${id}/files/${name}`, creds), { params: Promise.resolve({ id: String(id), path: name.split("/") }) });
  expect(response.status).toBe(200);
  const ids = (await response.text()).trim().split("\n").map((line) => (JSON.parse(line) as { traj_uid: string }).traj_uid);
  return [...new Set(ids)].sort();
}

describe("POST /api/datasets with accounts", () => {
  it("anonymous callers get 401 even under public read, viewers and ingest-only keys 403, a session without its CSRF token 403; nothing is stored", async () => {
    const before = await prisma().dataset.count();
    expect((await answer(await post({}, BODY))).status).toBe(401);
    expect((await answer(await post({}, { ...BODY, filter: { project: "p" } }))).status).toBe(401);
    expect((await answer(await post(viewer, BODY))).status).toBe(403);
    expect((await answer(await post(viewer, { ...BODY, filter: { project: "p" } }))).status).toBe(403);
    expect((await answer(await post(ingestKey, BODY))).status).toBe(403);
    expect((await answer(await post(withoutCsrf(annotator), BODY))).status).toBe(403);
    expect(await prisma().dataset.count()).toBe(before);
  });

  it("an annotator of p: denied for project q (a viewer there) and for another project's admin; allowed for p", async () => {
    const before = await prisma().dataset.count();
    const denied = await answer(await post(annotator, { ...BODY, filter: { project: "q" } }));
    expect(denied.status).toBe(403);
    expect(denied.code).toBe("forbidden");
    expect((await answer(await post(otherAdmin, { ...BODY, filter: { project: "p" } }))).status).toBe(403);
    expect(await prisma().dataset.count()).toBe(before);
    const allowed = await answer(await post(annotator, { ...BODY, filter: { project: "p" } }));
    expect(allowed.status).toBe(202);
    const id = (allowed.body.dataset as { id: number }).id;
    await ready(annotator, id);
    expect(await traceIds(annotator, id)).toEqual(["auth-test-ds-p"]);
  });

  it("without a project filter the snapshot holds only the projects where the caller may upload; a site admin's holds all", async () => {
    // the annotator reads q too (viewer), but may not upload there: q's trace stays out
    const mine = await answer(await post(readIngestKey, { ...BODY, filter: { ids: "auth-test-ds-p,auth-test-ds-q" } }));
    expect(mine.status).toBe(202);
    const mineId = (mine.body.dataset as { id: number }).id;
    await ready(annotator, mineId);
    expect(await traceIds(annotator, mineId)).toEqual(["auth-test-ds-p"]);
    const all = await answer(await post(siteAdmin, { ...BODY, filter: { ids: "auth-test-ds-p,auth-test-ds-q" } }));
    expect(all.status).toBe(202);
    const allId = (all.body.dataset as { id: number }).id;
    await ready(siteAdmin, allId);
    expect(await traceIds(siteAdmin, allId)).toEqual(["auth-test-ds-p", "auth-test-ds-q"]);
  });

  it("a snapshot's diff compares it only with an earlier one over the same projects, never another reader's", async () => {
    const filter = { ids: "auth-test-ds-p,auth-test-ds-q" };
    const snapshot = async (creds: Credentials) => {
      const made = await answer(await post(creds, { ...BODY, filter }));
      expect(made.status).toBe(202);
      const id = (made.body.dataset as { id: number }).id;
      await ready(creds, id);
      return (await answer(await getOne(authRequest("GET", `/api/datasets/${id}`, creds), params({ id: String(id) })))).body as { id: number; diff: { previous: number; keys: Record<string, string[]> } | null };
    };
    const first = await snapshot(readIngestKey);
    const everyProject = await snapshot(siteAdmin);
    const second = await snapshot(readIngestKey);
    // the annotator's second snapshot is compared with the annotator's first, not with the newer one of every project
    expect(second.diff?.previous).toBe(first.id);
    expect(JSON.stringify(second.diff)).not.toContain("ds-q");
    expect(everyProject.diff === null || everyProject.diff.previous !== first.id).toBe(true);
  });

  it("a build whose process died (its heartbeat stopped) is failed when anyone looks, and its old job then leaves it", async () => {
    const stale = await prisma().dataset.create({
      data: { name: "dead", filterKey: "dead-build", state: "building", heartbeatAt: new Date(Date.now() - 120_000), request: { body: { ...BODY, filter: {} }, readable: null } },
    });
    const { body } = await answer(await getOne(authRequest("GET", `/api/datasets/${stale.id}`, siteAdmin), params({ id: String(stale.id) })));
    expect(body).toMatchObject({ state: "failed", error: STOPPED_BUILD });
    expect(await buildContext(stale.id)).toBeNull();
    // a build that still beats is left alone
    const alive = await prisma().dataset.create({ data: { name: "alive", filterKey: "alive-build", state: "building", heartbeatAt: new Date(), request: { body: { ...BODY, filter: {} }, readable: null } } });
    expect(await failDeadBuilds()).not.toContain(alive.id);
    await prisma().dataset.deleteMany({ where: { id: { in: [stale.id, alive.id] } } });
  });

  it("an account's snapshots have a quota; its own can be deleted by it or a site admin, by nobody else", async () => {
    // the annotator's own snapshots, made by its session and its key in the tests above
    const mine = await prisma().dataset.findMany({ where: { createdBy: annotatorId, state: "ready" }, select: { id: true, createdBy: true }, orderBy: { id: "asc" } });
    expect(mine.length).toBeGreaterThan(0);
    process.env.BATON_DATASET_QUOTA_MB = "0.000001";
    try {
      const refused = await answer(await post(annotator, { ...BODY, filter: { project: "p" } }));
      expect([refused.status, refused.code]).toEqual([403, "quota_exceeded"]);
      expect(refused.body.error!.message).toContain("BATON_DATASET_QUOTA_MB");
      const theirs = mine.filter((d) => d.createdBy === annotatorId).map((d) => d.id);
      const remove = (creds: Credentials, id: number) => del(authRequest("DELETE", `/api/datasets/${id}`, creds), params({ id: String(id) }));
      expect((await answer(await remove(otherAdmin, theirs[0]!))).status).toBe(403);
      expect((await answer(await remove(annotator, theirs[0]!))).status).toBe(200);
      for (const id of theirs.slice(1)) expect((await answer(await remove(siteAdmin, id))).status).toBe(200);
      expect(await prisma().datasetFile.count({ where: { datasetId: { in: theirs } } })).toBe(0);
      expect((await answer(await post(annotator, { ...BODY, filter: { project: "p" } }))).status).toBe(202);
    } finally {
      delete process.env.BATON_DATASET_QUOTA_MB;
    }
  });

  it("a snapshot whose stored request does not parse is shown to nobody (never a permission decision on a cast value)", async () => {
    const bad = await prisma().dataset.create({ data: { name: "bad", filterKey: "bad-request", state: "ready", request: { body: { name: "x" }, readable: "p" } } });
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect((await answer(await getOne(authRequest("GET", `/api/datasets/${bad.id}`, siteAdmin), params({ id: String(bad.id) })))).status).toBe(404);
      expect(quiet).toHaveBeenCalledWith(expect.stringContaining(`dataset ${bad.id}: its stored request does not parse`));
    } finally {
      quiet.mockRestore();
      await prisma().dataset.delete({ where: { id: bad.id } });
    }
  });

  it("a snapshot whose stored projects do not parse is listed for nobody and never built: the build fails with the reason, logged", async () => {
    // a valid request whose `readable` is a string, not a list: a cast would have read the projects "p" as readable by anyone it covers
    const bad = await prisma().dataset.create({ data: { name: "bad-readable", filterKey: "bad-readable", state: "queued", request: { body: { ...BODY, filter: { project: "p" } }, readable: "p" } } });
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      for (const creds of [siteAdmin, annotator]) {
        const listed = await answer(await list(authRequest("GET", "/api/datasets", creds), none));
        expect(listed.status).toBe(200);
        expect((listed.body as { datasets: { id: number }[] }).datasets.map((d) => d.id)).not.toContain(bad.id);
      }
      expect(await buildContext(bad.id)).toBeNull();
      const row = await prisma().dataset.findUniqueOrThrow({ where: { id: bad.id } });
      expect([row.state, row.error]).toEqual(["failed", UNREADABLE_REQUEST]);
      expect(await prisma().datasetFile.count({ where: { datasetId: bad.id } })).toBe(0);
      expect(quiet).toHaveBeenCalledWith(expect.stringContaining(`dataset ${bad.id}: its stored request does not parse ($.readable:`));
    } finally {
      quiet.mockRestore();
      await prisma().dataset.delete({ where: { id: bad.id } });
    }
  });
});
