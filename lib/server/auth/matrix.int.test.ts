import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DELETE as deleteKey } from "@/app/api/admin/keys/[id]/route";
import { GET as listKeys, POST as createKey } from "@/app/api/admin/keys/route";
import { DELETE as deleteUser, PATCH as patchUser } from "@/app/api/admin/users/[id]/route";
import { GET as listUsers, POST as createUser } from "@/app/api/admin/users/route";
import { POST as createPreset } from "@/app/api/presets/route";
import { POST as annotate } from "@/app/api/traces/[id]/annotations/route";
import { POST as createInterventions } from "@/app/api/traces/[id]/interventions/route";
import { POST as createReplays } from "@/app/api/traces/[id]/replays/route";
import { DELETE as deleteTrace } from "@/app/api/traces/[id]/route";
import { POST as ingest } from "@/app/api/traces/route";
import { FAMILIES } from "@/lib/trace/types";
import { prisma } from "@/lib/server/db/client";
import { params } from "@/scripts/lib/test-http";
import {
  answer, authRequest, cleanAccounts, exampleTrace, keyFor, makeUser, signIn, TEST_DOMAIN, TRACE_PREFIX, withoutCsrf, type Credentials,
} from "@/scripts/lib/test-auth";
import { isOpenMode } from "./access";

/**
 * The authorization matrix of docs/api.md on every mutating route: no
 * credentials 401; a role or key scope that does not allow it 403; a
 * cookie-authenticated write without the CSRF token 403.
 */
const none = params({});
const weights = Object.fromEntries(FAMILIES.map((f) => [f, 0.5]));
let presetCount = 0;

type Call = (creds: Credentials) => Promise<Response>;
const calls = {
  ingest: (project: string): Call => (creds) => ingest(authRequest("POST", "/api/traces", creds, exampleTrace(`ingest-${++presetCount}`, project)), none),
  preset: (): Call => (creds) => createPreset(authRequest("POST", "/api/presets", creds, { name: `${TRACE_PREFIX}${++presetCount}`, weights }), none),
  deleteTrace: (id: string): Call => (creds) => deleteTrace(authRequest("DELETE", `/api/traces/${id}`, creds), params({ id })),
  annotate: (id: string): Call => (creds) => annotate(authRequest("POST", `/api/traces/${id}/annotations`, creds, { family: "task_success", value: 1 }), params({ id })),
};
const status = async (call: Call, creds: Credentials) => {
  const { status: s, code } = await answer(await call(creds));
  return code ? `${s} ${code}` : String(s);
};

async function storeTrace(name: string, project: string): Promise<string> {
  const trace = exampleTrace(name, project);
  const response = await ingest(authRequest("POST", "/api/traces", { bearer: (await keyFor(await makeUser("loader", { isAdmin: true }), ["ingest"])).bearer }, trace), none);
  expect(response.status).toBe(201);
  return trace.trace_id as string;
}

afterEach(cleanAccounts);

describe("open local mode: everything is allowed, without credentials", () => {
  it("ingests, creates presets, annotates and deletes traces", async () => {
    expect(await isOpenMode()).toBe(true);
    const id = exampleTrace("open").trace_id as string;
    expect((await ingest(authRequest("POST", "/api/traces", {}, exampleTrace("open")), none)).status).toBe(201);
    expect(await status(calls.preset(), {})).toBe("201");
    expect(await status(calls.annotate(id), {})).toBe("201");
    expect(await status(calls.deleteTrace(id), {})).toBe("200");
    // users and keys wait for the first admin (the setup link)
    expect(await answer(await listUsers(authRequest("GET", "/api/admin/users"), none))).toMatchObject({ status: 403, code: "open_mode" });
  });
});

