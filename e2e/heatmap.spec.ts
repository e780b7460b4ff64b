import { expect, test } from "@playwright/test";
import { apiCells, downloadOf, drawnCells, example, ingest, panel, parsesAsSvg, PNG_SIGNATURE, runId } from "./lib/charts";

/**
 * Credit heatmaps in a real Chromium: the paper's example
 * ingested under a unique id, and the demo traces' GRPO group.
 */
const EX = `e2e-heatmap-example-${runId}`;
const heatmapUrl = (query = "") => `/traces/${encodeURIComponent(EX)}/heatmap${query}`;
const apiUrl = (query: string) => `/api/traces/${encodeURIComponent(EX)}/heatmap?${query}`;
const GROUP = "grpo-step-1840-sql-top-customers";

test.beforeAll(async ({ request }) => {
  await ingest(request, { ...example, trace_id: EX });
});

test("agent x time: a row per agent, a column per bucket, cells equal to the API's", async ({ page, request }) => {
  await page.goto(heatmapUrl("?buckets=4"));
  const svg = panel(page).locator("svg");
  await expect(svg).toHaveAttribute("data-rows", "4");
  await expect(svg).toHaveAttribute("data-cols", "4");
  await expect(panel(page).getByTestId("heatmap-row")).toHaveText(["orchestrator", "planner_1", "executor_1", "browser.search"]);
  await expect(panel(page).getByTestId("heatmap-cell")).toHaveCount(16);
  const { matrix } = await apiCells(request, apiUrl("kind=agent-time&buckets=4"));
  expect(await drawnCells(panel(page))).toEqual(matrix);
  expect(matrix[1]).toEqual([null, expect.closeTo(1.2251, 9), null, null]); // the planner's message e4
  await expect(panel(page).getByTestId("legend-tick")).toHaveCount(5);
  // round ticks (the largest cell is 1.2251): -2, -1, 0, 1, 2, not -1.225, -0.6126, ...
  expect((await panel(page).getByTestId("legend-tick").allTextContents()).map((t) => Number(t.replace("−", "-")))).toEqual([-2, -1, 0, 1, 2]);

  await page.getByTestId("control-buckets").fill("2");
  await page.getByTestId("control-buckets").press("Enter");
  await expect(page).toHaveURL(/buckets=2/);
  await expect(svg).toHaveAttribute("data-cols", "2");
});

test("event x family: 8 events x (8 families + C(v)), gaps where a family is absent", async ({ page, request }) => {
  await page.goto(heatmapUrl("?kind=event-family"));
  await expect(panel(page).locator("svg")).toHaveAttribute("data-rows", "8");
  await expect(panel(page).locator("svg")).toHaveAttribute("data-cols", "9");
  const { matrix } = await apiCells(request, apiUrl("kind=event-family"));
  expect(await drawnCells(panel(page))).toEqual(matrix);
  expect(matrix[3]![1]).toBeNull(); // step_quality: absent from the example, a gap
  await expect(page.getByTestId("heatmap-note")).toContainText("step quality, stop decision");
});

test("changing the method changes the cells", async ({ page, request }) => {
  await page.goto(heatmapUrl("?kind=event-family"));
  const ccp = await drawnCells(panel(page));
  await page.getByTestId("control-method").selectOption("uniform");
  await expect(page).toHaveURL(/method=uniform/);
  await expect.poll(() => drawnCells(panel(page))).not.toEqual(ccp);
  const { matrix } = await apiCells(request, apiUrl("kind=event-family&method=uniform"));
  expect(await drawnCells(panel(page))).toEqual(matrix);
  expect(matrix.map((r) => r[8])).toEqual(Array(8).fill(2.405 / 8));
});

