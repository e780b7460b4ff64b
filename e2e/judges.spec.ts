import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { startScriptedLlm, type ScriptedLlm } from "../scripts/lib/scripted-llm";

/**
 * Judges end to end in open local mode: a judge pointed at the scripted
 * OpenAI-compatible server (127.0.0.1, started by this test) is created
 * from the judges page, run from the page over a queue of the project, and
 * the agreement with a person's labels appears; the API key is in no page
 * or API response; the graph's "with judges" toggle changes credit.
 */
const stamp = Date.now();
const project = `e2e-judges-${stamp}`;
const traceId = `e2e-judges-${stamp}`;
const KEY = `sk-e2e-${stamp}-secret`;
const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as object;
let llm: ScriptedLlm;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  llm = await startScriptedLlm();
  expect((await request.post("/api/traces", { data: { ...example, trace_id: traceId, project } })).status()).toBe(201);
});

test.afterAll(async ({ request }) => {
  await request.delete(`/api/traces/${traceId}`);
  await llm.close();
});

test("a judge labels a queue from the interface and its agreement with people shows", async ({ page, request }) => {
  // a person labels two of the step_quality anchors
  for (const [event_id, value] of [["e4", 1], ["e7", -1]] as const) {
    expect((await request.post(`/api/traces/${traceId}/annotations`, { data: { event_id, family: "step_quality", value } })).status()).toBe(201);
  }
  const queue = await request.post("/api/queues", { data: { project, name: `q-${stamp}`, families: ["step_quality"], annotators_per_item: 1, assignees: ["local@baton.localhost"], filter: { trace_ids: [traceId], event_types: ["message", "return", "aggregate"] } } });
  expect(queue.status(), await queue.text()).toBe(201);
  const queueId = ((await queue.json()) as { queue: { id: number } }).queue.id;

  await page.goto("/judges");
  const form = page.getByTestId("judge-form");
  await form.locator("select[name=project]").selectOption(project);
  await form.locator("input[name=name]").fill("scripted");
  await form.locator("input[name=base_url]").fill(llm.url);
  await form.locator("input[name=model]").fill("good:0.5");
  await form.locator("input[name=api_key]").fill(KEY);
  await form.locator("input[value=task_success]").uncheck();
  await form.locator("input[value=step_quality]").check();
  await page.getByTestId("judge-create").click();
  const row = page.getByTestId("judge-row").filter({ hasText: "scripted" }).filter({ hasText: project });
  await expect(row).toContainText("key set");
  expect(await page.content()).not.toContain(KEY);

  await row.locator("select[name=over]").selectOption("queue");
  await row.locator("input[name=what]").fill(String(queueId));
  await row.getByTestId("judge-run-start").click();
  await expect(row.getByTestId("judge-run").first()).toHaveAttribute("data-state", "done", { timeout: 30_000 });
  await expect(row.getByTestId("progress").first()).toHaveAttribute("data-done", "3");
  expect(llm.requests.every((r) => r.authorization === `Bearer ${KEY}`)).toBe(true);

  // pairs (judge, person): e4 (0.5, 1), e7 (0.5, -1): alpha = 1 - D_o / D_e with values 0.5, 1, 0.5, -1
  // D_o = (2 x 0.25 + 2 x 2.25) / 4 = 1.25; D_e = 2 x 4 x (sum v^2 = 2.5) - 2 x (sum v = 1)^2 = 18, / 12 = 1.5; alpha = 1 - 1.25/1.5 = 0.167
  const trust = page.getByTestId("agreement-row").filter({ hasText: project });
  await expect(trust).toContainText("step_quality");
  await expect(trust).toContainText("0.167");
  await expect(trust).toContainText("0.500"); // mean difference: (-0.5 + 1.5) / 2
  expect(await page.content()).not.toContain(KEY);
  const judges = await request.get("/api/judges");
  expect(await judges.text()).not.toContain(KEY);

  // the judge's own instructions are edited on the page and reach the model after the rubric
  const prompts = row.getByTestId("judge-prompts");
  await prompts.locator("summary").click();
  await prompts.locator("textarea[name='prompt.step_quality']").fill("Be strict about tone.");
  await prompts.getByRole("button", { name: "Save prompts" }).click();
  await expect(prompts.getByRole("status")).toHaveText("saved");
  await expect(prompts.locator("summary")).toContainText("1 of 1 families have their own");
  const before = llm.requests.length;
  await row.locator("select[name=over]").selectOption("queue");
  await row.locator("input[name=what]").fill(String(queueId));
  await row.getByTestId("judge-run-start").click();
  await expect(row.getByTestId("judge-run")).toHaveCount(2);
  await expect(row.getByTestId("judge-run").first()).toHaveAttribute("data-state", "done", { timeout: 30_000 });
  const asked = llm.requests.slice(before).map((r) => r.body.messages.find((m) => m.role === "system")?.content ?? "");
  expect(asked.length).toBeGreaterThan(0);
  for (const system of asked) expect(system).toMatch(/step_quality[\s\S]*Be strict about tone\.$/);

  // credit: e8 has no person's label, so only "with judges" gives it the judge's 0.5
  const without = (await (await request.get(`/api/traces/${traceId}/credit`)).json()) as { events: { id: string; by_family: Record<string, number> }[] };
  const withJudges = (await (await request.get(`/api/traces/${traceId}/credit?judges=all`)).json()) as typeof without;
  expect(without.events.find((e) => e.id === "e8")!.by_family.step_quality).toBe(0);
  expect(withJudges.events.find((e) => e.id === "e8")!.by_family.step_quality).toBe(0.5);
  await page.goto(`/traces/${encodeURIComponent(traceId)}/graph?ov=credit`);
  await page.getByTestId("credit-judges").check();
  await expect(page).toHaveURL(/judges=all/);
});