describe("with a site admin", () => {
  let viewer: Credentials, annotator: Credentials, projectAdmin: Credentials, siteAdmin: Credentials, otherAdmin: Credentials;
  let keys: Record<"ingest" | "read" | "annotate", Credentials>;

  beforeEach(async () => {
    const root = await makeUser("root", { isAdmin: true });
    siteAdmin = await signIn(root);
    viewer = await signIn(await makeUser("viewer", { roles: { p: "viewer" } }));
    annotator = await signIn(await makeUser("annotator", { roles: { p: "annotator", default: "annotator" } }));
    projectAdmin = await signIn(await makeUser("padmin", { roles: { p: "admin", default: "viewer" } }));
    otherAdmin = await signIn(await makeUser("qadmin", { roles: { q: "admin" } }));
    keys = {
      ingest: await keyFor(root, ["ingest"]),
      read: await keyFor(root, ["read"]),
      annotate: await keyFor(root, ["annotate"]),
    };
  });

  it("POST /api/traces: 401 / viewer 403 / no CSRF 403 / annotator 201 / ingest key 201 / other key 403", async () => {
    const call = calls.ingest("default");
    expect(await status(call, {})).toBe("401 unauthenticated");
    expect(await status(call, viewer)).toBe("403 forbidden");
    expect(await status(call, projectAdmin)).toBe("403 forbidden"); // a viewer in "default"
    expect(await status(call, withoutCsrf(annotator))).toBe("403 csrf");
    expect(await status(call, annotator)).toBe("201");
    expect(await status(call, keys.ingest)).toBe("201");
    expect(await status(call, keys.read)).toBe("403 forbidden");
    expect(await status(call, keys.annotate)).toBe("403 forbidden");
    expect(await status(call, siteAdmin)).toBe("201");
  });

  it("POST /api/presets: admin only (project admin somewhere, or site admin); keys never", async () => {
    const call = calls.preset();
    expect(await status(call, {})).toBe("401 unauthenticated");
    expect(await status(call, viewer)).toBe("403 forbidden");
    expect(await status(call, annotator)).toBe("403 forbidden");
    expect(await status(call, withoutCsrf(projectAdmin))).toBe("403 csrf");
    expect(await status(call, projectAdmin)).toBe("201");
    expect(await status(call, siteAdmin)).toBe("201");
    for (const key of Object.values(keys)) expect(await status(call, key)).toBe("403 forbidden");
  });

  it("DELETE /api/traces/{id}: admin of the trace's project; the trace, its annotations and adjudications go", async () => {
    const id = await storeTrace("del", "p");
    expect(await status(calls.annotate(id), annotator)).toBe("201");
    await prisma().adjudication.create({ data: { traceKey: id, family: "task_success", value: 1, adjudicatorId: 1 } });
    const call = calls.deleteTrace(id);
    expect(await status(call, {})).toBe("401 unauthenticated");
    expect(await status(call, viewer)).toBe("403 forbidden");
    expect(await status(call, annotator)).toBe("403 forbidden");
    expect(await status(call, otherAdmin)).toBe("403 forbidden");
    for (const key of Object.values(keys)) expect(await status(call, key)).toBe("403 forbidden");
    expect(await status(call, withoutCsrf(projectAdmin))).toBe("403 csrf");
    const deleted = await answer(await call(projectAdmin));
    expect(deleted).toMatchObject({ status: 200, body: { deleted: { trace_id: id, annotations: 1 } } });
    expect(await prisma().trace.count({ where: { traceId: id } })).toBe(0);
    expect(await prisma().annotation.count({ where: { traceKey: id } })).toBe(0);
    expect(await prisma().adjudication.count({ where: { traceKey: id } })).toBe(0);
    // an unknown id: 404 for everyone (and a trace the caller may not read is the same 404: read-matrix.int.test.ts)
    expect(await status(call, siteAdmin)).toBe("404 not_found");
    expect(await status(call, projectAdmin)).toBe("404 not_found");
    expect(await status(call, annotator)).toBe("404 not_found");
  });

  it("POST /api/traces/{id}/annotations: viewer 403, annotator 201, annotate key 201, other keys 403, no CSRF 403", async () => {
    const id = await storeTrace("ann", "p");
    const call = calls.annotate(id);
    expect(await status(call, {})).toBe("401 unauthenticated");
    expect(await status(call, viewer)).toBe("403 forbidden");
    expect(await status(call, otherAdmin)).toBe("403 forbidden");
    expect(await status(call, withoutCsrf(annotator))).toBe("403 csrf");
    expect(await status(call, annotator)).toBe("201");
    expect(await status(call, keys.annotate)).toBe("201");
    expect(await status(call, keys.ingest)).toBe("403 forbidden");
    expect(await status(call, keys.read)).toBe("403 forbidden");
  });

  it("replays and interventions need read and ingest in the trace's project: an annotator (who may ingest) gets past access to the trace having no calls; a viewer or a read key 403, an ingest key alone cannot see the trace (404)", async () => {
    const id = await storeTrace("replay", "p");
    const body = { call_id: "call-1", edit: { reply: { content: "fixed" } } };
    // past access, what the annotator hears is about the trace: no recorded calls to replay, no call `call-1` to change
    const routes: [string, Call, string][] = [
      ["POST replays", (c) => createReplays(authRequest("POST", `/api/traces/${id}/replays`, c, {}), params({ id })), "422 no_calls"],
      ["POST interventions", (c) => createInterventions(authRequest("POST", `/api/traces/${id}/interventions`, c, body), params({ id })), "400 invalid_input"],
    ];
    for (const [, call, pastAccess] of routes) {
      const got = [await status(call, {}), await status(call, viewer), await status(call, annotator), await status(call, otherAdmin), await status(call, keys.read), await status(call, keys.ingest)];
      expect(got).toEqual(["401 unauthenticated", "403 forbidden", pastAccess, "403 forbidden", "403 forbidden", "404 not_found"]);
    }
  });

  it("admin routes: site admins only (with the CSRF token on writes); annotators, project admins and keys 403", async () => {
    const target = await makeUser("target", { roles: { p: "viewer" } });
    const key = await keyFor(target, ["read"]);
    const routes: [string, Call][] = [
      ["GET users", (c) => listUsers(authRequest("GET", "/api/admin/users", c), none)],
      ["POST users", (c) => createUser(authRequest("POST", "/api/admin/users", c, { email: `new-${++presetCount}@${TEST_DOMAIN}`, name: "New", password: "long enough" }), none)],
      ["PATCH user", (c) => patchUser(authRequest("PATCH", `/api/admin/users/${target.id}`, c, { name: "Renamed" }), params({ id: String(target.id) }))],
      ["GET keys", (c) => listKeys(authRequest("GET", "/api/admin/keys", c), none)],
      ["POST keys", (c) => createKey(authRequest("POST", "/api/admin/keys", c, { name: "k", scopes: ["read"] }), none)],
      ["DELETE key", (c) => deleteKey(authRequest("DELETE", `/api/admin/keys/${key.id}`, c), params({ id: String(key.id) }))],
      ["DELETE user", (c) => deleteUser(authRequest("DELETE", `/api/admin/users/${target.id}`, c), params({ id: String(target.id) }))],
    ];
    for (const [name, call] of routes) {
      const row = [name, await status(call, {}), await status(call, annotator), await status(call, projectAdmin), await status(call, keys.ingest)];
      expect(row).toEqual([name, "401 unauthenticated", "403 forbidden", "403 forbidden", "403 forbidden"]);
      if (!name.startsWith("GET")) expect([name, await status(call, withoutCsrf(siteAdmin))]).toEqual([name, "403 csrf"]);
      expect([name, await status(call, siteAdmin)]).toEqual([name, name.startsWith("POST") ? "201" : "200"]);
    }
  });
});