test("clicking a cell selects its events in the graph; Shift-click lists them here", async ({ page }) => {
  await page.goto(heatmapUrl("?buckets=4"));
  await panel(page).locator('[data-testid=heatmap-cell][data-row="1"][data-col="1"]').click();
  await expect(page).toHaveURL(/\/graph\?sel=e4&ov=credit/);
  await expect(page.getByTestId("inspector-id")).toHaveText("e4", { timeout: 30_000 });
  await page.goBack();
  await expect(page).toHaveURL(/cell=0\.1\.1/);
  await expect(page.getByTestId("cell-event-link")).toHaveText(["e4"]);

  await panel(page).locator('[data-testid=heatmap-cell][data-row="0"][data-col="0"]').click({ modifiers: ["Shift"] });
  await expect(page).toHaveURL(/cell=0\.0\.0/);
  await expect(page.getByTestId("cell-event-link")).toHaveText(["e1", "e2"]);
  await expect(panel(page).getByTestId("heatmap-selection")).toHaveCount(1);
  await page.getByTestId("cell-event-link").nth(1).click();
  await expect(page.getByTestId("inspector-id")).toHaveText("e2", { timeout: 30_000 });
});

test("clicking a cell highlights every one of its events in the graph, with the weight overrides", async ({ page }) => {
  await page.goto(heatmapUrl("?buckets=4&w.cost=0.5"));
  await panel(page).locator('[data-testid=heatmap-cell][data-row="0"][data-col="0"]').click({ modifiers: ["Shift"] });
  const cellIds = await page.getByTestId("cell-event-link").allTextContents();
  expect(cellIds).toEqual(["e1", "e2"]);
  await expect(page.getByTestId("cell-events-graph-link")).not.toHaveAttribute("title", /.+/);

  await panel(page).locator('[data-testid=heatmap-cell][data-row="0"][data-col="0"]').click();
  await expect(page).toHaveURL(/\/graph\?sel=e1&sel=e2&ov=credit&w\.cost=0\.5/);
  await expect(page.getByTestId("inspector-id")).toHaveText("e1", { timeout: 30_000 });
  const highlighted = page.locator('[data-testid=event-node][data-highlighted="true"]');
  await expect(highlighted).toHaveCount(cellIds.length);
  const drawn = await highlighted.evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-event-id")).sort());
  expect(drawn).toEqual([...cellIds].sort());
  await expect(page.locator('[data-testid=event-node][data-event-id="e3"]')).not.toHaveAttribute("data-highlighted", "true");
});

test("side by side: CCP and uniform on one scale, and where they disagree", async ({ page, request }) => {
  await page.goto(heatmapUrl("?buckets=4&compare=uniform"));
  await expect(page.getByTestId("heatmap-panel")).toHaveCount(3);
  // both panels' legends drawn (the second may still be drawing when the first is), then compared
  const ticks = (i: number) => panel(page, i).getByTestId("legend-tick");
  await expect(ticks(0).first()).toBeVisible();
  await expect(ticks(1)).toHaveText(await ticks(0).allTextContents());
  const a = (await apiCells(request, apiUrl("kind=agent-time&buckets=4"))).matrix;
  const b = (await apiCells(request, apiUrl("kind=agent-time&buckets=4&method=uniform"))).matrix;
  expect(await drawnCells(panel(page, 0))).toEqual(a);
  expect(await drawnCells(panel(page, 1))).toEqual(b);
  const diff = await drawnCells(panel(page, 2));
  diff.forEach((row, i) => row.forEach((v, j) => (v === null ? expect(a[i]![j]).toBeNull() : expect(v).toBeCloseTo(a[i]![j]! - b[i]![j]!, 12))));
});

test("side by side: two traces of one group", async ({ page }) => {
  await page.goto(`/traces/demo-rollout-sql-top-customers-1/heatmap?other=demo-rollout-sql-top-customers-2`);
  await expect(page.getByTestId("heatmap-panel")).toHaveCount(2);
  await expect(panel(page, 1).locator("svg")).toContainText("demo-rollout-sql-top-customers-2");
  await page.goto(`/traces/demo-rollout-sql-top-customers-1/heatmap?other=${encodeURIComponent(EX)}`);
  await expect(page.getByTestId("heatmap-problem")).toContainText("not in this trace's group");
});

