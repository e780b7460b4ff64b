import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { prisma } from "@/lib/server/db/client";
import { ApiError } from "@/lib/server/errors";
import { authRequest, cleanAccounts, keyFor, makeUser, signIn, withoutCsrf, type Credentials } from "@/scripts/lib/test-auth";
import { authorize, isOpenMode, type Action } from "./access";
import { revokeApiKey } from "./api-keys";

/** The status authorize answers with: 200 when allowed, else the ApiError's status and code. */
async function outcome(action: Action, creds: Credentials, project?: string, method = "POST"): Promise<string> {
  try {
    const actor = await authorize(authRequest(method, "/api/x", creds), action, project);
    return `200 ${actor.via}`;
  } catch (error) {
    if (error instanceof ApiError) return `${error.status} ${error.code}`;
    throw error;
  }
}

afterEach(async () => {
  delete process.env.BATON_PUBLIC_READ;
  await cleanAccounts();
});

describe("open local mode (no site admin)", () => {
  it("allows every action to anyone, as the local user", async () => {
    await makeUser("viewer", { roles: { p: "viewer" } }); // accounts without an admin do not end open mode
    expect(await isOpenMode()).toBe(true);
    for (const action of ["read", "ingest", "annotate", "admin"] as const) {
      expect(await outcome(action, {}, "p")).toBe("200 open");
    }
    const actor = await authorize(authRequest("DELETE", "/api/x"), "admin");
    expect(actor).toMatchObject({ email: "local@baton.localhost", name: "local", via: "open" });
  });
});

describe("with a site admin", () => {
  beforeEach(async () => {
    await makeUser("root", { isAdmin: true });
  });

  it("anonymous: reads while BATON_PUBLIC_READ is on (the default), 401 for everything else", async () => {
    expect(await isOpenMode()).toBe(false);
    expect(await outcome("read", {}, "p", "GET")).toBe("200 anonymous");
    for (const action of ["ingest", "annotate", "admin"] as const) expect(await outcome(action, {}, "p")).toBe("401 unauthenticated");
    process.env.BATON_PUBLIC_READ = "0";
    expect(await outcome("read", {}, "p", "GET")).toBe("401 unauthenticated");
  });

  it("annotate: viewer 403, annotator and project admin yes (their project only), site admin everywhere", async () => {
    const viewer = await signIn(await makeUser("viewer", { roles: { p: "viewer" } }));
    const annotator = await signIn(await makeUser("annotator", { roles: { p: "annotator", q: "viewer" } }));
    const projectAdmin = await signIn(await makeUser("padmin", { roles: { p: "admin" } }));
    const siteAdmin = await signIn(await makeUser("site", { isAdmin: true }));
    expect(await outcome("annotate", viewer, "p")).toBe("403 forbidden");
    expect(await outcome("annotate", annotator, "p")).toBe("200 session");
    expect(await outcome("annotate", annotator, "q")).toBe("403 forbidden");
    expect(await outcome("annotate", annotator, "elsewhere")).toBe("403 forbidden");
    expect(await outcome("annotate", projectAdmin, "p")).toBe("200 session");
    expect(await outcome("annotate", siteAdmin, "anywhere")).toBe("200 session");
  });

  it("annotate with API keys: an annotate-scoped key yes, other scopes 403, and never beyond the key's user", async () => {
    const annotator = await makeUser("annotator", { roles: { p: "annotator" } });
    const viewer = await makeUser("viewer", { roles: { p: "viewer" } });
    expect(await outcome("annotate", await keyFor(annotator, ["annotate"]), "p")).toBe("200 api_key");
    expect(await outcome("annotate", await keyFor(annotator, ["ingest", "read"]), "p")).toBe("403 forbidden");
    expect(await outcome("annotate", await keyFor(viewer, ["annotate"]), "p")).toBe("403 forbidden");
    expect(await outcome("admin", await keyFor(annotator, ["read", "ingest", "annotate"]), "p")).toBe("403 forbidden");
  });

  it("read with public read off needs a role in the project (or a read-scoped key)", async () => {
    process.env.BATON_PUBLIC_READ = "0";
    const viewer = await makeUser("viewer", { roles: { p: "viewer" } });
    expect(await outcome("read", await signIn(viewer), "p", "GET")).toBe("200 session");
    expect(await outcome("read", await signIn(viewer), "q", "GET")).toBe("403 forbidden");
    expect(await outcome("read", await keyFor(viewer, ["read"]), "p", "GET")).toBe("200 api_key");
    expect(await outcome("read", await keyFor(viewer, ["ingest"]), "p", "GET")).toBe("403 forbidden");
  });

  it("CSRF: a cookie-authenticated write without the token or with a wrong one is 403; reads and Bearer keys need none", async () => {
    const user = await makeUser("annotator", { roles: { p: "annotator" } });
    const session = await signIn(user);
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      expect(await outcome("annotate", withoutCsrf(session), "p", method)).toBe("403 csrf");
      expect(await outcome("annotate", { ...session, csrf: "not-the-token" }, "p", method)).toBe("403 csrf");
    }
    // another session's token is no good either
    expect(await outcome("annotate", { ...session, csrf: (await signIn(user)).csrf }, "p")).toBe("403 csrf");
    expect(await outcome("annotate", session, "p")).toBe("200 session");
    expect(await outcome("read", withoutCsrf(session), "p", "GET")).toBe("200 session");
    expect(await outcome("annotate", await keyFor(user, ["annotate"]), "p")).toBe("200 api_key");
  });

  it("an expired session is no session: 401 on writes, and its row is deleted", async () => {
    const user = await makeUser("annotator", { roles: { p: "annotator" } });
    const session = await signIn(user);
    await prisma().session.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await outcome("annotate", session, "p")).toBe("401 unauthenticated");
    expect(await outcome("read", session, "p", "GET")).toBe("200 anonymous");
    expect(await prisma().session.count({ where: { userId: user.id } })).toBe(0);
  });

  it("a revoked, unknown or malformed key, or the key of a deleted user, is 401", async () => {
    const user = await makeUser("ingester", { roles: { p: "annotator" } });
    const key = await keyFor(user, ["ingest"]);
    expect(await outcome("ingest", key, "p")).toBe("200 api_key");
    await revokeApiKey(key.id);
    expect(await outcome("ingest", key, "p")).toBe("401 unauthenticated");
    expect(await outcome("read", key, "p", "GET")).toBe("401 unauthenticated");
    expect(await outcome("ingest", { bearer: `baton_${"A".repeat(43)}` }, "p")).toBe("401 unauthenticated");
    expect(await outcome("ingest", { bearer: "not-a-key" }, "p")).toBe("401 unauthenticated");
    const other = await keyFor(user, ["ingest"]);
    await prisma().user.delete({ where: { id: user.id } });
    expect(await outcome("ingest", other, "p")).toBe("401 unauthenticated");
  });

  it("records when a key was last used", async () => {
    const user = await makeUser("ingester", { roles: { p: "annotator" } });
    const key = await keyFor(user, ["ingest"]);
    await outcome("ingest", key, "p");
    expect((await prisma().apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt).toBeInstanceOf(Date);
  });
});
