import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { appFiles, routePath } from "../scripts/lib/app-files";
import { apiSignIn, cleanUp, freshSetupPath, PASSWORD } from "./lib/accounts";
import { privatePort } from "./lib/servers";

/**
 * Every page over HTTP, on the second e2e server (the same build and
 * database with BATON_PUBLIC_READ=0): a trace, a queue, a group and a
 * project that a visitor may not read answer exactly as unknown ones do
 * (status and redirect), and no page shows their names to that visitor.
 * The site admin's answers prove that the private things exist.
 */
const stamp = Date.now();
const suffix = `-pa${stamp}@example.test`;
const admin = { email: `admin${suffix}`, name: "Access Admin" };
const other = { email: `other${suffix}`, name: "Other Project Annotator" };
const project = `e2e-private-${stamp}`;
const traceId = `e2e-private-trace-${stamp}`;
const taskId = `e2e-private-task-${stamp}`;
const groupId = `e2e-private-group-${stamp}`;
const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as object;

test.describe.configure({ mode: "serial" });
test.use({ baseURL: `http://127.0.0.1:${privatePort}` });

interface Ids {
  trace: string;
  queue: string;
  group: string;
  project: string;
  run: string;
}

/** Pages that name one thing, as a URL for given ids. */
const ID_PAGES: Record<string, (ids: Ids) => string> = {
  "/traces/[id]": (i) => `/traces/${i.trace}`,
  "/traces/[id]/graph": (i) => `/traces/${i.trace}/graph`,
  "/traces/[id]/heatmap": (i) => `/traces/${i.trace}/heatmap`,
  "/traces/[id]/label": (i) => `/traces/${i.trace}/label`,
  "/compare": (i) => `/compare?a=${i.trace}&b=${i.trace}`,
  "/queues/[id]": (i) => `/queues/${i.queue}`,
  "/queues/[id]/work": (i) => `/queues/${i.queue}/work`,
  "/queues/[id]/adjudicate": (i) => `/queues/${i.queue}/adjudicate`,
  "/groups/[id]": (i) => `/groups/${i.group}`,
  "/judges/runs/[id]": (i) => `/judges/runs/${i.run}`,
  "/rubrics": (i) => `/rubrics?project=${i.project}`,
};
/** Pages that list what the visitor may read, or read nothing of a project. */
const OTHER_PAGES: Record<string, string> = {
  "/": "/", "/dashboard": "/dashboard", "/decisions": "/decisions", "/heatmaps": "/heatmaps", "/attribution": "/attribution",
  "/datasets": "/datasets", "/queues": "/queues", "/queues/new": "/queues/new", "/admin": "/admin", "/judges": "/judges",
  "/docs": "/docs", "/docs/[name]": "/docs/api", "/present": "/present", "/upload": "/upload", "/setup": "/setup", "/signin": "/signin",
  "/traces": "/traces",
};

let adminApi: APIRequestContext;
let otherApi: APIRequestContext;
let anonymousApi: APIRequestContext;
let queueId = "";
let runId = "";

test.beforeAll(async ({ playwright }) => {
  const baseURL = `http://127.0.0.1:${privatePort}`;
  adminApi = await playwright.request.newContext({ baseURL });
  otherApi = await playwright.request.newContext({ baseURL });
  anonymousApi = await playwright.request.newContext({ baseURL });
  const token = new URL(freshSetupPath(), "http://x").searchParams.get("token")!;
  expect((await adminApi.post("/api/auth/setup", { data: { token, email: admin.email, name: admin.name, password: PASSWORD } })).ok()).toBe(true);
  const headers = await apiSignIn(adminApi, admin.email);
  expect((await adminApi.post("/api/admin/users", { headers, data: { ...other, password: PASSWORD, memberships: [{ project: "default", role: "annotator" }] } })).status()).toBe(201);
  await apiSignIn(otherApi, other.email);
  expect((await adminApi.post("/api/traces", { headers, data: { ...example, trace_id: traceId, task_id: taskId, group_id: groupId, project } })).status()).toBe(201);
  const queue = await adminApi.post("/api/queues", { headers, data: { project, name: `private queue ${stamp}`, families: ["step_quality"], annotators_per_item: 1, assignees: [admin.email], filter: { trace_ids: [traceId] } } });
  expect(queue.status()).toBe(201);
  queueId = String(((await queue.json()) as { queue: { id: number } }).queue.id);
  // a judge run of the private project (its endpoint answers nothing: the run's units fail, the page still shows them)
  const judge = await adminApi.post("/api/judges", { headers, data: { project, name: `private judge ${stamp}`, base_url: "http://127.0.0.1:9/v1", model: "none", families: ["step_quality"] } });
  expect(judge.status(), await judge.text()).toBe(201);
  const judgeId = ((await judge.json()) as { judge: { id: number } }).judge.id;
  const run = await adminApi.post(`/api/judges/${judgeId}/runs`, { headers, data: { filter: { trace_ids: [traceId] } } });
  expect(run.status(), await run.text()).toBe(201);
  runId = String(((await run.json()) as { run: { id: number } }).run.id);
});

