import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { apiSignIn, cleanUp, freshSetupPath, pageSignIn, PASSWORD } from "./lib/accounts";

/**
 * A queue that asks for each trace's decisive error, end to end with
 * accounts: the admin builds it (pasted ids, one unknown id named, a
 * preview that follows every change), one annotator names the decisive
 * error with `w` and finds another with the guided questions, a second
 * names a different event and skips a trace; the queue page counts the
 * skip apart and shows the decisive-error agreement; the admin settles the
 * disagreement and the export marks the adjudicated event.
 */
const stamp = Date.now();
const suffix = `-${stamp}@example.test`;
const admin = { email: `dqadmin${suffix}`, name: "Decisive Admin" };
const ann1 = { email: `dq1${suffix}`, name: "Dee One" };
const ann2 = { email: `dq2${suffix}`, name: "Dee Two" };
const [traceA, traceB] = [`e2e-dq-${stamp}-a`, `e2e-dq-${stamp}-b`];
const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as { events: { id: string; agent: string }[] };
const order = example.events.map((e) => e.id); // e1 … e8: e5 is executor_1's tool call, e8 the orchestrator's aggregate

test.describe.configure({ mode: "serial" });

let adminApi: APIRequestContext;
let adminHeaders: Record<string, string>;

test.beforeAll(async ({ playwright, baseURL }) => {
  adminApi = await playwright.request.newContext({ baseURL });
  const token = new URL(freshSetupPath(), "http://x").searchParams.get("token")!;
  expect((await adminApi.post("/api/auth/setup", { data: { token, email: admin.email, name: admin.name, password: PASSWORD } })).ok()).toBe(true);
  adminHeaders = await apiSignIn(adminApi, admin.email);
  for (const u of [ann1, ann2]) {
    const created = await adminApi.post("/api/admin/users", { headers: adminHeaders, data: { ...u, password: PASSWORD, memberships: [{ project: "default", role: "annotator" }] } });
    expect(created.status()).toBe(201);
  }
  expect((await adminApi.post("/api/traces", { headers: adminHeaders, data: [{ ...example, trace_id: traceA }, { ...example, trace_id: traceB }] })).status()).toBe(201);
});

test.afterAll(async () => {
  await cleanUp(adminApi, admin.email, suffix, [traceA, traceB]);
  await adminApi.dispose();
});

const decisiveRows = async (traceId: string) =>
  (await (await adminApi.get(`/api/traces/${traceId}/export?format=jsonl`)).text()).trim().split("\n")
    .map((l) => JSON.parse(l) as { event_id: string; decisive_error: boolean | null })
    .filter((r) => r.decisive_error)
    .map((r) => r.event_id);

/** Waits for the held item of `traceId` with all its events listed, the first one selected. */
async function holds(page: Page, traceId: string) {
  await expect(page.getByTestId("queue-item")).toHaveAttribute("data-trace-id", traceId);
  const unit = page.getByTestId("queue-decisive");
  await expect(unit.locator("[data-testid=label-row][data-event-id]")).toHaveCount(order.length);
  await expect(unit.getByTestId("unit-context")).toHaveAttribute("data-event-id", "e1");
  return unit;
}

/**
 * Selects the event with the arrow keys and names it with `w`, then submits.
 * (A decisive-error write retrains the attribution models in the background:
 * on two busy cores the next item can take seconds, hence the longer waits.)
 */
async function nameWithW(page: Page, traceId: string, eventId: string, agent: string) {
  const unit = await holds(page, traceId);
  for (let i = 0; i < order.indexOf(eventId); i++) await page.keyboard.press("ArrowRight");
  await expect(unit.getByTestId("unit-context")).toHaveAttribute("data-event-id", eventId);
  await page.keyboard.press("w");
  await expect(page.getByTestId("decisive-message")).toHaveText(`saved: the run went wrong at ${eventId} (${agent})`);
  await expect(page.getByTestId("queue-decisive-status")).toContainText("is saved");
  await page.keyboard.press("Control+Enter");
  await expect(page.getByTestId("queue-item").and(page.locator(`[data-trace-id="${traceId}"]`))).toHaveCount(0, { timeout: 30_000 });
}

