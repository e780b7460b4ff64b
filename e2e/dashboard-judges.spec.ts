import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { startScriptedLlm, type ScriptedLlm } from "../scripts/lib/scripted-llm";

/**
 * The dashboard's "with judges" switch, in open local mode: a run that
 * reports task_success 1 is judged a failure (0) by a scripted judge
 * (127.0.0.1); the dashboard's E1 is 1 for people only and 0 with judges,
 * as GET /api/metrics?judges=all says; a person's label then wins over the judge.
 */
const stamp = Date.now();
const project = `e2e-dj-${stamp}`;
const traceId = `e2e-dj-${stamp}`;
const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as object;
let llm: ScriptedLlm;

test.beforeAll(async ({ request }) => {
  llm = await startScriptedLlm();
  expect((await request.post("/api/traces", { data: { ...example, trace_id: traceId, project } })).status()).toBe(201);
});

test.afterAll(async ({ request }) => {
  await request.delete(`/api/traces/${traceId}`);
  await llm.close();
});

test("the dashboard's judges switch changes E1 where no person labelled the run", async ({ page, request }) => {
  test.setTimeout(90_000);
  const judge = await request.post("/api/judges", { data: { project, name: "scripted", base_url: llm.url, model: "good:0", families: ["task_success"] } });
  expect(judge.status(), await judge.text()).toBe(201);
  const id = ((await judge.json()) as { judge: { id: number } }).judge.id;
  const run = await request.post(`/api/judges/${id}/runs`, { data: { filter: { trace_ids: [traceId] } } });
  expect(run.status(), await run.text()).toBe(201);
  const runId = ((await run.json()) as { run: { id: number } }).run.id;
  await expect.poll(async () => ((await (await request.get(`/api/judge-runs/${runId}`)).json()) as { run: { state: string } }).run.state, { timeout: 30_000 }).toBe("done");

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
