import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "@/lib/server/db/client";
import { answer, authRequest, cleanAccounts, type Credentials } from "@/scripts/lib/test-auth";
import { ACTORS, appFiles, makeFixtures, routePath, type Fixtures } from "@/scripts/lib/test-matrix";
import { PAGES, ROUTES, type Call } from "@/scripts/lib/test-matrix-table";
import { describeSession } from "./session-view";
import { readableForSession, requireProjectAdminFor, requireProjectAdminOfFor, requireReadFor, requireTraceReadFor } from "./page-access";

/**
 * Every route handler under app/api and every page under app, against every
 * kind of caller, with BATON_PUBLIC_READ=0 and =1 (docs/api.md "Accounts and
 * access"). The route list comes from the file system: a new route or page
 * without a row in read-matrix.table.ts fails here.
 */
// judge routes here only create and read runs; no worker of this process takes their units
process.env.BATON_JUDGE_WORKER = "0";

let fx: Fixtures;

beforeAll(async () => {
  await cleanAccounts();
  fx = await makeFixtures();
});
afterAll(async () => {
  delete process.env.BATON_PUBLIC_READ;
  await prisma().queue.deleteMany({ where: { name: { startsWith: "auth-test-" } } });
  await prisma().judge.deleteMany({ where: { name: { startsWith: "auth-test-" } } });
  await cleanAccounts();
});

const HANDLER_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

describe("every route and page has a row", () => {
  it("route.ts handlers", async () => {
    const exported: string[] = [];
    for (const file of appFiles("route.ts")) {
      const mod = (await import(`@/${file.replace(/\.ts$/, "")}`)) as Record<string, unknown>;
      for (const method of HANDLER_METHODS) if (typeof mod[method] === "function") exported.push(`${method} ${routePath(file)}`);
    }
    const covered = new Set(ROUTES.map((r) => r.route));
    expect(exported.filter((r) => !covered.has(r)), "routes without a matrix row").toEqual([]);
    expect([...covered].filter((r) => !exported.includes(r)), "rows for routes that do not exist").toEqual([]);
  });

  it("page.tsx files, each calling the guard its row names", () => {
    const files = [...appFiles("page.tsx"), ...appFiles("page.bench.tsx")];
    const pages = files.map(routePath);
    expect(pages.filter((p) => !(p in PAGES)), "pages without a matrix row").toEqual([]);
    for (const [page, kind] of Object.entries(PAGES)) {
      const file = files.find((f) => routePath(f) === page)!;
      const source = readFileSync(file, "utf8");
      const guard = { trace: "requirePageRead(", queue: "requirePageRead(", list: "pageReadableProjects(", "project-admin": "requirePageProjectAdmin(", "project-admin-of": "requirePageProjectAdminOf(", "site-admin": "session.user.is_admin", public: null }[kind];
      if (guard === null) expect([page, /@\/lib\/server\/(db|queries|queues|compute)/.test(source)], "a public page reads no data").toEqual([page, false]);
      else expect([page, source.includes(guard)]).toEqual([page, true]);
    }
    // a trace's pages (graph, label, heatmap) answer in their layout, before the graph's loading boundary streams a 200
    expect(readFileSync("app/traces/[id]/layout.tsx", "utf8")).toContain("requireTracePageRead(");
  });
});

async function statusOf(call: Call, creds: Credentials, unknown: boolean): Promise<string> {
  const response = await call(fx, creds, unknown);
  const status = response.status;
  const text = await response.text();
  if (status >= 500) return `${status} ${text.slice(0, 200)}`;
  if (status === 404 || status === 401 || status === 403 || status === 413 || status === 415) return String(status);
  // "pass": past the access policy; the handler answered for its own reasons (a 2xx, a 409 on an item not reserved, ...)
  return status < 300 ? String(status) : "pass";
}

for (const publicRead of ["0", "1"] as const) {
  describe(`routes with BATON_PUBLIC_READ=${publicRead}`, () => {
    beforeAll(() => {
      process.env.BATON_PUBLIC_READ = publicRead;
    });

    for (const row of ROUTES) {
      it(`${row.route}${row.variant ?? ""}`, async () => {
        const got: string[] = [];
        for (const actor of ACTORS) got.push(await statusOf(row.call, fx.actors[actor], false));
        const want = (typeof row.expect === "string" ? row.expect : row.expect[publicRead]).split(" ");
        expect(got.map((g, i) => (want[i] === "pass" && /^(2\d\d|pass)$/.test(g) ? "pass" : g)).join(" ")).toBe(want.join(" "));
        if (row.idRoute) {
          // an unknown id answers exactly like a thing the caller may not read
          const unknown: string[] = [];
          for (const actor of ACTORS) unknown.push(await statusOf(row.call, fx.actors[actor], true));
          expect(unknown.join(" ")).toBe("404 404 404 404 404 404 404 401 401");
        }
      });
    }
  });
}

