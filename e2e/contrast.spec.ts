import AxeBuilder from "@axe-core/playwright";
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
/** components/meeting/theme.ts THEME_STORAGE_KEY */
const THEME_STORAGE_KEY = "baton.theme";

/** The explorer's pages in both themes: axe-core finds no serious or critical contrast problem. */
const PAGES = ["/", "/?text=%22975+Sunset+Drive%22", "/traces/taubench-gpt-4o-airline-task0-trial0", "/compare?a=taubench-gpt-4o-airline-task0-trial0&b=taubench-gpt-4o-airline-task0-trial1", "/docs"];

test.beforeAll(async ({ request }) => {
  const body = readFileSync("../shared/data/tau_bench/gpt-4o-airline.json", "utf8");
  const r = await request.post("/api/import?format=taubench&name=gpt-4o-airline.json&upsert=1", { headers: { "content-type": "text/plain" }, data: body });
  expect(r.status()).toBe(201);
});

for (const theme of ["light", "dark"] as const) {
  test(`no serious contrast violation in the ${theme} theme`, async ({ page }) => {
    await page.addInitScript(([key, value]) => localStorage.setItem(key!, value!), [THEME_STORAGE_KEY, theme]);
    const problems: string[] = [];
    for (const path of PAGES) {
      await page.goto(path);
      // the theme really is the one under test
      await expect(page.locator("html")).toHaveClass(theme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b).*$/);
      const result = await new AxeBuilder({ page }).withRules(["color-contrast"]).analyze();
      for (const v of result.violations.filter((x) => x.impact === "serious" || x.impact === "critical")) {
        for (const node of v.nodes) problems.push(`${path}: ${node.target.join(" ")} ${node.failureSummary?.split("\n")[1] ?? ""}`);
      }
    }
    expect(problems).toEqual([]);
  });
}
