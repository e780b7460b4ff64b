import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { syntheticTrace } from "../lib/demo";

/**
 * The graph view in a real Chromium against a production
 * build. Traces are ingested through the API under ids unique to this run.
 */
const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown> & { events: Record<string, unknown>[] };
const run = `${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
const EXAMPLE_ID = `e2e-graph-example-${run}`;
const HOSTILE_ID = `e2e-graph-hostile-${run}`;
const HOSTILE_CONTENT = `<script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2"><b>bold?</b> & "quotes"`;

async function ingest(request: APIRequestContext, trace: unknown) {
  const response = await request.post("/api/traces", { data: trace, timeout: 120_000 });
  expect(response.status(), await response.text()).toBe(201);
}

async function openGraph(page: Page, traceId: string, query = "") {
  await page.goto(`/traces/${encodeURIComponent(traceId)}/graph${query}`);
  await expect(page.getByTestId("graph-canvas")).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
}

const nodeIds = (page: Page, selector = "[data-testid=event-node]") =>
  page.locator(selector).evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-event-id")).sort());

test.beforeAll(async ({ request }) => {
  const events = example.events.map((e) => (e.id === "e4" ? { ...e, content: "Plan: search the web for sodium-ion cycle life, then summarise." } : e));
  await ingest(request, { ...example, trace_id: EXAMPLE_ID, events });
  await ingest(request, { ...example, trace_id: HOSTILE_ID, events: example.events.map((e) => (e.id === "e1" ? { ...e, content: HOSTILE_CONTENT } : e)) });
});

test("draws one node per event and one lane per agent, with a legend", async ({ page }) => {
  await openGraph(page, EXAMPLE_ID);
  expect(await nodeIds(page)).toEqual(["e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8"]);
  const lanes = page.getByTestId("lane-label");
  await expect(lanes).toHaveCount(4);
  expect(await lanes.evaluateAll((ls) => ls.map((l) => l.getAttribute("data-agent")))).toEqual(["orchestrator", "planner_1", "executor_1", "browser.search"]);
  await expect(page.getByTestId("legend")).toContainText("tool result");
  await expect(page.locator(".baton-edge")).toHaveCount(8);
});

test("toggling an edge kind hides exactly those edges; temporal edges start hidden", async ({ page }) => {
  await openGraph(page, EXAMPLE_ID);
  await expect(page.locator(".baton-edge--spawn")).toHaveCount(2);
  await page.getByTestId("edge-toggle-spawn").uncheck();
  await expect(page.locator(".baton-edge--spawn")).toHaveCount(0);
  await expect(page.locator(".baton-edge")).toHaveCount(6);
  await page.getByTestId("edge-toggle-spawn").check();
  await expect(page.locator(".baton-edge--spawn")).toHaveCount(2);

  await openGraph(page, "demo-research-na-ion-vs-lfp"); // a demo trace with temporal edges
  await expect(page.locator(".baton-edge--temporal")).toHaveCount(0);
  await page.getByTestId("edge-toggle-temporal").check();
  await expect(page.locator(".baton-edge--temporal").first()).toBeAttached();
});

test("clicking a node opens the inspector with every field, its role, credit, edges and content", async ({ page }) => {
  await openGraph(page, EXAMPLE_ID);
  await page.locator('[data-event-id="e4"]').click();
  const inspector = page.getByTestId("inspector");
  await expect(page.getByTestId("inspector-id")).toHaveText("e4");
  await expect(page.getByTestId("event-content")).toHaveText("Plan: search the web for sodium-ion cycle life, then summarise.");
  await expect(page.getByTestId("inspector-fields")).toContainText("planner_1");
  await expect(page.getByTestId("inspector-fields")).toContainText("plan_summary_hash");
  await expect(page.getByTestId("inspector-roles")).toContainText("on the critical path");
  await expect(page.getByTestId("inspector-credit")).toContainText("task_success");
  await expect(inspector.getByTestId("edge-link")).toHaveCount(3); // e2 -> e4, e3 -> e4 in; e4 -> e5 out
  await inspector.locator('[data-testid=edge-link][data-target="e5"]').click();
  await expect(page.getByTestId("inspector-id")).toHaveText("e5");
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("inspector-id")).toHaveText("e6");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByTestId("inspector-id")).toHaveText("e4");
});