describe("lists show only the projects a caller may read", () => {
  it("traces, queues, metrics, with BATON_PUBLIC_READ=0", async () => {
    process.env.BATON_PUBLIC_READ = "0";
    const { GET: traces } = await import("@/app/api/traces/route");
    const { GET: queues } = await import("@/app/api/queues/route");
    const none = { params: Promise.resolve({}) };
    const seen = async (creds: Credentials) => ({
      trace: ((await answer(await traces(authRequest("GET", `/api/traces?q=${fx.traceId}`, creds), none))).body.traces as { trace_id: string }[]).some((t) => t.trace_id === fx.traceId),
      queue: ((await answer(await queues(authRequest("GET", "/api/queues", creds), none))).body.queues as { id: number }[]).some((q) => q.id === fx.queueId),
    });
    expect(await seen(fx.actors.other)).toEqual({ trace: false, queue: false });
    expect(await seen(fx.actors.viewer)).toEqual({ trace: true, queue: true });
    expect(await seen(fx.actors.siteadmin)).toEqual({ trace: true, queue: true });
  });
});

/** What a page guard does for a visitor: "ok", "signin" (redirect to sign in), "404", or the list of readable projects. */
async function pageOutcome(run: () => unknown): Promise<string> {
  try {
    const value = await run();
    return value === undefined ? "ok" : value === null ? "all" : JSON.stringify(value);
  } catch (error) {
    const digest = String((error as { digest?: string }).digest ?? error);
    if (digest.startsWith("NEXT_REDIRECT") && digest.includes("/signin")) return "signin";
    if (digest.startsWith("NEXT_HTTP_ERROR_FALLBACK;404")) return "404";
    throw error;
  }
}

describe("page guards, for visitors with a session cookie (pages never take API keys)", () => {
  const visitors = ["anonymous", "other", "viewer", "annotator", "padmin", "siteadmin"] as const;
  const sessions = async () => Promise.all(visitors.map((v) => describeSession(/baton_session=([^;]+)/.exec(fx.actors[v].cookie ?? "")?.[1])));

  it.each([
    ["0", "signin 404 ok ok ok ok", "signin 404 404 404 404 404", 'signin ["q"] ["p"] ["p"] ["p"] all'],
    ["1", "ok ok ok ok ok ok", "404 404 404 404 404 404", "all all all all all all"],
  ])("BATON_PUBLIC_READ=%s: a trace or queue of p, an unknown one, the lists", async (publicRead, known, unknown, lists) => {
    process.env.BATON_PUBLIC_READ = publicRead;
    const all = await sessions();
    const outcomes = async (run: (s: (typeof all)[number]) => unknown) => (await Promise.all(all.map((s) => pageOutcome(() => run(s))))).join(" ");
    expect(await outcomes((s) => requireReadFor(s, "/traces/x", "p"))).toBe(known);
    expect(await outcomes((s) => requireReadFor(s, "/traces/x", null))).toBe(unknown);
    expect(await outcomes((s) => readableForSession(s, "/"))).toBe(lists);
    expect(await outcomes((s) => requireProjectAdminFor(s, "/queues/new"))).toBe("signin ok 404 404 ok ok");
    // a judge run of p: p's admins and site admins only; an unknown run alike for everyone who signed in
    expect(await outcomes((s) => requireProjectAdminOfFor(s, "/judges/runs/1", "p"))).toBe("signin 404 404 404 ok ok");
    expect(await outcomes((s) => requireProjectAdminOfFor(s, "/judges/runs/1", null))).toBe("signin 404 404 404 404 404");
    // the trace pages' layout, with the real lookup: a private trace answers like an unknown id, a malformed or NUL id too
    expect(await outcomes((s) => requireTraceReadFor(s, "/traces/x", fx.traceId))).toBe(known);
    for (const id of [`${fx.traceId}-unknown`, null, "a\u0000b"]) expect(await outcomes((s) => requireTraceReadFor(s, "/traces/x", id))).toBe(unknown);
  });
});
