import { expect, test } from "@playwright/test";

/**
 * The group view and the decision analytics in a real
 * Chromium, on the demo's GRPO group (four rollouts of one SQL task, two fail).
 */
const GROUP = "grpo-step-1840-sql-top-customers";

interface GroupJson {
  divergence: { step: number; marks: { trace_id: string; event_id: string | null; distinct: boolean }[] } | null;
  rollouts: { trace_id: string; r_total: number; advantage: number | null }[];
}
interface DecisionsJson {
  traces: number;
  decisions: { key: string; taken: { e1: { rate: number | null; low: number | null; high: number | null; n: number } } }[];
}

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

test("the group view: from a trace to its group, rollouts in lanes, the divergence ringed", async ({ page, request }) => {
  const api = (await (await request.get(`/api/groups/${GROUP}`)).json()) as GroupJson;
  expect(api.divergence).not.toBeNull();
  await page.goto(`/traces/${api.rollouts[0]!.trace_id}`);
  await page.getByTestId("group-link").click();
  await expect(page).toHaveURL(new RegExp(`/groups/${GROUP}$`));
  await expect(page.getByTestId("group-title")).toHaveText(GROUP);
  const lanes = page.getByTestId("group-lane");
  await expect(lanes).toHaveCount(4);
  expect(await lanes.evaluateAll((ls) => ls.map((l) => l.getAttribute("data-trace-id")))).toEqual(api.rollouts.map((r) => r.trace_id));
  await expect(page.getByTestId("divergence-step")).toContainText(`step ${api.divergence!.step}`);
  // every rollout that has an event at the divergence step has it ringed; the distinct ones in red
  const ringed = page.locator("[data-testid=group-lane] [data-divergence]");
  await expect(ringed).toHaveCount(api.divergence!.marks.filter((m) => m.event_id !== null).length);
  await expect(page.locator("[data-divergence=distinct]")).toHaveCount(api.divergence!.marks.filter((m) => m.event_id !== null && m.distinct).length);
  for (const m of api.divergence!.marks.filter((x) => x.event_id !== null)) {
    await expect(page.locator(`[data-trace-id="${m.trace_id}"] [data-event-id="${m.event_id}"]`)).toHaveAttribute("data-divergence", m.distinct ? "distinct" : "shared");
  }
  await expect(page.getByTestId("group-rollout")).toHaveCount(4);
  await expect(page.getByTestId("group-choices")).toContainText("Only successful rollouts chose");
});

test("the decisions page: the observational caveat and Wilson intervals of the API", async ({ page, request }) => {
  const api = (await (await request.get(`/api/decisions?group_id=${GROUP}`)).json()) as DecisionsJson;
  await page.goto(`/decisions?group_id=${GROUP}`);
  await expect(page.getByTestId("observational-caveat")).toBeVisible();
  await expect(page.getByTestId("observational-caveat")).toContainText("never run");
  await expect(page.getByTestId("decisions-scope")).toContainText(`${api.traces} traces`);
  const stop = api.decisions.find((d) => d.key === "stop")!.taken.e1;
  const row = page.getByTestId("decision-stop").locator("[data-testid=outcome-row][data-label=taken]").first();
  await expect(row.getByTestId("wilson")).toHaveText(`${pct(stop.low!)}–${pct(stop.high!)}`);
  await page.getByRole("link", { name: "Decisions", exact: true }).click();
  await expect(page).toHaveURL(/\/decisions$/);
});

test("a group of step-clock runs (tau-bench) says steps on its axis, never seconds", async ({ page, request }) => {
  const { readFileSync } = await import("node:fs");
  const body = readFileSync("../shared/data/tau_bench/gpt-4o-airline.json", "utf8");
  const r = await request.post("/api/import?format=taubench&name=gpt-4o-airline.json&upsert=1", { headers: { "content-type": "application/octet-stream" }, data: body });
  expect(r.status()).toBe(201);
  await page.goto("/traces/taubench-gpt-4o-airline-task0-trial0");
  await page.getByTestId("group-link").click();
  await expect(page.getByTestId("group-axis-title")).toHaveText(/step axis \(steps since each rollout’s first step\)/);
  const ticks = await page.getByTestId("group-lanes").locator("text").allTextContents();
  expect(ticks.some((t) => /^\d+$/.test(t))).toBe(true);
  expect(ticks.filter((t) => /^\d+(\.\d+)? s$/.test(t))).toEqual([]);
  await expect(page.getByTestId("group-lanes")).toHaveAttribute("aria-label", /on one step axis$/);
});

test("R_total in a group says on hover what each family adds, and the parts add up to it", async ({ page, request }) => {
  const { readFileSync } = await import("node:fs");
  const body = readFileSync("../shared/data/tau_bench/gpt-4o-airline.json", "utf8");
  expect((await request.post("/api/import?format=taubench&name=gpt-4o-airline.json&upsert=1", { headers: { "content-type": "application/octet-stream" }, data: body })).status()).toBe(201);
  await page.goto("/traces/taubench-gpt-4o-airline-task0-trial0");
  await page.getByTestId("group-link").click();
  const rows = page.getByTestId("group-rollout");
  await expect(rows.first()).toBeVisible();
  const count = await rows.count();
  expect(count).toBeGreaterThan(1);
  for (let i = 0; i < count; i++) {
    const cell = rows.nth(i).getByTestId("r-total");
    const title = (await cell.getAttribute("title"))!;
    const [head, ...lines] = title.split("\n");
    expect(head).toBe("R_total = Σ w_f × R_f");
    // every line is "family weight × value = contribution"; they sum to the value shown
    const sum = lines.reduce((s, line) => {
      const m = /^([a-z_]+) (-?[\d.]+) × (-?[\d.]+) = (-?[\d.]+)$/.exec(line);
      expect(m, line).not.toBeNull();
      return s + Number(m![4]);
    }, 0);
    expect(Math.abs(sum - Number((await cell.textContent())!.replace(/,/g, "")))).toBeLessThan(0.01);
    // a failed rollout's outcome is among the parts, whatever else outweighs it
    if ((await rows.nth(i).textContent())!.includes("failure")) expect(lines.some((l) => l.startsWith("task_success 1 × "))).toBe(true);
  }
});