test("hovering an event shows what led to it and what it influenced", async ({ page }) => {
  await openGraph(page, EXAMPLE_ID);
  await page.locator('[data-event-id="e4"]').hover();
  await expect.poll(() => nodeIds(page, '[data-marks~="ancestor"]')).toEqual(["e1", "e2", "e3"]);
  expect(await nodeIds(page, '[data-marks~="descendant"]')).toEqual(["e5", "e6", "e7", "e8"]);
  await page.mouse.move(5, 5);
  await expect(page.locator('[data-marks~="ancestor"]')).toHaveCount(0);
});

test("the errors and stop overlays mark error sources and the stop event with its verdict", async ({ page }) => {
  await openGraph(page, "demo-coding-parse-duration-failed"); // a demo trace: a blocked install, a failing test run, a premature stop
  await page.getByTestId("overlay-errors").click();
  await expect.poll(async () => (await nodeIds(page, '[data-marks~="errorSource"]')).length).toBeGreaterThanOrEqual(2);
  await page.getByTestId("overlay-stop").click();
  await expect(page.getByTestId("stop-badge")).toHaveText("STOP · premature");
  await expect(page.getByTestId("summary-stop")).toContainText("verdict premature");
});

test("switching the credit method changes node colours", async ({ page }) => {
  await openGraph(page, EXAMPLE_ID);
  await page.getByTestId("overlay-credit").click();
  await expect(page.getByTestId("credit-status")).toHaveAttribute("data-status", "ready");
  // the paper's example under uniform (docs/metrics.md): R_total 2.405, and on hover what each family adds
  const rTotal = page.getByTestId("credit-status").getByTestId("r-total");
  await expect(rTotal).toHaveText("R_total +2.4050");
  await expect(rTotal).toHaveAttribute("title", [
    "R_total = Σ w_f × R_f",
    "task_success 1 × 1 = 1",
    "communication_efficiency 1 × 1 = 1",
    "orchestration 1 × 0.3 = 0.3",
    "parallelism_speedup 1 × 0.125 = 0.125",
    "cost -1 × 0.12 = -0.12",
    "tool_use_correctness 1 × 0.1 = 0.1",
  ].join("\n"));
  const colours = () => page.locator("[data-testid=event-node]").evaluateAll((nodes) => nodes.map((n) => `${n.getAttribute("data-event-id")}=${n.getAttribute("data-credit-colour")}`).sort());
  await expect.poll(async () => (await colours()).every((c) => !c.endsWith("="))).toBe(true);
  const ccp = await colours();
  await page.getByTestId("credit-method").selectOption("terminal");
  await expect.poll(colours).not.toEqual(ccp);
  // terminal: only the terminal event (e8) has credit; the rest sit at the scale's middle (zero).
  // Polled: nodes are recoloured as the new credit pages arrive, not all in one frame.
  const others = async () => new Set((await colours()).filter((c) => !c.startsWith("e8=")).map((c) => c.split("=")[1])).size;
  await expect.poll(others).toBe(1);
});

test("the taint overlay marks exactly the tainted events of the paper's example", async ({ page }) => {
  await openGraph(page, EXAMPLE_ID);
  await page.getByTestId("overlay-taint").click();
  expect(await nodeIds(page, '[data-testid=event-node][data-marks~="taint"]')).toEqual(["e6", "e7", "e8"]);
  await expect(page.getByTestId("summary-taint")).toContainText("3 tainted events; terminal tainted");
  await page.getByTestId("overlay-taint").click();
  await expect(page.locator('[data-marks~="taint"]')).toHaveCount(0);
});

