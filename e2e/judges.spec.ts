import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { startScriptedLlm, type ScriptedLlm } from "../scripts/lib/scripted-llm";

/**
 * Issue 15 end to end in open local mode: a judge pointed at the scripted
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

  await row.locator("input[name=queue]").fill(String(queueId));
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
  await row.locator("input[name=queue]").fill(String(queueId));
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
