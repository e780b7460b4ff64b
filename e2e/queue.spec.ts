import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { apiSignIn, cleanUp, freshSetupPath, pageSignIn, PASSWORD } from "./lib/accounts";

/**
 * Labeling and queues end to end, with accounts: an annotator labels with the
 * keyboard and sees credit move, signs out, and the export carries the label;
 * an admin builds a queue with N = 2 for two annotators, both work through it
 * with the keyboard in their own browser contexts, the admin sees alpha and
 * the disagreement, adjudicates it, and the credit of that event follows.
 */
const stamp = Date.now();
const suffix = `-${stamp}@example.test`;
const admin = { email: `qadmin${suffix}`, name: "Queue Admin" };
const ann1 = { email: `ann1${suffix}`, name: "Ann One" };
const ann2 = { email: `ann2${suffix}`, name: "Ann Two" };
const viewer = { email: `viewer${suffix}`, name: "Vic Viewer" };
const traceId = `e2e-queue-${stamp}`;
const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as object;

test.describe.configure({ mode: "serial" });

let adminApi: APIRequestContext;
let adminHeaders: Record<string, string>;

test.beforeAll(async ({ playwright, baseURL }) => {
  adminApi = await playwright.request.newContext({ baseURL });
  const token = new URL(freshSetupPath(), "http://x").searchParams.get("token")!;
  expect((await adminApi.post("/api/auth/setup", { data: { token, email: admin.email, name: admin.name, password: PASSWORD } })).ok()).toBe(true);
  adminHeaders = await apiSignIn(adminApi, admin.email);
  for (const u of [ann1, ann2, viewer]) {
    const role = u === viewer ? "viewer" : "annotator";
    const created = await adminApi.post("/api/admin/users", { headers: adminHeaders, data: { ...u, password: PASSWORD, memberships: [{ project: "default", role }] } });
    expect(created.status()).toBe(201);
  }
  expect((await adminApi.post("/api/traces", { headers: adminHeaders, data: { ...example, trace_id: traceId } })).status()).toBe(201);
});

test.afterAll(async () => {
  await cleanUp(adminApi, admin.email, suffix, [traceId]);
  expect(((await (await adminApi.get("/api/auth/session")).json()) as { open_mode: boolean }).open_mode).toBe(true);
  await adminApi.dispose();
});

const stepQuality = async (eventId: string) => {
  const credit = (await (await adminApi.get(`/api/traces/${traceId}/credit`)).json()) as { events: { id: string; by_family: Record<string, number> }[] };
  return credit.events.find((e) => e.id === eventId)!.by_family.step_quality;
};

test("an annotator signs in, labels with the keyboard, sees credit move, signs out; the export has the label", async ({ page }) => {
  await pageSignIn(page, ann1.email, ann1.name);
  await page.goto(`/traces/${traceId}/label`);
  await expect(page.locator("[data-testid=label-row][data-event-id]")).toHaveCount(8);
  await expect.poll(async () => page.getByTestId("credit-e4").getAttribute("data-value")).not.toBe("");
  const before = Number(await page.getByTestId("credit-e4").getAttribute("data-value"));
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  await page.keyboard.press("5");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("chip-e4-step_quality")).toHaveAttribute("data-status", "saved");
  await expect.poll(async () => Number(await page.getByTestId("credit-e4").getAttribute("data-value"))).toBeCloseTo(before + 1, 9);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByTestId("sign-in-link")).toBeVisible();

  const rows = (await (await adminApi.get(`/api/traces/${traceId}/export?format=jsonl`)).text()).trim().split("\n").map((l) => JSON.parse(l) as { event_id: string; rewards: Record<string, number> });
  expect(rows).toHaveLength(8);
  expect(rows.find((r) => r.event_id === "e4")!.rewards.step_quality).toBe(1);
});

async function workThrough(page: Page, queueId: string, keys: string[]) {
  await page.goto(`/queues/${queueId}/work`);
  for (const key of keys) {
    const item = page.getByTestId("queue-item");
    await expect(item).toBeVisible();
    const id = await item.getAttribute("data-item-id");
    await expect(page.getByTestId("unit-context")).toHaveAttribute("data-event-id", (await item.getAttribute("data-event-id"))!);
    await page.keyboard.press(key);
    await page.keyboard.press("Control+Enter");
    await expect(page.getByTestId("queue-item").and(page.locator(`[data-item-id="${id}"]`))).toHaveCount(0);
  }
  await expect(page.getByTestId("queue-empty")).toBeVisible();
}

test("a queue with N = 2: two annotators, agreement, a disagreement adjudicated, credit follows", async ({ page, browser }) => {
  await pageSignIn(page, admin.email, admin.name);
  await page.goto("/queues/new");
  const form = page.getByRole("form", { name: "New queue" });
  await form.getByLabel("Name").fill(`steps ${stamp}`);
  await form.getByLabel("Annotators per item").fill("2");
  await form.getByLabel("Traces (ids").fill(traceId);
  await form.getByLabel("step_quality").check();
  for (const t of ["message", "return", "aggregate"]) await form.getByRole("checkbox", { name: t, exact: true }).check();
  await form.getByLabel(ann1.name, { exact: false }).check();
  await form.getByLabel(ann2.name, { exact: false }).check();
  await form.getByRole("button", { name: "Create queue" }).click();
  await expect(page.getByTestId("queue-title")).toHaveText(`steps ${stamp}`);
  const queueId = new URL(page.url()).pathname.split("/").pop()!;

  // a viewer is told at once that they can read but not label, never left waiting
  const viewerContext = await browser.newContext();
  const viewerPage = await viewerContext.newPage();
  await pageSignIn(viewerPage, viewer.email, viewer.name);
  await viewerPage.goto(`/queues/${queueId}/work`);
  await expect(viewerPage.getByTestId("queue-forbidden")).toContainText("can read but not label");
  await viewerContext.close();

  const contexts = await Promise.all([browser.newContext(), browser.newContext()]);
  const [one, two] = await Promise.all(contexts.map((c) => c.newPage()));
  await pageSignIn(one!, ann1.email, ann1.name);
  await pageSignIn(two!, ann2.email, ann2.name);
  // items in order e4, e7, e8; Ann One says +1 everywhere, Ann Two -1 on e4 and +1 on the rest
  await workThrough(one!, queueId, ["5", "5", "5"]);
  await workThrough(two!, queueId, ["1", "5", "5"]);
  await Promise.all(contexts.map((c) => c.close()));

  await page.goto(`/queues/${queueId}`);
  await expect(page.getByTestId("progress").first()).toHaveAttribute("data-done", "3");
  // values e4 [1, -1], e7 [1, 1], e8 [1, 1]: D_o = 8/6, D_e = 40/30, alpha = 1 - 1 = 0 over 3 items
  await expect(page.getByTestId("alpha-step_quality").locator("td").nth(1)).toHaveText("0");
  await expect(page.getByTestId("alpha-step_quality").locator("td").nth(2)).toHaveText("3");
  expect(await stepQuality("e4")).toBeCloseTo(0, 9); // the mean of 1 and -1

  await page.goto(`/queues/${queueId}/adjudicate`);
  await expect(page.getByTestId("disagreement")).toHaveCount(1);
  await expect(page.getByTestId("disagreement")).toContainText("e4");
  await page.getByTestId("adjudicate-e4-step_quality").getByRole("button", { name: "1", exact: true }).click();
  await expect(page.getByTestId("adjudicate-e4-step_quality").getByRole("button", { name: "1", exact: true })).toHaveClass(/bg-blue-600/);
  expect(await stepQuality("e4")).toBeCloseTo(1, 9);
});