test("a copied URL restores the same view", async ({ page, context }) => {
  await openGraph(page, EXAMPLE_ID);
  await page.getByTestId("edge-toggle-message").uncheck(); // the legend's toggles fold away once an event is selected
  await page.locator('[data-event-id="e6"]').click();
  await page.getByTestId("overlay-critical").click();
  await page.getByTestId("overlay-credit").click();
  await page.getByTestId("credit-method").selectOption("mc_return");
  await page.getByTestId("credit-preset").selectOption("code_generation");
  await page.getByRole("button", { name: "Order" }).click();
  await page.getByRole("button", { name: "Zoom Out" }).click();
  await expect(page).toHaveURL(/sel=e6/);
  await expect(page).toHaveURL(/x=order/);
  await expect(page.getByTestId("credit-status")).toHaveAttribute("data-status", "ready");
  // the zoom animates: wait until the settled viewport is the one in the URL (kept to 0.1 px and 5 significant digits of zoom)
  const transform = async (p: Page) => (await p.locator(".react-flow__viewport").evaluate((v) => (v as HTMLElement).style.transform)).match(/-?[\d.]+/g)!.map(Number);
  const close = (a: number[], b: number[]) => a.length === 3 && b.length === 3 && Math.abs(a[0]! - b[0]!) <= 0.5 && Math.abs(a[1]! - b[1]!) <= 0.5 && Math.abs(a[2]! / b[2]! - 1) <= 1e-3;
  const inUrl = () => (new URL(page.url()).searchParams.get("v") ?? "").split(",").map(Number);
  await expect.poll(async () => close(inUrl(), await transform(page))).toBe(true);
  const snapshot = async (p: Page) => ({
    selected: await p.getByTestId("inspector-id").textContent(),
    overlays: await p.locator("[data-testid^=overlay-]").evaluateAll((bs) => bs.map((b) => `${b.dataset.testid}:${b.getAttribute("aria-pressed")}`)),
    method: await p.getByTestId("credit-method").inputValue(),
    preset: await p.getByTestId("credit-preset").inputValue(),
    message: await p.getByTestId("edge-toggle-message").isChecked(),
    spacing: await p.getByRole("button", { name: "Order" }).getAttribute("aria-pressed"),
    colours: await p.locator("[data-testid=event-node]").evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-credit-colour"))),
  });
  const before = await snapshot(page);
  const viewport = await transform(page);
  expect(before.selected).toBe("e6");
  const copy = await context.newPage();
  await openGraph(copy, EXAMPLE_ID, new URL(page.url()).search);
  await expect(copy.getByTestId("inspector-id")).toHaveText("e6");
  await expect(copy.getByTestId("credit-status")).toHaveAttribute("data-status", "ready");
  await expect.poll(() => snapshot(copy)).toEqual(before);
  expect(close(await transform(copy), viewport)).toBe(true);
});

test("content with <script> and HTML is shown as text and runs nothing", async ({ page }) => {
  await openGraph(page, HOSTILE_ID);
  await page.locator('[data-event-id="e1"]').click();
  const content = page.getByTestId("event-content");
  await expect(content).toHaveText(HOSTILE_CONTENT);
  expect(await content.locator("script, img, b").count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator("[data-testid=event-node]").evaluateAll((nodes) => nodes.some((n) => n.textContent?.includes("<script>")))).toBe(false);
});

test("a 20,000-event trace opens and responds", async ({ page, request }) => {
  test.setTimeout(180_000);
  const traceId = `e2e-graph-20k-${run}`;
  await ingest(request, syntheticTrace({ events: 20_000, seed: 5, traceId }));
  const started = Date.now();
  await openGraph(page, traceId);
  const openedMs = Date.now() - started;
  console.log(`20k-event graph ready ${openedMs} ms after navigation`);
  expect(openedMs).toBeLessThan(15_000);
  await expect(page.getByTestId("scene-status")).toBeVisible();

  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("inspector-id")).toHaveText("e1");
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("inspector-id")).toHaveText("e2");

  await page.getByTestId("event-search").fill("e19999");
  await page.getByTestId("event-search").press("Enter");
  await expect(page.getByTestId("inspector-id")).toHaveText("e19999");
  await expect(page.locator('[data-testid=event-node][data-event-id="e19999"]')).toBeVisible();

  const viewport = page.locator(".react-flow__viewport");
  const before = await viewport.evaluate((v) => (v as HTMLElement).style.transform);
  const pane = await page.locator(".react-flow__pane").boundingBox();
  await page.mouse.move(pane!.x + pane!.width / 2, pane!.y + pane!.height / 2);
  await page.mouse.down();
  await page.mouse.move(pane!.x + pane!.width / 2 + 300, pane!.y + pane!.height / 2 + 40, { steps: 10 });
  await page.mouse.up();
  await expect.poll(() => viewport.evaluate((v) => (v as HTMLElement).style.transform)).not.toBe(before);
  await page.getByTestId("fit-view").click();
  await expect(page.locator("[data-testid=cluster-node]").first()).toBeVisible();
});
