import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";

/** The 200 real tau-bench airline runs, imported through the tau-bench adapter (POST /api/import, the upload page's door). */
test.beforeAll(async ({ request }) => {
  const body = readFileSync("../shared/data/tau_bench/gpt-4o-airline.json", "utf8");
  const r = await request.post("/api/import?format=taubench&name=gpt-4o-airline.json&upsert=1", { headers: { "content-type": "application/octet-stream" }, data: body });
  expect(r.status()).toBe(201);
});

test("content search finds a phrase inside a tool result, marks it and jumps to the event", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Search content").fill('"975 Sunset Drive"');
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/text=%22975\+Sunset\+Drive%22/);
  // Mia Li's address is in the get_user_details result of the four trials of task 0
  await expect(page.getByTestId("trace-total")).toContainText("4 traces matching");
  await expect(page.getByTestId("trace-row")).toHaveCount(4);
  const hit = page.getByTestId("search-hit").first();
  await expect(hit).toContainText("tool result");
  await expect(hit).toContainText("get_user_details");
  await expect(hit.getByTestId("search-mark").first()).toHaveText("975 Sunset Drive");
  await hit.click();
  const target = page.locator("[data-testid=conversation-entry][data-target]");
  await expect(target).toBeVisible();
  await expect(target).toContainText("get_user_details");
  await expect(target.getByTestId("search-mark").first()).toHaveText("975 Sunset Drive");
  await expect(target).toBeInViewport();
});

test("the list sorts by a column, pages forward and back, and filters on stored values", async ({ page }) => {
  await page.goto("/?q=taubench&limit=20");
  await page.getByTestId("sort-tokens").click();
  await expect(page).toHaveURL(/sort=tokens&dir=desc/);
  const firstIds = await page.getByTestId("trace-row").getByTestId("trace-link").allTextContents();
  expect(firstIds).toHaveLength(20);
  await page.getByTestId("next-page").click();
  await expect(page).toHaveURL(/cursor=/);
  const secondIds = await page.getByTestId("trace-row").getByTestId("trace-link").allTextContents();
  expect(secondIds.some((id) => firstIds.includes(id))).toBe(false);
  await page.getByTestId("prev-page").click();
  await expect(page.getByTestId("trace-row").getByTestId("trace-link")).toHaveText(firstIds);

  await page.goto("/?q=taubench&e1=1");
  await expect(page.getByTestId("trace-total")).toHaveText("84 traces");
  // the suggestions come from the stored values
  await expect(page.locator("datalist#groups option[value^='taubench-']").first()).toBeAttached();
});

test("the trace page reads as a conversation with the final answer, beside the metrics", async ({ page }) => {
  await page.goto("/traces/taubench-gpt-4o-airline-task0-trial0");
  const conversation = page.getByTestId("conversation");
  await expect(conversation.getByTestId("conversation-entry").first()).toBeVisible();
  await expect(conversation).toContainText("calls");
  await expect(conversation).toContainText("get_user_details");
  // the answer is the agent's last turn, not the user simulator's ###STOP###
  const final = conversation.locator("[data-testid=conversation-entry][data-final]");
  await expect(final).toHaveCount(1);
  await expect(final).toContainText("assistant");
  await expect(final).toContainText("has been successfully booked");
  await expect(final).not.toContainText("###STOP###");
  // a tool's "Error: ..." reply is an error
  const failed = conversation.locator("[data-testid=conversation-entry][data-error]");
  await expect(failed.first()).toContainText("Error: payment amount does not add up");
  await expect(failed.first()).toContainText("error");
  await expect(page.getByTestId("metrics-panel").getByTestId("metric-makespan")).toContainText("steps");
});

test("two ticked traces can be compared, exported and queued", async ({ page }) => {
  await page.goto("/?q=taubench-gpt-4o-airline-task0-trial");
  const boxes = page.getByTestId("row-select");
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  await expect(page.getByTestId("selected-count")).toHaveText("2 selected");
  const href = await page.getByTestId("export-selection").getAttribute("href");
  const exported = await page.request.get(href!);
  expect(exported.status()).toBe(200);
  expect((await exported.text()).trim().split("\n").length).toBeGreaterThan(2);
  await page.getByTestId("compare-selection").click();
  await expect(page.getByTestId("compare-table")).toContainText("critical steps");
});

