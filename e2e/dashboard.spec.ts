import { expect, test, type Locator } from "@playwright/test";
import { downloadOf, example, ingest, parsesAsSvg, PNG_SIGNATURE, runId } from "./lib/charts";

/**
 * The metrics dashboard and meeting mode in a real
 * Chromium: the demo traces' GRPO group, and copies of the paper's example
 * in a group of this run.
 */
const GROUP = "grpo-step-1840-sql-top-customers";
const OWN_GROUP = `e2e-dashboard-${runId}`;

test.beforeAll(async ({ request }) => {
  await ingest(request, [
    { ...example, trace_id: `${OWN_GROUP}-a`, group_id: OWN_GROUP, metadata: { policy_version: "ckpt-1" } },
    { ...example, trace_id: `${OWN_GROUP}-b`, group_id: OWN_GROUP, metrics: { task_success: 0 }, metadata: { policy_version: "ckpt-2" } },
    { ...example, trace_id: `${OWN_GROUP}-c`, group_id: OWN_GROUP, metrics: undefined, rewards: { orchestration: 0.3 } },
  ]);
});

const e1Of = async (card: Locator) => ({
  rate: JSON.parse((await card.getAttribute("data-rate"))!) as number | null,
  low: JSON.parse((await card.getAttribute("data-low"))!) as number | null,
  high: JSON.parse((await card.getAttribute("data-high"))!) as number | null,
  n: Number(await card.getAttribute("data-n")),
});

test("the E1 rate and its Wilson interval equal GET /api/metrics for the same filter", async ({ page, request }) => {
  for (const filter of [`group_id=${GROUP}`, `group_id=${OWN_GROUP}`, ""]) {
    await page.goto(`/dashboard?${filter}`);
    const api = (await (await request.get(`/api/metrics?${filter}`)).json()) as { traces: number; e1: unknown; verdicts: Record<string, number> };
    expect(await e1Of(page.getByTestId("e1-card"))).toEqual(api.e1);
    await expect(page.getByTestId("dashboard-scope")).toContainText(`${api.traces} traces`);
    const verdicts = await page.locator("[data-testid=chart-verdicts] [data-testid=bar]").evaluateAll((bars) => Object.fromEntries(bars.map((b) => [b.getAttribute("data-key")!.slice(8), Number(b.getAttribute("data-count"))])));
    expect(verdicts).toEqual(api.verdicts);
  }
  await page.goto(`/dashboard?group_id=${OWN_GROUP}`);
  await expect(page.getByTestId("e1-card")).toHaveAttribute("data-rate", "0.5"); // a succeeds, b fails, c has no E1
});

test("distributions count nulls apart; clicking a bar lists the traces behind it", async ({ page }) => {
  await page.goto(`/dashboard?group_id=${OWN_GROUP}`);
  const speedup = page.locator("[data-testid=chart-hist-speedup] [data-testid=bar]");
  await expect(speedup).toHaveCount(1); // no durations in the example: every speedup is null
  await expect(speedup).toHaveAttribute("data-key", "speedup:null");
  await expect(speedup).toHaveAttribute("data-count", "3");
  await page.locator('[data-testid=chart-e1] [data-key="e1:null"] [data-testid=bar-target]').click();
  await expect(page).toHaveURL(/bar=e1%3Anull|bar=e1:null/);
  await expect(page.getByTestId("bar-traces")).toContainText("E1 unknown");
  await expect(page.getByTestId("bar-trace")).toHaveCount(1);
  await expect(page.getByTestId("bar-trace").getByRole("link").first()).toHaveText(`${OWN_GROUP}-c`);
  await page.locator('[data-testid=chart-hist-protocol_overhead] [data-key="protocol_overhead:7"] [data-testid=bar-target]').click();
  await expect(page.getByTestId("bar-traces-count")).toHaveText("3 traces");
  await page.getByTestId("bar-trace").getByRole("link", { name: `${OWN_GROUP}-b` }).click();
  await expect(page.getByTestId("trace-title")).toHaveText(`${OWN_GROUP}-b`);
});

test("trends by checkpoint and by day, with a shared URL restoring filter, bar and trend metric", async ({ page, context }) => {
  await page.goto(`/dashboard?group_id=${OWN_GROUP}`);
  await expect(page.locator("[data-testid=chart-trend-policy] [data-testid=trend-point]")).toHaveCount(3);
  await page.locator('[data-testid=chart-trend-policy] [data-key="policy:ckpt-2"]').click();
  await expect(page.getByTestId("bar-traces")).toContainText("policy_version ckpt-2");
  await page.getByTestId("trend-metric").selectOption("critical_steps");
  await expect(page).toHaveURL(/trend=critical_steps/);
  const copy = await context.newPage();
  await copy.goto(page.url());
  await expect(copy.getByTestId("filter-group")).toHaveValue(OWN_GROUP);
  await expect(copy.getByTestId("trend-metric")).toHaveValue("critical_steps");
  await expect(copy.getByTestId("bar-trace")).toHaveCount(1);
  await expect(copy.getByTestId("bar-trace")).toContainText(`${OWN_GROUP}-b`);
  await expect(copy.locator("[data-testid=chart-trend-policy] svg")).toContainText("mean critical steps");
});

