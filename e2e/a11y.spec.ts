import AxeBuilder from "@axe-core/playwright";
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { appFiles, routePath } from "../scripts/lib/app-files";
import { freshSetupPath } from "./lib/accounts";
/** components/meeting/theme.ts THEME_STORAGE_KEY */
const THEME_STORAGE_KEY = "baton.theme";
const TRACE = "taubench-gpt-4o-airline-task0-trial0";
const DEMO = "demo-research-na-ion-vs-lfp";

const stamp = Date.now();
/** A project of this spec's own: a trace with a group, a queue over it and a judge run of it (their pages need them). */
const project = `e2e-a11y-${stamp}`;
const OWN_TRACE = `e2e-a11y-trace-${stamp}`;
const OWN_GROUP = `e2e-a11y-group-${stamp}`;
const own = { queue: "", run: "", setup: "" };

/** `ready`: waited for instead of network idle (the graph's worker and the presenter's frame keep fetching). */
const graphReady = (p: Page) => expect(p.getByTestId("graph-canvas")).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
/** Every page of the interface (its route, and the URL checked), each waited for until it has drawn what it loads. */
const PAGES: { route: string; path: () => string; ready?: (page: Page) => Promise<unknown> }[] = [
  { route: "/", path: () => "/" },
  { route: "/", path: () => "/?text=%22975+Sunset+Drive%22" },
  // redirects to the trace list
  { route: "/traces", path: () => "/traces" },
  { route: "/traces/[id]", path: () => `/traces/${TRACE}` },
  { route: "/traces/[id]/graph", path: () => `/traces/${DEMO}/graph?ov=stop`, ready: graphReady },
  { route: "/traces/[id]/heatmap", path: () => `/traces/${DEMO}/heatmap` },
  { route: "/traces/[id]/label", path: () => `/traces/${DEMO}/label` },
  { route: "/heatmaps", path: () => "/heatmaps" },
  { route: "/attribution", path: () => "/attribution" },
  { route: "/dashboard", path: () => "/dashboard" },
  { route: "/decisions", path: () => "/decisions" },
  { route: "/groups/[id]", path: () => `/groups/${OWN_GROUP}` },
  { route: "/datasets", path: () => "/datasets" },
  { route: "/queues", path: () => "/queues" },
  { route: "/queues/new", path: () => "/queues/new" },
  { route: "/queues/[id]", path: () => `/queues/${own.queue}` },
  { route: "/queues/[id]/work", path: () => `/queues/${own.queue}/work` },
  { route: "/queues/[id]/adjudicate", path: () => `/queues/${own.queue}/adjudicate` },
  { route: "/compare", path: () => `/compare?a=${TRACE}&b=taubench-gpt-4o-airline-task0-trial1` },
  { route: "/judges", path: () => "/judges" },
  { route: "/judges/runs/[id]", path: () => `/judges/runs/${own.run}` },
  { route: "/rubrics", path: () => "/rubrics" },
  { route: "/docs", path: () => "/docs" },
  { route: "/docs/[name]", path: () => "/docs/metrics" },
  { route: "/upload", path: () => "/upload" },
  { route: "/admin", path: () => "/admin" },
  { route: "/setup", path: () => own.setup },
  { route: "/signin", path: () => "/signin" },
  { route: "/present", path: () => "/present" },
  {
    route: "/present",
    path: () => `/present?agenda=${encodeURIComponent(`/traces/${DEMO}/graph`)}`,
    ready: (p) => expect(p.frameLocator("[data-testid=present-frame]").getByTestId("graph-canvas")).toHaveAttribute("data-ready", "true", { timeout: 30_000 }),
  },
];

