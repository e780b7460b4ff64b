import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { startScriptedLlm, type ScriptedLlm } from "../scripts/lib/scripted-llm";

/**
 * "People first where judges disagree", in open local mode: two
 * judges (scripted OpenAI-compatible server on 127.0.0.1) label a trace's
 * step_quality anchors, alpha all three at +1, beta only e7 at -1; a queue
 * created from the form with "judge disagreement first" hands out e7 (the
 * one they disagree on) first, one in trace order hands out e4; the edit
 * form changes the order.
 */
const stamp = Date.now();
const project = `e2e-order-${stamp}`;
const traceId = `e2e-order-${stamp}`;
const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as object;
let llm: ScriptedLlm;

test.describe.configure({ mode: "serial" });

async function queueOf(request: APIRequestContext, name: string, eventTypes: string[]): Promise<number> {
  const res = await request.post("/api/queues", { data: { project, name, families: ["step_quality"], assignees: ["local@baton.localhost"], filter: { trace_ids: [traceId], event_types: eventTypes } } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { queue: { id: number } }).queue.id;
}

async function judgeOver(request: APIRequestContext, name: string, model: string, queueId: number) {
  const judge = await request.post("/api/judges", { data: { project, name, base_url: llm.url, model, families: ["step_quality"] } });
  expect(judge.status(), await judge.text()).toBe(201);
  const id = ((await judge.json()) as { judge: { id: number } }).judge.id;
  const run = await request.post(`/api/judges/${id}/runs`, { data: { queue_id: queueId } });
  expect(run.status(), await run.text()).toBe(201);
  const runId = ((await run.json()) as { run: { id: number } }).run.id;
  await expect.poll(async () => ((await (await request.get(`/api/judge-runs/${runId}`)).json()) as { run: { state: string } }).run.state, { timeout: 30_000 }).toBe("done");
}

test.beforeAll(async ({ request }) => {
  llm = await startScriptedLlm();
  expect((await request.post("/api/traces", { data: { ...example, trace_id: traceId, project } })).status()).toBe(201);
});

test.afterAll(async ({ request }) => {
  await request.delete(`/api/traces/${traceId}`);
  await llm.close();
});

test("a queue ordered by judge disagreement hands out the unit the judges disagree on first; the edit form changes the order", async ({ page, request }) => {
  test.setTimeout(120_000);
  await judgeOver(request, "alpha", "good:1", await queueOf(request, `all-${stamp}`, ["message", "return", "aggregate"]));
  await judgeOver(request, "beta", "good:-1", await queueOf(request, `e7-${stamp}`, ["return"]));

  const create = async (name: string, order: string) => {
    await page.goto("/queues/new");
    const form = page.getByRole("form", { name: "New queue" });
    await form.getByLabel("Name").fill(name);
    await form.getByLabel("Project").selectOption(project);
    await form.getByLabel("step_quality").check();
    await form.getByLabel("Traces (ids").fill(traceId);
    for (const t of ["message", "return", "aggregate"]) await form.getByLabel(t, { exact: true }).check();
    await page.getByTestId("queue-order").selectOption(order);
    await form.getByRole("button", { name: "Create queue" }).click();
    await expect(page.getByTestId("queue-title")).toHaveText(name);
    return new URL(page.url()).pathname.split("/").pop()!;
  };

  const judged = await create(`judged ${stamp}`, "judge_disagreement");
  await page.goto(`/queues/${judged}/work`);
  await expect(page.getByTestId("queue-item")).toHaveAttribute("data-event-id", "e7");

  const plain = await create(`plain ${stamp}`, "trace");
  await page.goto(`/queues/${plain}/work`);
  await expect(page.getByTestId("queue-item")).toHaveAttribute("data-event-id", "e4");

  await page.goto(`/queues/${plain}`);
  await page.getByTestId("queue-settings").locator("summary").click();
  await page.getByTestId("queue-order").selectOption("judge_disagreement");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect.poll(async () => ((await (await request.get(`/api/queues/${plain}`)).json()) as { order: string }).order).toBe("judge_disagreement");
  await page.reload();
  await page.getByTestId("queue-settings").locator("summary").click();
  await expect(page.getByTestId("queue-order")).toHaveValue("judge_disagreement");
});
