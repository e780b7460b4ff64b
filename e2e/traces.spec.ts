import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";

const example = readFileSync("../shared/trace-schema/example_trace.json", "utf8");

test("the list shows the demo traces, filters them and opens one", async ({ page }) => {
  await page.goto("/");
  const rows = page.getByTestId("trace-row");
  await expect(rows.first()).toBeVisible();
  const total = await rows.count();
  expect(total).toBeGreaterThanOrEqual(7);

  await page.getByLabel("Search", { exact: true }).fill("rollout");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/q=rollout/);
  await expect(rows).toHaveCount(4);

  const first = rows.first().getByTestId("trace-link"); // the row also links its group
  const traceId = (await first.textContent())!;
  await first.click();
  await expect(page.getByTestId("trace-title")).toHaveText(traceId);
  await expect(page.getByTestId("event-row").first()).toBeVisible();
  // rows are numbered as the range above them is: "Events 1–n" starts at row 1
  await expect(page.getByRole("heading", { name: /^Events 1–/ })).toBeVisible();
  await expect(page.getByTestId("event-number").first()).toHaveText("1");
  await expect(page.getByTestId("edge-row").first()).toBeVisible();
});

test("on a 1920 px screen the list uses its width: every column in view, ids wrapped only at their hyphens", async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto("/?q=demo-rollout");
  await expect(page.getByTestId("trace-row").first()).toBeVisible();
  const table = page.getByTestId("trace-table");
  expect((await table.boundingBox())!.width).toBeGreaterThan(1600);
  // nothing scrolled out of view: the Created column ends inside the screen
  expect(await table.evaluate((t) => t.parentElement!.scrollWidth <= t.parentElement!.clientWidth)).toBe(true);
  const created = (await page.getByTestId("sort-created").boundingBox())!;
  expect(created.x + created.width).toBeLessThanOrEqual(1920);
  // where an id wraps, the line ends on a hyphen
  const cuts = await page.getByTestId("trace-link").evaluateAll((links) =>
    links.flatMap((a) => {
      const text = a.firstChild as Text;
      const top = (i: number) => {
        const r = document.createRange();
        r.setStart(text, i);
        r.setEnd(text, i + 1);
        return r.getClientRects()[0]?.top ?? 0;
      };
      const found: string[] = [];
      for (let i = 1; i < text.length; i++) if (top(i) > top(i - 1) + 1) found.push(`${text.data.slice(0, i)}|${text.data.slice(i)}`);
      return found;
    }),
  );
  expect(cuts.filter((c) => !c.split("|")[0]!.endsWith("-"))).toEqual([]);
});

test("uploading a valid file lists it; an invalid one shows its errors with paths", async ({ page }) => {
  const traceId = `e2e-upload-${Date.now()}`;
  const valid = JSON.stringify({ ...JSON.parse(example), trace_id: traceId });
  const invalid = JSON.stringify({ ...JSON.parse(example), trace_id: `${traceId}-bad`, events: [{ id: "e1", t: -3, type: "teleport", agent: "a" }], edges: [] });

  await page.goto("/upload");
  await page.getByTestId("file-input").setInputFiles([
    { name: "good.json", mimeType: "application/json", buffer: Buffer.from(valid) },
    { name: "bad.json", mimeType: "application/json", buffer: Buffer.from(invalid) },
  ]);
  const ok = page.getByTestId("upload-ok");
  await expect(ok).toContainText(traceId);
  await expect(ok).toContainText("8 events, 8 edges");
  const error = page.getByTestId("upload-error");
  await expect(error).toContainText("nothing from this file was stored");
  await expect(error).toContainText("$.events[0].t");
  await expect(error).toContainText("$.events[0].type");

  await page.goto("/");
  await expect(page.getByRole("link", { name: traceId, exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: `${traceId}-bad`, exact: true })).toHaveCount(0);
});

test("a 64-character task id wraps inside its column, shown whole, and the table stays as wide as with a short one", async ({ page, request }) => {
  const system = `e2e-long-ids-${Date.now()}`;
  const longTask = "f".repeat(32) + "0123456789abcdef0123456789abcdef"; // a hash: no place a browser would break it by itself
  for (const [suffix, task_id] of [["short", "t1"], ["long", longTask]] as const) {
    const created = await request.post("/api/traces", { data: { ...(JSON.parse(example) as object), trace_id: `${system}-${suffix}`, system: `${system}-${suffix}`, task_id } });
    expect(created.status()).toBe(201);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  const widths = async (suffix: string) => {
    await page.goto(`/?system=${system}-${suffix}`);
    await expect(page.getByTestId("trace-row")).toHaveCount(1);
    return page.getByTestId("trace-table").evaluate((t) => t.scrollWidth);
  };
  const short = await widths("short");
  const long = await widths("long");
  await expect(page.getByTestId("row-task-id")).toHaveText(longTask);
  const cell = (await page.getByTestId("row-task-id").boundingBox())!;
  expect(cell.width).toBeLessThanOrEqual(16 * 16 + 24 + 1); // max 16rem of text and its padding
  expect(long - short).toBeLessThanOrEqual(16 * 16);
});

test("the detail page shows the computed metrics with links to their definitions", async ({ page, request }) => {
  const traceId = `e2e-metrics-${Date.now()}`;
  const created = await request.post("/api/traces", { data: { ...(JSON.parse(example) as object), trace_id: traceId } });
  expect(created.status()).toBe(201);
  await page.goto(`/traces/${traceId}`);
  const panel = page.getByTestId("metrics-panel");
  // the paper's example: 8 events over a 7-event critical path; e6 (untrusted) taints e6, e7, e8
  await expect(panel.getByTestId("metric-critical-steps")).toContainText("7");
  await expect(panel.getByTestId("metric-step-parallelism")).toContainText("1.143");
  await expect(panel.getByTestId("metric-tainted-events")).toContainText("3");
  await expect(panel.getByTestId("metric-speedup")).toContainText("—");
  await expect(panel.getByTestId("metric-verdict")).toContainText("ok");
  await panel.getByRole("link", { name: "definition" }).nth(2).click();
  // the docs page renders its markdown on first request: wait for the section, then for the address with its anchor
  await expect(page.locator("#e3-collaboration-quality")).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/docs\/metrics#e3-collaboration-quality$/);
});

test("the upload page imports other formats: a Who&When run is detected and stored", async ({ page }) => {
  const name = `ww-${Date.now()}.json`;
  await page.goto("/upload");
  await page.getByTestId("file-input").setInputFiles([
    { name, mimeType: "application/json", buffer: readFileSync("../shared/data/who_and_when/Hand-Crafted/1.json") },
  ]);
  const ok = page.getByTestId("upload-ok");
  await expect(ok).toContainText("events");
  await ok.getByRole("link").first().click();
  await expect(page.getByTestId("trace-title")).toBeVisible();
  // the dataset's label: mistake agent and step, and the event marked on the page
  await expect(page.getByTestId("ground-truth")).toContainText("mistake agent");
  await expect(page.getByTestId("ground-truth-mistake")).toHaveCount(1);
});