test.beforeAll(async ({ request }) => {
  const body = readFileSync("../shared/data/tau_bench/gpt-4o-airline.json", "utf8");
  const r = await request.post("/api/import?format=taubench&name=gpt-4o-airline.json&upsert=1", { headers: { "content-type": "application/octet-stream" }, data: body });
  expect(r.status()).toBe(201);
  const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as object;
  expect((await request.post("/api/traces", { data: { ...example, trace_id: OWN_TRACE, group_id: OWN_GROUP, project } })).status()).toBe(201);
  const queue = await request.post("/api/queues", { data: { project, name: `a11y ${stamp}`, families: ["step_quality"], annotators_per_item: 1, assignees: ["local@baton.localhost"], filter: { trace_ids: [OWN_TRACE] } } });
  expect(queue.status(), await queue.text()).toBe(201);
  own.queue = String(((await queue.json()) as { queue: { id: number } }).queue.id);
  // a judge whose endpoint answers nothing: its run's units fail, and the run's page shows them
  const judge = await request.post("/api/judges", { data: { project, name: `a11y judge ${stamp}`, base_url: "http://127.0.0.1:9/v1", model: "none", families: ["step_quality"] } });
  expect(judge.status(), await judge.text()).toBe(201);
  const run = await request.post(`/api/judges/${((await judge.json()) as { judge: { id: number } }).judge.id}/runs`, { data: { filter: { trace_ids: [OWN_TRACE] } } });
  expect(run.status(), await run.text()).toBe(201);
  own.run = String(((await run.json()) as { run: { id: number } }).run.id);
  // the setup form as a first visitor sees it (with its one-time link); once an admin exists, the page that says so
  try {
    own.setup = freshSetupPath();
  } catch {
    own.setup = "/setup";
  }
});

test.afterAll(async ({ request }) => {
  await request.delete(`/api/traces/${OWN_TRACE}`);
});

test("every page of the interface is checked here", () => {
  const checked = new Set(PAGES.map((p) => p.route));
  expect(appFiles("page.tsx").map(routePath).filter((p) => !checked.has(p)), "pages not checked").toEqual([]);
});

/** axe-core's rules that read colours (the rest judge structure, names and roles, which a theme leaves as they are). */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/** axe-core's serious and critical findings on the page as it is now (frames included), one line each. */
async function seriousProblems(page: Page, path: string, rules?: string[]): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  const result = await (rules ? builder.withRules(rules) : builder).analyze();
  const problems: string[] = [];
  for (const v of result.violations.filter((x) => x.impact === "serious" || x.impact === "critical")) {
    for (const node of v.nodes) problems.push(`${path}: [${v.id}] ${node.target.join(" ")} ${node.failureSummary?.split("\n")[1] ?? ""}`);
  }
  return problems;
}

/** Each page is checked in the light theme, then switched to dark with the header's toggle, as a person would, and checked again. */
for (const { route, path: pathOf, ready } of PAGES) {
  // named by its route, or by its URL where a route is checked at several
  const name = PAGES.filter((p) => p.route === route).length > 1 ? pathOf() : route;
  test(`axe-core: no serious or critical problem on ${name}, light then dark theme`, async ({ page }) => {
    const path = pathOf();
    await page.addInitScript(([key]) => localStorage.setItem(key!, "light"), [THEME_STORAGE_KEY]);
    const response = await page.goto(path);
    expect(response?.status(), path).toBeLessThan(400);
    await (ready ? ready(page) : page.waitForLoadState("networkidle"));
    const html = page.locator("html");
    await expect(html).not.toHaveClass(/\bdark\b/);
    expect(await seriousProblems(page, `${path} (light)`)).toEqual([]);

    // the presenter covers the site's header and has its own switch
    const presenter = page.getByTestId("presenter");
    await ((await presenter.count()) > 0 ? presenter : page.locator("header")).getByTestId("theme-toggle").click();
    await expect(html).toHaveClass(/\bdark\b/);
    // the presentation frame follows the stored theme
    for (const frame of await page.locator("iframe").all()) await expect(frame.contentFrame().locator("html")).toHaveClass(/\bdark\b/);
    // a theme changes colours only: the dark pass runs the rules about colour
    expect(await seriousProblems(page, `${path} (dark)`, COLOUR_RULES)).toEqual([]);
  });
}