describe("admin routes at work", () => {
  let admin: Credentials & { id: number };

  beforeEach(async () => {
    const root = await makeUser("root", { isAdmin: true });
    admin = { ...(await signIn(root)), id: root.id };
  });

  it("creates a user with roles who can then sign in and act; PATCH replaces the roles", async () => {
    const email = `ann@${TEST_DOMAIN}`;
    const created = await answer(await createUser(authRequest("POST", "/api/admin/users", admin, { email, name: "Ann", password: "long enough", memberships: [{ project: "p", role: "viewer" }] }), none));
    expect(created).toMatchObject({ status: 201, body: { user: { email, is_admin: false, memberships: [{ project: "p", role: "viewer" }] } } });
    const id = (created.body.user as { id: number }).id;
    expect(JSON.stringify(created.body)).not.toContain("long enough");
    const dup = await answer(await createUser(authRequest("POST", "/api/admin/users", admin, { email, name: "Ann", password: "long enough" }), none));
    expect([dup.status, dup.code]).toEqual([409, "conflict"]);

    const trace = await storeTrace("roles", "p");
    const ann = await signIn({ id });
    expect(await status(calls.annotate(trace), ann)).toBe("403 forbidden");
    const patched = await answer(await patchUser(authRequest("PATCH", `/api/admin/users/${id}`, admin, { memberships: [{ project: "p", role: "annotator" }, { project: "new-project", role: "viewer" }] }), params({ id: String(id) })));
    expect(patched.body.user).toMatchObject({ memberships: [{ project: "new-project", role: "viewer" }, { project: "p", role: "annotator" }] });
    expect(await status(calls.annotate(trace), ann)).toBe("201");

    const bad = await answer(await patchUser(authRequest("PATCH", `/api/admin/users/${id}`, admin, { memberships: [{ project: "p", role: "owner" }] }), params({ id: String(id) })));
    expect([bad.status, bad.body.error?.details[0]?.path]).toEqual([400, "$.memberships[0].role"]);
    expect((await answer(await patchUser(authRequest("PATCH", "/api/admin/users/999999", admin, { name: "x" }), params({ id: "999999" })))).status).toBe(404);
    expect((await answer(await patchUser(authRequest("PATCH", "/api/admin/users/abc", admin, { name: "x" }), params({ id: "abc" })))).status).toBe(404);
  });

  it("a new password ends the user's sessions; the last site admin cannot be demoted, only deleted (back to open mode)", async () => {
    const other = await makeUser("other", { roles: { p: "viewer" } });
    const session = await signIn(other);
    await patchUser(authRequest("PATCH", `/api/admin/users/${other.id}`, admin, { password: "a new password" }), params({ id: String(other.id) }));
    expect(await prisma().session.count({ where: { userId: other.id } })).toBe(0);
    expect(session.cookie).toBeTruthy();

    const demote = await answer(await patchUser(authRequest("PATCH", `/api/admin/users/${admin.id}`, admin, { is_admin: false }), params({ id: String(admin.id) })));
    expect([demote.status, demote.code]).toEqual([409, "conflict"]);
    const gone = await deleteUser(authRequest("DELETE", `/api/admin/users/${admin.id}`, admin), params({ id: String(admin.id) }));
    expect(await answer(gone)).toMatchObject({ status: 200, body: { deleted: admin.id, open_mode: true } });
    expect(gone.headers.getSetCookie().some((c) => c.startsWith("baton_session=;"))).toBe(true);
    expect(await isOpenMode()).toBe(true);
  });

  it("API keys: shown once, stored hashed, work as Bearer within their scopes, and stop at once when revoked", async () => {
    const created = await answer(await createKey(authRequest("POST", "/api/admin/keys", admin, { name: "nightly", scopes: ["ingest"] }), none));
    expect(created.status).toBe(201);
    const key = created.body.key as string;
    const info = created.body.api_key as { id: number; prefix: string; scopes: string[]; user_id: number };
    expect(key).toMatch(/^baton_/);
    expect(info).toMatchObject({ prefix: key.slice(0, 12), scopes: ["ingest"], user_id: admin.id });
    const listed = JSON.stringify((await answer(await listKeys(authRequest("GET", "/api/admin/keys", admin), none))).body);
    expect(listed).toContain(info.prefix);
    expect(listed).not.toContain(key);
    expect(await prisma().apiKey.count({ where: { keyHash: key } })).toBe(0);

    expect(await status(calls.ingest("anything"), { bearer: key })).toBe("201");
    expect(await status(calls.preset(), { bearer: key })).toBe("403 forbidden");
    const revoked = await answer(await deleteKey(authRequest("DELETE", `/api/admin/keys/${info.id}`, admin), params({ id: String(info.id) })));
    expect(revoked.body.api_key).toMatchObject({ id: info.id });
    expect(Date.parse((revoked.body.api_key as { revoked_at: string }).revoked_at)).toBeLessThanOrEqual(Date.now());
    expect(await status(calls.ingest("anything"), { bearer: key })).toBe("401 unauthenticated");
    expect((await answer(await deleteKey(authRequest("DELETE", "/api/admin/keys/424242", admin), params({ id: "424242" })))).status).toBe(404);
    const noScope = await answer(await createKey(authRequest("POST", "/api/admin/keys", admin, { name: "k", scopes: ["admin"] }), none));
    expect([noScope.status, noScope.body.error?.details[0]?.path]).toEqual([400, "$.scopes[0]"]);
  });
});