test("a decisive-error queue: two annotators disagree, a skip is counted apart, the admin adjudicates, the export follows", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await pageSignIn(page, admin.email, admin.name);
  await page.goto("/queues/new");
  const form = page.getByRole("form", { name: "New queue" });
  await form.getByLabel("Name").fill(`decisive ${stamp}`);
  await form.getByLabel("Annotators per item").fill("2");
  await form.getByLabel("decisive_error").check();
  await expect(form.getByLabel("Unit")).toHaveValue("trace"); // asked of whole traces
  // pasted one per line, with a typo: the unknown id is named
  await form.getByLabel("Traces (ids").fill(`${traceA}\nnope-${stamp}\n${traceB}`);
  await form.getByTestId("queue-preview-button").click();
  await expect(page.getByTestId("queue-preview")).toContainText(`$.filter.trace_ids[1]: no trace "nope-${stamp}" in this project`);
  // the preview follows the form: fixing the ids, then changing a filter, counts again without a click
  await form.getByLabel("Traces (ids").fill(`${traceA}, ${traceB}`);
  await expect(page.getByTestId("queue-preview")).toHaveText("2 items match");
  await form.locator("select[name=e1]").selectOption("0");
  await expect(page.getByTestId("queue-preview")).toHaveText("0 items match"); // both runs succeeded
  await form.locator("select[name=e1]").selectOption("");
  await expect(page.getByTestId("queue-preview")).toHaveText("2 items match");
  await form.getByLabel(ann1.name, { exact: false }).check();
  await form.getByLabel(ann2.name, { exact: false }).check();
  await form.getByRole("button", { name: "Create queue" }).click();
  await expect(page.getByTestId("queue-title")).toHaveText(`decisive ${stamp}`);
  const queueId = new URL(page.url()).pathname.split("/").pop()!;

  const contexts = await Promise.all([browser.newContext(), browser.newContext()]);
  const [one, two] = await Promise.all(contexts.map((c) => c.newPage()));
  await pageSignIn(one!, ann1.email, ann1.name);
  await pageSignIn(two!, ann2.email, ann2.name);

  // Dee One: e5 on trace A with `w`; on trace B the guided questions, answered truthfully for e5
  await one!.goto(`/queues/${queueId}/work`);
  await nameWithW(one!, traceA, "e5", "executor_1");
  await holds(one!, traceB);
  await expect(one!.getByTestId("queue-submit")).toBeDisabled(); // nothing named yet
  await one!.getByTestId("guided-start").click();
  const d = order.indexOf("e5");
  let answers = 0;
  for (;;) {
    const done = one!.getByTestId("guided-done");
    const question = one!.getByTestId("guided-question");
    await expect(done.or(question)).toBeVisible();
    if (await done.isVisible()) break;
    const k = Number(await question.getAttribute("data-k"));
    await one!.keyboard.press(k < d ? "y" : "n");
    answers++;
    // the same step may be asked twice (a last check of the step before the decisive one): wait for the answer to count
    await expect(one!.getByTestId("guided")).toContainText(`· ${answers} answer${answers === 1 ? "" : "s"} so far`);
  }
  await expect(one!.getByTestId("guided-done")).toHaveAttribute("data-event-id", "e5");
  await one!.getByTestId("guided-save").click();
  await expect(one!.getByTestId("decisive-message")).toContainText("saved: the run went wrong at e5");
  await one!.getByTestId("queue-submit").click();
  await expect(one!.getByTestId("queue-empty")).toBeVisible({ timeout: 30_000 });

  // Dee Two (blind queue: Dee One's answer is not shown): e8 on trace A, skips trace B
  await two!.goto(`/queues/${queueId}/work`);
  await holds(two!, traceA);
  await expect(two!.getByTestId("decisive-labels")).toContainText("others' are hidden");
  await expect(two!.locator("[data-testid=decisive-label]")).toHaveCount(0);
  await nameWithW(two!, traceA, "e8", "orchestrator");
  await holds(two!, traceB);
  await two!.keyboard.press("x");
  await two!.getByTestId("skip-reason-3").click();
  await expect(two!.getByTestId("queue-empty")).toBeVisible({ timeout: 30_000 });
  await Promise.all(contexts.map((c) => c.close()));

  // trace A: both named it (e5 vs e8: other event, other agent); trace B: one did, one skipped
  await page.goto(`/queues/${queueId}`);
  await expect(page.getByTestId("count-complete")).toHaveText("1");
  await expect(page.getByTestId("count-skipped")).toHaveText("1");
  await expect(page.getByTestId("count-pending")).toHaveText("0");
  await expect(page.getByTestId("progress").filter({ hasText: ann2.name })).toHaveAttribute("data-skipped", "1");
  await expect(page.getByTestId("progress").filter({ hasText: ann2.name })).toHaveAttribute("data-done", "1");
  await expect(page.getByTestId("decisive-traces")).toHaveText("1");
  await expect(page.getByTestId("decisive-same-event")).toHaveText("0 %");
  await expect(page.getByTestId("decisive-same-agent")).toHaveText("0 %");

  // before adjudication the export marks the event named first (a tie of one each)
  expect(await decisiveRows(traceA)).toEqual(["e5"]);
  await page.getByRole("link", { name: "Disagreements" }).click();
  await expect(page.getByTestId("decisive-disagreement")).toHaveCount(1);
  const row = page.getByTestId("decisive-disagreement");
  await expect(row).toHaveAttribute("data-trace-id", traceA);
  await expect(row).toContainText(`${ann1.name}: e5 (executor_1)`);
  await expect(row).toContainText(`${ann2.name}: e8 (orchestrator)`);
  await row.getByRole("button", { name: "e8 (orchestrator)" }).click();
  await expect(row.getByRole("button", { name: "e8 (orchestrator)" })).toHaveAttribute("aria-pressed", "true");
  expect(await decisiveRows(traceA)).toEqual(["e8"]);
  expect(await decisiveRows(traceB)).toEqual(["e5"]);
});