test("filters by upload date", async ({ page }) => {
  await page.goto(`/dashboard?group_id=${OWN_GROUP}&from=2000-01-01&to=2000-01-02`);
  await expect(page.getByTestId("dashboard-scope")).toContainText("0 traces");
  const today = new Date().toISOString().slice(0, 10);
  await page.getByTestId("filter-from").fill(today);
  await page.getByTestId("filter-to").fill(today);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("dashboard-scope")).toContainText("3 traces");
});

test("charts export as PNG and SVG with their titles", async ({ page }) => {
  await page.goto(`/dashboard?group_id=${GROUP}`);
  const chart = page.getByTestId("chart-verdicts");
  await expect(chart.locator("[data-testid=bar]").first()).toBeAttached();
  const png = await downloadOf(page, () => chart.getByTestId("export-png").click());
  expect([...png.bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  const svg = await downloadOf(page, () => chart.getByTestId("export-svg").click());
  const parsed = await parsesAsSvg(page, svg.bytes.toString("utf8"));
  expect(parsed).toMatchObject({ ok: true, root: "svg" });
  expect(parsed.texts).toContain("Stop verdicts");
});

test("presentation mode steps through an agenda with the keyboard", async ({ page }) => {
  // build the agenda with "Add to agenda" on two views
  await page.goto(`/dashboard?group_id=${OWN_GROUP}`);
  await page.evaluate(() => localStorage.removeItem("baton.agenda"));
  await page.getByTestId("add-to-agenda").click();
  await expect(page.getByTestId("agenda-count")).toHaveText("Agenda (1)");
  await page.goto(`/heatmaps?group_id=${GROUP}`);
  await page.getByTestId("add-to-agenda").click();
  await expect(page.getByTestId("agenda-count")).toHaveText("Agenda (2)");
  await page.getByTestId("agenda-count").click();
  await expect(page.getByTestId("agenda-list").locator("li")).toHaveCount(2);
  await page.getByTestId("start-presentation").click();

  const frame = page.getByTestId("present-frame");
  await expect(page.getByTestId("slide-number")).toHaveText("1 / 2");
  await expect(frame).toHaveAttribute("src", new RegExp(`^/dashboard\\?group_id=${OWN_GROUP}&present=1$`));
  const framed = page.frameLocator("[data-testid=present-frame]");
  await expect(framed.getByTestId("e1-card")).toBeVisible();
  await expect(framed.locator("header")).toBeHidden(); // no site chrome while presenting
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("slide-number")).toHaveText("2 / 2");
  await expect(page).toHaveURL(/slide=2/);
  await expect(framed.getByTestId("heatmap-panel")).toBeVisible();
  await page.keyboard.press("PageUp");
  await expect(page.getByTestId("slide-number")).toHaveText("1 / 2");
  // keys also work while the view in the frame has the focus
  await framed.getByTestId("e1-card").click();
  await page.keyboard.press("PageDown");
  await expect(page.getByTestId("slide-number")).toHaveText("2 / 2");

  // the presentation's URL is the shared agenda: it replays in another page at the same slide
  const shared = page.url();
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(new RegExp(`/heatmaps\\?group_id=${GROUP}$`));
  await page.goto(shared);
  await expect(page.getByTestId("slide-number")).toHaveText("2 / 2");
});

test("the graph exports from presentation mode; the theme toggle sticks", async ({ page }) => {
  const graph = `/traces/${OWN_GROUP}-a/graph?ov=credit`;
  await page.goto(`/present?agenda=${encodeURIComponent(graph)}`);
  const framed = page.frameLocator("[data-testid=present-frame]");
  await expect(framed.getByTestId("graph-canvas")).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
  const png = await downloadOf(page, () => page.getByTestId("presenter").getByTestId("export-png").click());
  expect([...png.bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  const svg = await downloadOf(page, () => page.getByTestId("presenter").getByTestId("export-svg").click());
  expect((await parsesAsSvg(page, svg.bytes.toString("utf8"))).ok).toBe(true);

  await page.goto("/dashboard");
  await page.getByTestId("theme-toggle").click();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await page.getByTestId("theme-toggle").click();
  await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
});

test("with no theme chosen the system's setting decides; a choice made with the toggle wins over it", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/dashboard");
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await expect(page.getByTestId("theme-toggle")).toHaveText("Light theme");
  await page.getByTestId("theme-toggle").click();
  await page.reload();
  await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
});