test("role x family across the demo group equals the API", async ({ page, request }) => {
  await page.goto(`/heatmaps?group_id=${GROUP}&preset=code_generation`);
  const { matrix, model } = await apiCells(request, `/api/heatmap?kind=role-family&group_id=${GROUP}&preset=code_generation`);
  await expect(panel(page).locator("svg")).toHaveAttribute("data-rows", String(model.rows.length));
  await expect(panel(page).locator("svg")).toHaveAttribute("data-cols", "9");
  expect(await drawnCells(panel(page))).toEqual(matrix);
  await expect(panel(page).locator("svg")).toContainText("4 traces");
  await panel(page).locator("[data-testid=heatmap-cell]:not([data-value=null])").first().click();
  await expect(page.getByTestId("cell-events")).toContainText("demo-rollout-sql-top-customers-");
});

test("a shared URL restores the view", async ({ page, context }) => {
  const query = "?kind=event-family&method=mc_return&preset=code_generation&w.cost=-0.5&cell=0.3.8";
  await page.goto(heatmapUrl(query));
  const copy = await context.newPage();
  await copy.goto(page.url());
  for (const p of [page, copy]) {
    await expect(p.getByTestId("control-kind")).toHaveValue("event-family");
    await expect(p.getByTestId("control-method")).toHaveValue("mc_return");
    await expect(p.getByTestId("control-preset")).toHaveValue("code_generation");
    await expect(p.getByTestId("control-w-cost")).toHaveValue("-0.5");
    await expect(panel(p).getByTestId("heatmap-selection")).toHaveCount(1);
    await expect(p.getByTestId("cell-event-link")).toHaveText(["e4"]);
    await expect(panel(p).locator("svg")).toContainText("w.cost=-0.5");
  }
  expect(await drawnCells(panel(copy))).toEqual(await drawnCells(panel(page)));
});

test("exports the heatmap as PNG and SVG, with its title and legend", async ({ page }) => {
  await page.goto(heatmapUrl("?buckets=4"));
  await expect(panel(page).getByTestId("heatmap-cell").first()).toBeAttached();
  const png = await downloadOf(page, () => page.getByTestId("export-png").first().click());
  expect([...png.bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  expect(png.download.suggestedFilename()).toMatch(/\.png$/);
  expect(png.bytes.readUInt32BE(16)).toBeGreaterThan(500); // IHDR width: drawn at 2x
  const svg = await downloadOf(page, () => page.getByTestId("export-svg").first().click());
  const parsed = await parsesAsSvg(page, svg.bytes.toString("utf8"));
  expect(parsed.ok).toBe(true);
  expect(parsed.root).toBe("svg");
  expect(parsed.texts).toContain(`Credit by agent and time: ${EX}`);
  expect(parsed.texts.some((t) => t.startsWith("colour: sum of C(v)"))).toBe(true);
});

test("the suspects for a decisive error: open on a failed rollout, closed and said to be none on a successful one", async ({ page, request }) => {
  const list = (await (await request.get(`/api/traces?group_id=${GROUP}`)).json()) as { traces: { trace_id: string; e1: number | null }[] };
  const e1 = (id: string) => list.traces.find((t) => t.trace_id === id)?.e1;
  expect(e1("demo-rollout-sql-top-customers-3")).toBe(0);
  expect(e1("demo-rollout-sql-top-customers-1")).toBe(1);
  await page.goto("/traces/demo-rollout-sql-top-customers-3/heatmap");
  await expect(page.getByTestId("suspects")).toHaveAttribute("open", "");
  await expect(page.getByTestId("suspects-succeeded")).toHaveCount(0);
  await page.goto("/traces/demo-rollout-sql-top-customers-1/heatmap");
  await expect(page.getByTestId("suspects-succeeded")).toHaveText(/this run succeeded, so it has none/);
  await expect(page.getByTestId("suspects")).not.toHaveAttribute("open", "");
  // still there for whoever asks: opened, it ranks the run's events all the same
  await page.getByTestId("suspects").locator("summary").click();
  await expect(page.getByTestId("suspect").first()).toBeVisible();
});
