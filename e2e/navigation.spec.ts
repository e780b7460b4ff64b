import { expect, test } from "@playwright/test";

/** Finding one's way: every guide reachable from /docs, /rubrics in the navigation, /compare explained without ids, pages titled by what they show. */
test("the judges guide is listed in /docs and linked from /judges; /rubrics is in the navigation", async ({ page }) => {
  await page.goto("/docs");
  await page.getByTestId("docs-index").getByRole("link", { name: "Judges" }).click();
  await expect(page).toHaveURL(/\/docs\/judges$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Judges: model-assisted reward labels");
  await expect(page).toHaveTitle("Judges · Baton");
  await page.goto("/docs/train-with-baton");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Train");

  await page.goto("/judges");
  await expect(page).toHaveTitle("Judges · Baton");
  await page.getByTestId("judges-guide").click();
  await expect(page).toHaveURL(/\/docs\/judges$/);

  await page.getByRole("navigation").getByRole("link", { name: "Rubrics" }).click();
  await expect(page).toHaveURL(/\/rubrics/);
  await expect(page).toHaveTitle("Rubrics · Baton");
});

test("/compare without two ids says what it needs and links to the trace list", async ({ page }) => {
  const bare = await page.goto("/compare");
  expect(bare?.status()).toBe(200);
  await expect(page.getByTestId("compare-choose")).toContainText("No traces are chosen.");
  await expect(page).toHaveTitle("Compare two runs · Baton");
  await page.goto("/compare?a=only-one");
  await expect(page.getByTestId("compare-choose")).toContainText("Only one trace is chosen (only-one).");
  await page.getByTestId("compare-choose").getByRole("link", { name: "trace list" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page).toHaveTitle("Traces · Baton");
});

test("/traces, a trace's address cut short, opens the trace list with its filters", async ({ page }) => {
  await page.goto("/traces?system=atlas-deep-research&q=");
  await expect(page).toHaveURL(/\/\?system=atlas-deep-research$/);
  await expect(page).toHaveTitle("Traces · Baton");
  await page.goto("/traces");
  await expect(page).toHaveURL(/\/$/);
});

test("pages are titled by what they show", async ({ page, request }) => {
  const list = (await (await request.get("/api/traces?limit=1")).json()) as { traces: { trace_id: string }[] };
  const id = list.traces[0]!.trace_id;
  for (const [path, title] of [
    [`/traces/${encodeURIComponent(id)}`, `Trace ${id} · Baton`],
    [`/traces/${encodeURIComponent(id)}/graph`, `Graph · ${id} · Baton`],
    [`/traces/${encodeURIComponent(id)}/label`, `Label · ${id} · Baton`],
    ["/dashboard", "Dashboard · Baton"],
    ["/upload", "Upload traces · Baton"],
    ["/docs", "Documentation · Baton"],
    ["/docs/metrics", "Metrics · Baton"],
  ] as const) {
    await page.goto(path);
    await expect(page).toHaveTitle(title);
  }
});
