import { expect, test, type Page } from "@playwright/test";
import { downloadOf, example, ingest, PNG_SIGNATURE, runId } from "./lib/charts";

/**
 * Security headers on every response, and the pages still work
 * under the CSP: every page records the CSP violations the browser reports
 * (securitypolicyviolation events), and the graph (its Web Worker layout),
 * the heatmaps and the PNG export must do their work with none.
 */
const TRACE_ID = `e2e-headers-${runId}`;

test.beforeAll(async ({ request }) => {
  await ingest(request, { ...example, trace_id: TRACE_ID });
});

async function visit(page: Page, path: string): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) => w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
}

/**
 * The violations, except zod 4's probe for `new Function` (it tries once to
 * choose its fast path and falls back when the CSP forbids eval): refusing
 * eval is the point, and nothing breaks without it.
 */
const violations = async (page: Page) =>
  (await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).filter((v) => v !== "script-src eval");

test("pages, API answers and static files carry the security headers", async ({ page, request }) => {
  const response = await page.goto("/");
  const staticFile = await page.evaluate(() => [...document.querySelectorAll("script[src]")].map((s) => s.getAttribute("src")!)[0]!);
  // pages may be framed by Baton's own presentation mode only; the API and account pages never
  const sameOrigin = [response!, await request.get(staticFile)];
  // a page whose path only starts like an account page is framed as any page (404 here)
  sameOrigin.push(await request.get("/administrators"));
  const never = [
    await request.get("/api/traces?limit=1"), await request.get("/api/traces/no-such-trace"), await request.get("/admin"), await request.get("/admin/no-such-page"),
    await request.get("/signin"), await request.get("/setup"),
  ];
  for (const answer of [...sameOrigin, ...never]) {
    const h = answer.headers();
    const framing = sameOrigin.includes(answer) ? { csp: "frame-ancestors 'self'", xfo: "SAMEORIGIN" } : { csp: "frame-ancestors 'none'", xfo: "DENY" };
    expect(h["content-security-policy"], answer.url()).toContain(framing.csp);
    expect(h["content-security-policy"]).toContain("default-src 'self'");
    expect(h["x-content-type-options"]).toBe("nosniff");
    expect(h["x-frame-options"], answer.url()).toBe(framing.xfo);
    expect(h["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  }
});

test("the graph lays out in its Web Worker and the heatmaps draw, with no CSP violation", async ({ page }) => {
  await visit(page, `/traces/${encodeURIComponent(TRACE_ID)}/graph`);
  await expect(page.getByTestId("graph-canvas")).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
  await expect(page.locator("[data-testid=event-node]")).toHaveCount(8);
  expect(await violations(page)).toEqual([]);
  await visit(page, `/traces/${encodeURIComponent(TRACE_ID)}/heatmap`);
  await expect(page.locator("svg").first()).toBeVisible();
  expect(await violations(page)).toEqual([]);
});

test("the dashboard renders and exports a PNG under the CSP", async ({ page }) => {
  await visit(page, "/dashboard");
  const chart = page.getByTestId("chart-verdicts");
  await expect(chart.locator("[data-testid=bar]").first()).toBeAttached();
  const png = await downloadOf(page, () => chart.getByTestId("export-png").click());
  expect([...png.bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  expect(await violations(page)).toEqual([]);
});