test("a selection survives paging and a reload, and every trace that matches exports without ticking any", async ({ page }) => {
  await page.goto("/?q=taubench&limit=20");
  // nothing ticked: the ticked-traces export says what to do, and the filtered dataset is one link away
  await expect(page.getByTestId("export-selection")).toHaveCount(0);
  const all = page.getByTestId("export-all");
  await expect(all).toHaveText("Export all 200 that match");
  await page.getByRole("checkbox", { name: "select every trace on this page" }).check();
  await expect(page.getByTestId("selected-count")).toHaveText("20 selected");
  await page.getByTestId("next-page").click();
  await expect(page).toHaveURL(/cursor=/);
  await page.getByTestId("row-select").nth(0).check();
  await expect(page.getByTestId("selected-count")).toHaveText("21 selected");
  await page.getByRole("checkbox", { name: "select every trace on this page" }).check();
  await expect(page.getByTestId("selected-count")).toHaveText("40 selected");
  await page.reload();
  await expect(page.getByTestId("selected-count")).toHaveText("40 selected");
  const ticked = await page.request.get((await page.getByTestId("export-selection").getAttribute("href"))!);
  expect(ticked.status()).toBe(200);
  const tickedIds = new Set((await ticked.text()).trim().split("\n").map((l) => (JSON.parse(l) as { traj_uid: string }).traj_uid));
  // training rows: one per event, each naming its trace
  expect(tickedIds.size).toBe(40);

  // the whole filtered dataset in the extended form: one trace per line, 84 successes of 200
  await page.goto("/?q=taubench&e1=1&limit=20");
  await page.getByLabel("export form").selectOption({ label: "traces, extended" });
  const href = await page.getByTestId("export-all").getAttribute("href");
  expect(href).toContain("format=extended");
  expect(href).toContain("e1=1");
  expect(href).not.toContain("limit=");
  const exported = await page.request.get(href!);
  expect(exported.status()).toBe(200);
  const lines = (await exported.text()).trim().split("\n").map((l) => JSON.parse(l) as { trace_id: string });
  expect(lines).toHaveLength(84);
  expect(new Set(lines.map((l) => l.trace_id)).size).toBe(84);
  await page.getByTestId("clear-selection").click();
  await expect(page.getByTestId("selected-count")).toHaveText("0 selected");
});

test("a word ranks whole-word matches first and says how each hit matched; the system box takes part of a name", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Search content").fill("cat");
  await page.getByLabel("System").fill("TOOL-CALLING");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/system_contains=TOOL-CALLING/);
  await expect(page.getByTestId("ranked-note")).toHaveText(" · whole words and phrases first");
  const total = Number((await page.getByTestId("trace-total").textContent())!.split(" ")[0]!.replace(/,/g, ""));
  expect(total).toBe(200); // "cat" is in every run (as in "category"): every tau-bench airline run matches
  // the first rows hold "cat" as a word; further down the list it is only inside words
  // (task 21's runs: "Your cat is really sick" in the instruction, the run's task definition); every row says how it matched
  const hits = page.getByTestId("search-hits");
  await expect(hits).toHaveCount(await page.getByTestId("trace-row").count());
  await expect(hits.first()).toHaveAttribute("data-trace-id", /task21-trial/);
  await expect(hits.first().locator("[data-testid=search-matched][data-whole=true]").first()).toHaveText(/“cat” as a word/);
  // 50 rows on the page and four runs with "cat" as a word: the page ends with runs that have it only inside words
  await expect(hits.last().locator("[data-testid=search-matched][data-whole=true]")).toHaveCount(0);
  await expect(hits.last().getByTestId("search-matched").first()).toHaveText(/“cat” inside a word/);
  // an exact system filter with part of the name finds nothing; the box's substring finds them all
  await page.goto("/?system=tool-calling");
  await expect(page.getByTestId("trace-total")).toHaveText("0 traces");
});

test("missing traces answer 404 on every page; docs, favicon; no benchmark page", async ({ page, request }) => {
  for (const suffix of ["", "/graph", "/heatmap", "/label"]) {
    expect((await request.get(`/traces/no-such-trace-xyz${suffix}`)).status(), suffix).toBe(404);
  }
  expect((await request.get("/favicon.ico")).status()).toBe(200);
  expect((await request.get("/bench/baseline?trace=x")).status()).toBe(404);
  await page.goto("/");
  await page.getByRole("link", { name: "Docs", exact: true }).click();
  await expect(page.getByTestId("docs-index")).toContainText("Metrics");
});