test("a run over chosen traces shows, unit by unit, which failed and what the model replied", async ({ page, request }) => {
  const judge = await request.post("/api/judges", { data: { project, name: `garbage-${stamp}`, base_url: llm.url, model: "garbage", families: ["step_quality"] } });
  expect(judge.status(), await judge.text()).toBe(201);
  await page.goto("/judges");
  const row = page.getByTestId("judge-row").filter({ hasText: `garbage-${stamp}` });
  // a kind that needs a value says so instead of starting a run over everything
  await row.locator("select[name=over]").selectOption("traces");
  await row.getByTestId("judge-run-start").click();
  await expect(row.getByRole("alert")).toHaveText("give trace ids, comma-separated");
  await expect(row.getByTestId("judge-run")).toHaveCount(0);
  await row.locator("input[name=what]").fill(traceId);
  await row.getByTestId("judge-run-start").click();
  await expect(row.getByTestId("judge-run").first()).toHaveAttribute("data-state", "done", { timeout: 30_000 });

  await row.getByTestId("judge-run-link").first().click();
  await expect(page.getByTestId("judge-run-title")).toContainText(`garbage-${stamp}`);
  // the example's step_quality anchors (e1, e4, e7, e8): every reply was prose, so every unit failed
  await expect(page.getByTestId("unit-state-failed")).toHaveText("failed 4");
  await expect(page.getByTestId("unit-state-done")).toHaveText("done 0");
  const units = page.getByTestId("judge-unit");
  await expect(units).toHaveCount(4);
  await expect(units.first()).toHaveAttribute("data-state", "failed");
  await expect(units.first().getByTestId("unit-error")).toContainText("not JSON");
  await units.first().locator("summary").click();
  await expect(units.first().getByTestId("unit-raw")).toHaveText("Looks fine to me, I'd say pretty good overall.");
  await page.getByTestId("unit-state-done").click();
  await expect(page).toHaveURL(/state=done/);
  await expect(page.getByTestId("judge-unit")).toHaveCount(0);
});

test("with judges on, the label page shows each judge's value and reason beside people's, and which one credit uses", async ({ page }) => {
  // e7: a person said -1, the scripted judge 0.5; e8: only the judge
  await page.goto(`/traces/${encodeURIComponent(traceId)}/label?event=e7`);
  await expect(page.getByTestId("unit-panel")).toBeVisible();
  await expect(page.getByTestId("unit-values")).toHaveCount(0); // people only: nothing of the judges in sight
  await page.getByTestId("label-judges").click();
  await expect(page).toHaveURL(/judges=all/);
  const e7 = page.getByTestId("unit-values").getByTestId("judged-step_quality");
  await expect(e7).toHaveAttribute("data-in-credit", "people");
  await expect(e7.getByTestId("judge-answer")).toHaveText("judge scripted: 0.5 — “scripted answer”");
  await expect(e7).toContainText("people: 1 (mean -1) · credit uses people's labels");
  await page.goto(`/traces/${encodeURIComponent(traceId)}/label?event=e8&judges=all`);
  const e8 = page.getByTestId("unit-values").getByTestId("judged-step_quality");
  await expect(e8).toHaveAttribute("data-in-credit", "judges");
  await expect(e8).toContainText("people: none · credit uses the judges' value (no person labelled)");
});
