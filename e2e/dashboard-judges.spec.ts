import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { startScriptedLlm, type ScriptedLlm } from "../scripts/lib/scripted-llm";

/**
 * The dashboard's "with judges" switch, in open local mode: a run that
 * reports task_success 1 is judged a failure (0) by a scripted judge
 * (127.0.0.1); the dashboard's E1 is 1 for people only and 0 with judges,
 * as GET /api/metrics?judges=all says; a person's label then wins over the judge.
 * The label page's switch adds a judge's step_quality value to the credit
 * of a step no person labelled.
 */
const stamp = Date.now();
const project = `e2e-dj-${stamp}`;
const traceId = `e2e-dj-${stamp}`;
const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as object;
let llm: ScriptedLlm;

test.describe.configure({ mode: "serial" }); // the heatmap test opens the label test's trace

test.beforeAll(async ({ request }) => {
  llm = await startScriptedLlm();
  expect((await request.post("/api/traces", { data: { ...example, trace_id: traceId, project } })).status()).toBe(201);
});

test.afterAll(async ({ request }) => {
  await request.delete(`/api/traces/${traceId}`);
  await request.delete(`/api/traces/${traceId}-steps`);
  await llm.close();
});

async function judgeRun(request: APIRequestContext, data: Record<string, unknown>, filter: Record<string, unknown>) {
  const judge = await request.post("/api/judges", { data: { base_url: llm.url, ...data } });
  expect(judge.status(), await judge.text()).toBe(201);
  const id = ((await judge.json()) as { judge: { id: number } }).judge.id;
  const run = await request.post(`/api/judges/${id}/runs`, { data: { filter } });
  expect(run.status(), await run.text()).toBe(201);
  const runId = ((await run.json()) as { run: { id: number } }).run.id;
  await expect.poll(async () => ((await (await request.get(`/api/judge-runs/${runId}`)).json()) as { run: { state: string } }).run.state, { timeout: 30_000 }).toBe("done");
}

test("the label page's judges switch adds a judge's value to the credit of a step no person labelled", async ({ page, request }) => {
  test.setTimeout(90_000);
  const steps = `${traceId}-steps`;
  // a project of its own: the dashboard test counts the runs of `project`
  expect((await request.post("/api/traces", { data: { ...example, trace_id: steps, project: steps } })).status()).toBe(201);
  await judgeRun(request, { project: steps, name: "steps", model: "good:0.5", families: ["step_quality"] }, { trace_ids: [steps] });
  const creditOf = async () => {
    await expect.poll(async () => page.getByTestId("credit-e8").getAttribute("data-value")).not.toBe("");
    return Number(await page.getByTestId("credit-e8").getAttribute("data-value"));
  };
  await page.goto(`/traces/${steps}/label`);
  await expect(page.getByTestId("label-judges")).toHaveAttribute("aria-checked", "false");
  const without = await creditOf();
  await page.getByTestId("label-judges").click();
  await expect(page).toHaveURL(/judges=all/);
  await expect(page.getByTestId("label-judges")).toHaveAttribute("aria-checked", "true");
  // step_quality is local with weight 1 under uniform: the judge's 0.5 at e8 adds exactly 0.5
  await expect.poll(creditOf).toBeCloseTo(without + 0.5, 9);
});

test("the dashboard's judges switch changes E1 where no person labelled the run", async ({ page, request }) => {
  test.setTimeout(90_000);
  await judgeRun(request, { project, name: "scripted", model: "good:0", families: ["task_success"] }, { trace_ids: [traceId] });

  await page.goto(`/dashboard?project=${project}`);
  const toggle = page.getByTestId("dashboard-judges");
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  await expect(page.getByTestId("e1-card")).toHaveAttribute("data-rate", "1");
  await toggle.click();
  await expect(page).toHaveURL(/judges=all/);
  await expect(page.getByTestId("dashboard-judges")).toHaveAttribute("aria-checked", "true");
  await expect(page.getByTestId("e1-card")).toHaveAttribute("data-rate", "0");
  const api = (await (await request.get(`/api/metrics?project=${project}&judges=all`)).json()) as { e1: { rate: number } };
  expect(api.e1.rate).toBe(0);

  // a person's label wins over the judge
  expect((await request.post(`/api/traces/${traceId}/annotations`, { data: { family: "task_success", value: 1 } })).status()).toBe(201);
  await page.reload();
  await expect(page.getByTestId("e1-card")).toHaveAttribute("data-rate", "1");
  await page.getByTestId("dashboard-judges").click();
  await expect(page.getByTestId("dashboard-judges")).toHaveAttribute("aria-checked", "false");
});

test("the heatmaps' judges switch puts judges=all in the URL and stays checked", async ({ page }) => {
  const steps = `${traceId}-steps`;
  await page.goto(`/traces/${steps}/heatmap?kind=event-family`);
  await expect(page.getByTestId("control-judges")).not.toBeChecked();
  await page.getByTestId("control-judges").check();
  await expect(page).toHaveURL(/judges=all/);
  await expect(page.getByTestId("control-judges")).toBeChecked();
  await expect(page.getByTestId("heatmap-problem")).toHaveCount(0);
  await page.goto(`/heatmaps?project=${steps}`);
  await page.getByTestId("control-judges").check();
  await expect(page).toHaveURL(/judges=all/);
  await expect(page.getByTestId("control-judges")).toBeChecked();
});