test.afterAll(async () => {
  await cleanUp(adminApi, admin.email, suffix, [traceId]);
  expect(((await (await anonymousApi.get("/api/auth/session")).json()) as { open_mode: boolean }).open_mode).toBe(true);
  await Promise.all([adminApi, otherApi, anonymousApi].map((c) => c.dispose()));
});

/** Status and redirect target of a page, without following it; the private names replaced by the unknown ones. */
async function answer(api: APIRequestContext, url: string, ids: Ids): Promise<{ said: string; body: string }> {
  const response = await api.get(url, { maxRedirects: 0 });
  const location = response.headers().location ?? "";
  let target = decodeURIComponent(location.replace(/^https?:\/\/[^/]+/, ""));
  // a name as a whole path segment or parameter value
  // queue and run ids are both numbers (and may be equal): one placeholder for either
  for (const [key, value] of Object.entries(ids) as [keyof Ids, string][]) target = target.replace(new RegExp(`(?<=[/=])${value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?=$|[/&?#])`, "g"), key === "queue" || key === "run" ? "<number>" : `<${key}>`);
  return { said: `${response.status()} ${target}`, body: await response.text() };
}

test("every page is in this table", () => {
  const listed = new Set([...Object.keys(ID_PAGES), ...Object.keys(OTHER_PAGES)]);
  expect(appFiles("page.tsx").map(routePath).filter((p) => !listed.has(p)), "pages missing here").toEqual([]);
});

test("a private trace, queue, group or project answers like an unknown one, to anonymous visitors and members of other projects", async () => {
  const known: Ids = { trace: traceId, queue: queueId, group: groupId, project, run: runId };
  const unknown: Ids = { trace: `e2e-unknown-${stamp}`, queue: "999999999", group: `e2e-unknown-group-${stamp}`, project: `e2e-unknown-project-${stamp}`, run: "999999998" };
  const seen: string[] = [];
  for (const [page, url] of Object.entries(ID_PAGES)) {
    // the site admin reads it: the private thing is real
    const forAdmin = await answer(adminApi, url(known), known);
    expect([page, forAdmin.said]).toEqual([page, "200 "]);
    for (const [visitor, api] of [["anonymous", anonymousApi], ["other", otherApi]] as const) {
      const privately = await answer(api, url(known), known);
      const missing = await answer(api, url(unknown), unknown);
      seen.push(`${visitor} ${page}: ${privately.said}`);
      expect([visitor, page, privately.said]).toEqual([visitor, page, missing.said]);
      expect(Number(privately.said.slice(0, 3))).toBeLessThan(500);
      // what the visitor typed comes back (in the sign-in link); nothing else of the private thing may
      for (const name of [traceId, taskId, project, `private queue ${stamp}`, `private judge ${stamp}`].filter((n) => !url(known).includes(n))) expect([visitor, page, privately.body.includes(name)]).toEqual([visitor, page, false]);
    }
  }
  // anonymous visitors are sent to sign in, members of other projects get the 404 of an unknown id
  expect(seen.filter((s) => s.startsWith("anonymous")).every((s) => /: 307 \/signin/.test(s))).toBe(true);
  expect(seen.filter((s) => s.startsWith("other") && !s.includes("/rubrics")).every((s) => s.endsWith(": 404 "))).toBe(true);
});

test("no other page shows the private project's names to a visitor who may not read it", async () => {
  const names = [traceId, taskId, groupId, project];
  expect(await (await adminApi.get("/")).text()).toContain(traceId);
  for (const [page, url] of Object.entries(OTHER_PAGES)) {
    for (const [visitor, api] of [["anonymous", anonymousApi], ["other", otherApi]] as const) {
      const response = await api.get(url, { maxRedirects: 0 });
      expect([visitor, page, response.status() < 500]).toEqual([visitor, page, true]);
      const body = await response.text();
      for (const name of names) expect([visitor, page, name, body.includes(name)]).toEqual([visitor, page, name, false]);
    }
  }
});
