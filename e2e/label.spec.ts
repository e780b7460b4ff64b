import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";

const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as object;

test("labels a trace with the keyboard only, credit follows, and the export carries the labels", async ({ page, request }) => {
  const traceId = `e2e-label-${Date.now()}`;
  expect((await request.post("/api/traces", { data: { ...example, trace_id: traceId } })).status()).toBe(201);
  await page.goto(`/traces/${traceId}/label`);
  const rows = page.getByTestId("label-row");
  await expect(rows).toHaveCount(8);
  const e4Credit = page.getByTestId("credit-e4");
  const before = Number(await e4Credit.getAttribute("data-value"));

  await page.keyboard.press("?");
  await expect(page.getByTestId("key-help")).toBeVisible();
  await page.keyboard.press("?");

  // e4 is the 4th event; its first family is step_quality
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  await expect(rows.nth(3)).toHaveAttribute("data-selected", "true");
  await page.keyboard.press("5");
  await page.keyboard.press("Enter");
  const chip = page.getByTestId("label-e4-step_quality");
  await expect(chip.locator("[data-status]")).toHaveAttribute("data-status", "saved");
  await expect(rows.nth(4)).toHaveAttribute("data-selected", "true");
  // step_quality +1 on e4 with weight 1 adds exactly 1 to its credit
  await expect.poll(async () => Number(await e4Credit.getAttribute("data-value"))).toBeCloseTo(before + 1, 9);

  const e8Credit = page.getByTestId("credit-e8");
  const e8Before = Number(await e8Credit.getAttribute("data-value"));
  await page.keyboard.press("f");
  await expect(page.getByTestId("trace-label")).toContainText("failure");
  await expect(page.getByTestId("trace-label").locator("[data-status]")).toHaveAttribute("data-status", "saved");
  // task_success R goes from +1 (team reward) to 2 x 0 - 1 = -1 at the terminal e8: its credit drops by 2
  await expect.poll(async () => Number(await e8Credit.getAttribute("data-value"))).toBeCloseTo(e8Before - 2, 9);

  const exported = await request.get(`/api/traces/${traceId}/export?format=jsonl`);
  const lines = (await exported.text()).trim().split("\n").map((l) => JSON.parse(l) as { event_id: string; rewards: Record<string, number>; annotations_as_of: string | null });
  expect(lines).toHaveLength(8);
  expect(lines.find((l) => l.event_id === "e4")!.rewards.step_quality).toBe(1);
  expect(lines.find((l) => l.event_id === "e8")!.rewards.task_success).toBe(-1);
  expect(lines[0]!.annotations_as_of).not.toBeNull();
});

test("a label that cannot be saved stays visible as failed and is saved on retry", async ({ page, request }) => {
  const traceId = `e2e-retry-${Date.now()}`;
  expect((await request.post("/api/traces", { data: { ...example, trace_id: traceId } })).status()).toBe(201);
  await page.goto(`/traces/${traceId}/label`);
  await expect(page.getByTestId("label-row")).toHaveCount(8);
  await page.route("**/annotations", (route) => (route.request().method() === "POST" ? route.abort() : route.continue()));
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("1");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("failed-labels")).toContainText("1 label(s) not saved");
  await page.unroute("**/annotations");
  await page.keyboard.press("r");
  await expect(page.getByTestId("label-e2-orchestration").locator("[data-status]")).toHaveAttribute("data-status", "saved");
  await expect(page.getByTestId("failed-labels")).toHaveCount(0);
  const saved = (await (await request.get(`/api/traces/${traceId}/annotations`)).json()) as { annotations: { event_id: string; value: number }[] };
  expect(saved.annotations).toEqual([expect.objectContaining({ event_id: "e2", value: -1 })]);
});

test("?event= opens the labeling page at that event; an unknown id starts at the first", async ({ page, request }) => {
  const traceId = `e2e-label-start-${Date.now()}`;
  expect((await request.post("/api/traces", { data: { ...example, trace_id: traceId } })).status()).toBe(201);
  await page.goto(`/traces/${traceId}/label?event=e4`);
  await expect(page.getByTestId("label-row")).toHaveCount(8);
  await expect(page.locator('[data-testid=label-row][data-selected="true"]')).toHaveAttribute("data-event-id", "e4");
  await page.goto(`/traces/${traceId}/label?event=nope`);
  await expect(page.locator('[data-testid=label-row][data-selected="true"]')).toHaveAttribute("data-event-id", "e1");
});
