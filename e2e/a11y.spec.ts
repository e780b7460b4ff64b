import AxeBuilder from "@axe-core/playwright";
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
/** components/meeting/theme.ts THEME_STORAGE_KEY */
const THEME_STORAGE_KEY = "baton.theme";
const TRACE = "taubench-gpt-4o-airline-task0-trial0";
const DEMO = "demo-research-na-ion-vs-lfp";

/** Every page of the interface, each waited for until it has drawn what it loads. */
/** `ready`: waited for instead of network idle (the graph's worker and the presenter's frame keep fetching). */
const graphReady = (p: Page) => expect(p.getByTestId("graph-canvas")).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
const PAGES: { path: string; ready?: (page: Page) => Promise<unknown> }[] = [
  { path: "/" },
  { path: "/?text=%22975+Sunset+Drive%22" },
  { path: `/traces/${TRACE}` },
  { path: `/traces/${DEMO}/graph?ov=stop`, ready: graphReady },
  { path: `/traces/${DEMO}/heatmap` },
  { path: `/traces/${DEMO}/label` },
  { path: "/heatmaps" },
  { path: "/attribution" },
  { path: "/dashboard" },
  { path: "/decisions" },
  { path: "/datasets" },
  { path: "/queues" },
  { path: "/queues/new" },
  { path: `/compare?a=${TRACE}&b=taubench-gpt-4o-airline-task0-trial1` },
  { path: "/judges" },
  { path: "/rubrics" },
  { path: "/docs" },
  { path: "/docs/metrics" },
  { path: "/upload" },
  { path: "/admin" },
  { path: "/signin" },
  { path: "/present" },
  {
    path: `/present?agenda=${encodeURIComponent(`/traces/${DEMO}/graph`)}`,
    ready: (p) => expect(p.frameLocator("[data-testid=present-frame]").getByTestId("graph-canvas")).toHaveAttribute("data-ready", "true", { timeout: 30_000 }),
  },
];

test.beforeAll(async ({ request }) => {
  const body = readFileSync("../shared/data/tau_bench/gpt-4o-airline.json", "utf8");
  const r = await request.post("/api/import?format=taubench&name=gpt-4o-airline.json&upsert=1", { headers: { "content-type": "application/octet-stream" }, data: body });
  expect(r.status()).toBe(201);
});

/** axe-core's serious and critical findings on the page as it is now (frames included), one line each. */
async function seriousProblems(page: Page, path: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  const problems: string[] = [];
  for (const v of result.violations.filter((x) => x.impact === "serious" || x.impact === "critical")) {
    for (const node of v.nodes) problems.push(`${path}: [${v.id}] ${node.target.join(" ")} ${node.failureSummary?.split("\n")[1] ?? ""}`);
  }
  return problems;
}

/** Each page is checked in the light theme, then switched to dark with the header's toggle, as a person would, and checked again. */
for (const { path, ready } of PAGES) {
  test(`axe-core: no serious or critical problem on ${path}, light then dark theme`, async ({ page }) => {
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
    expect(await seriousProblems(page, `${path} (dark)`)).toEqual([]);
  });
}
