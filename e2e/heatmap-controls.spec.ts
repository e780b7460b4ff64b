import { expect, test } from "@playwright/test";
import { example, ingest, runId } from "./lib/charts";

const EX = `e2e-heatmap-controls-${runId}`;

test.beforeAll(async ({ request }) => {
  await ingest(request, { ...example, trace_id: EX });
});

test("the heatmap settings appear once after each change, on one trace and across traces", async ({ page }) => {
  await page.goto(`/traces/${encodeURIComponent(EX)}/heatmap?kind=event-family`);
  await expect(page.getByTestId("heatmap-controls")).toHaveCount(1);
  await page.getByTestId("control-method").selectOption("uniform");
  await expect(page).toHaveURL(/method=uniform/);
  await page.getByTestId("control-kind").selectOption("agent-time");
  await expect(page).toHaveURL(/kind=agent-time/);
  await page.waitForLoadState("networkidle");
  await expect(page.getByTestId("heatmap-controls")).toHaveCount(1);
  await expect(page.getByTestId("control-method")).toHaveCount(1);
  await expect(page.locator("[data-testid=heatmap-panel]")).toHaveCount(1);

  await page.goto("/heatmaps");
  await page.getByTestId("control-method").selectOption("uniform");
  await expect(page).toHaveURL(/method=uniform/);
  await page.waitForLoadState("networkidle");
  await expect(page.getByTestId("heatmap-controls")).toHaveCount(1);
});
