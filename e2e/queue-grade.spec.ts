import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext } from "@playwright/test";

/**
 * In open local mode the local user builds a
 * whole-trace queue (preview first) over a Who&When Magentic-One run, a
 * tau-bench conversation and a demo trace, and grades all three from the
 * queue without opening another page; task_success is stored 0/1. The
 * queue can be closed and reopened.
 */
const stamp = Date.now();

async function importFile(request: APIRequestContext, path: string, name: string): Promise<string> {
  const response = await request.post(`/api/import?name=${encodeURIComponent(name)}&upsert=1`, { data: readFileSync(path, "utf8"), headers: { "content-type": "application/json" } });
  expect(response.status()).toBe(201);
  const body = (await response.json()) as { traces: { trace_id: string }[] };
  return body.traces[0]!.trace_id;
}

test("grades a Who&When run, a tau-bench conversation and a demo trace from one queue, in open local mode", async ({ page, request }) => {
  test.setTimeout(120_000);
  const whowhen = await importFile(request, "../shared/data/who_and_when/Hand-Crafted/1.json", "1.json");
  const taubench = await importFile(request, "../shared/data/tau_bench/gpt-4o-airline.json", "gpt-4o-airline.json");
  const demo = "demo-research-na-ion-vs-lfp";
  const ids = [whowhen, taubench, demo];

  await page.goto("/queues/new");
  const form = page.getByRole("form", { name: "New queue" });
  await form.getByLabel("Name").fill(`grade ${stamp}`);
  await form.getByLabel("task_success").check();
  await form.getByLabel("Unit").selectOption("trace");
  await form.getByLabel("Traces (ids").fill(ids.join(","));
  await form.getByTestId("queue-preview-button").click();
  await expect(page.getByTestId("queue-preview")).toHaveText("3 items match");
  await form.getByRole("button", { name: "Create queue" }).click();
  await expect(page.getByTestId("queue-title")).toHaveText(`grade ${stamp}`);
  const queueId = new URL(page.url()).pathname.split("/").pop()!;

  await page.getByRole("link", { name: "Start labeling" }).click();
  const graded: string[] = [];
  for (let i = 0; i < 3; i++) {
    const item = page.getByTestId("queue-item");
    await expect(item).toBeVisible();
    const trace = (await item.getAttribute("data-trace-id"))!;
    await expect(page.getByTestId("unit-context")).toHaveAttribute("data-unit", "trace");
    // the task and the final answer are in front of the annotator
    await expect(page.getByTestId("trace-task")).not.toHaveText("no content");
    await expect(page.getByTestId("trace-answer")).toBeVisible();
    if (trace === taubench) {
      // tau-bench: the task's instruction and the agent's last turn as text, not the user simulator's ###STOP###
      await expect(page.getByTestId("trace-task")).toContainText("mia_li_3668");
      await expect(page.getByTestId("trace-answer")).toContainText("successfully booked");
      await expect(page.getByTestId("trace-answer")).not.toContainText("###STOP###");
    }
    await expect(page.getByTestId("rubric-task_success")).toContainText("The task was done");
    await page.keyboard.press("3"); // no third option: nothing is chosen
    await expect(page.locator('[data-testid^=option-task_success][data-chosen="true"]')).toHaveCount(0);
    await page.keyboard.press(i === 0 ? "1" : "2");
    await page.keyboard.press("Control+Enter");
    await expect(page.getByTestId("queue-item").and(page.locator(`[data-trace-id="${trace}"]`))).toHaveCount(0);
    graded.push(trace);
  }
  await expect(page.getByTestId("queue-empty")).toContainText("you labelled 3 items");
  expect(new URL(page.url()).pathname).toBe(`/queues/${queueId}/work`);
  expect([...graded].sort()).toEqual([...ids].sort());

  for (const [k, id] of graded.entries()) {
    const { annotations } = (await (await request.get(`/api/traces/${encodeURIComponent(id)}/annotations`)).json()) as { annotations: { event_id: string | null; family: string; value: number }[] };
    expect(annotations.filter((a) => a.event_id === null && a.family === "task_success").map((a) => a.value)).toEqual([k === 0 ? 0 : 1]);
    const rows = (await (await request.get(`/api/traces/${encodeURIComponent(id)}/export?format=jsonl`)).text()).trim().split("\n").map((l) => JSON.parse(l) as { rewards: Record<string, number> });
    for (const r of rows) expect(Math.abs(r.rewards.task_success ?? 0)).toBeLessThanOrEqual(1);
  }

  // close, see it closed in the work view, reopen
  await page.goto(`/queues/${queueId}`);
  await page.getByTestId("queue-settings").locator("summary").click();
  await page.getByTestId("queue-close-toggle").click();
  await expect(page.getByTestId("queue-closed-badge")).toBeVisible();
  await page.goto(`/queues/${queueId}/work`);
  await expect(page.getByTestId("queue-closed")).toContainText("closed");
  await page.goto(`/queues/${queueId}`);
  await page.getByTestId("queue-settings").locator("summary").click();
  await page.getByTestId("queue-close-toggle").click();
  await expect(page.getByTestId("queue-closed-badge")).toHaveCount(0);
});

test("in open local mode the new-queue page says how to get a second annotator, and so does the refusal", async ({ page, request }) => {
  await page.goto("/queues/new");
  const note = page.getByTestId("open-mode-annotators");
  await expect(note).toContainText("Agreement needs two people or more, each with an account");
  await expect(note.getByRole("link", { name: "admin page" })).toHaveAttribute("href", "/admin");
  await expect(page.getByRole("form", { name: "New queue" }).getByLabel("Annotators per item")).toHaveAttribute("max", "1");
  const refused = await request.post("/api/queues", { data: { name: `two ${stamp}`, families: ["step_quality"], annotators_per_item: 2, assignees: ["local@baton.localhost"], filter: {} } });
  expect(refused.status()).toBe(400);
  const details = ((await refused.json()) as { error: { details: { path: string; message: string }[] } }).error.details;
  expect(details).toEqual([{ path: "$.annotators_per_item", message: expect.stringContaining("create the first admin") }]);
});
