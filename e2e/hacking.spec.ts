import { expect, test } from "@playwright/test";
import { fanOutForShowTrace } from "../lib/demo/scenarios/hacking-patterns";
import { example, ingest, runId } from "./lib/charts";

/**
 * Hacking diagnostics (docs/metrics.md) in a real Chromium: a copy of the
 * demo's "fan-out for show" run (4 searchers spawned, 1 used) and a clean
 * copy of the paper's example, under ids of this run.
 */
const HACKED = `e2e-hacking-${runId}-fanout`;
const CLEAN = `e2e-hacking-${runId}-clean`;

test.beforeAll(async ({ request }) => {
  await ingest(request, [{ ...fanOutForShowTrace(), trace_id: HACKED }, { ...example, trace_id: CLEAN }]);
});

test("the trace page shows the flags with the events that triggered them, each opening the graph", async ({ page }) => {
  await page.goto(`/traces/${HACKED}`);
  const spam = page.getByTestId("detector-tool_spam");
  await expect(spam).toHaveAttribute("data-flagged", "1");
  await expect(spam.getByTestId("flag-badge")).toHaveText("flagged");
  await expect(page.getByTestId("detector-communication_padding")).toHaveAttribute("data-flagged", "0");
  const spawns = page.getByTestId("detector-pseudo_parallelism").getByTestId("flag-event");
  await expect(spawns).toHaveCount(3); // the spawns of searchers 2-4
  const first = (await spawns.first().textContent())!;
  await spawns.first().click();
  await expect(page).toHaveURL(new RegExp(`/traces/${HACKED}/graph\\?sel=${first}&sel=`));
  await expect(page.getByTestId("inspector-id")).toHaveText(first);
  await expect(page.getByTestId("inspector-fields")).toContainText("spawn");
});

test("the list filtered by a flag shows only flagged traces, and the filter is in the URL", async ({ page }) => {
  await page.goto(`/?q=${encodeURIComponent(`e2e-hacking-${runId}`)}`);
  const rows = page.getByTestId("trace-row");
  await expect(rows).toHaveCount(2);
  await page.getByLabel("Hacking flag").selectOption("tool_spam");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/flag=tool_spam/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByRole("link").first()).toHaveText(HACKED);
  await expect(rows.first().getByTestId("row-flag")).toContainText(["pseudo-parallelism", "free-riding", "tool spam"]);
  // and without the search: every row the filter keeps carries the flag
  await page.goto("/?flag=tool_spam&limit=200");
  const all = await page.getByTestId("trace-row").count();
  expect(all).toBeGreaterThan(0);
  await expect(page.getByTestId("trace-row").filter({ hasText: "tool spam" })).toHaveCount(all);
});

test("exports carry the flags, and the dashboard shows flag rates by checkpoint", async ({ page, request }) => {
  const rows = (await (await request.get(`/api/traces/${HACKED}/export?format=jsonl`)).text()).trim().split("\n").map((l) => JSON.parse(l) as { hacking_flags: string[] });
  expect(rows.length).toBeGreaterThan(0);
  for (const r of rows) expect(r.hacking_flags).toEqual(["pseudo_parallelism", "free_riding", "tool_spam"]);
  const dataset = (await (await request.get(`/api/export?format=jsonl&q=${encodeURIComponent(`e2e-hacking-${runId}`)}&flag=tool_spam`)).text()).trim().split("\n").map((l) => JSON.parse(l) as { traj_uid: string });
  expect(new Set(dataset.map((r) => r.traj_uid))).toEqual(new Set([HACKED]));

  await page.goto("/dashboard?system=research-swarm");
  const point = page.locator('[data-testid=flag-trend-row][data-policy="ckpt-2200"]');
  await expect(point.getByTestId("flag-rate-tool_spam")).toContainText("100%");
  await point.getByTestId("flag-rate-tool_spam").getByRole("link").click();
  await expect(page).toHaveURL(/flag=tool_spam/);
  await expect(page).toHaveURL(/system=research-swarm/);
});
