import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { apiSignIn, cleanUp, freshSetupPath, pageSignIn, PASSWORD } from "./lib/accounts";

/**
 * Saving you can trust, with two accounts on one browser: Ann's label fails
 * to save (her session ended in another tab), Bob signs in on the same
 * browser and is told "1 label pending from Ann One" — it is never saved
 * as his — and may discard it; Ann's own later visit saves it as hers.
 */
const stamp = Date.now();
const suffix = `-${stamp}@example.test`;
const admin = { email: `padmin${suffix}`, name: "Pending Admin" };
const ann = { email: `ann${suffix}`, name: "Ann One" };
const bob = { email: `bob${suffix}`, name: "Bob Two" };
const traceId = `e2e-pending-${stamp}`;
const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as object;

test.describe.configure({ mode: "serial" });
let adminApi: APIRequestContext;

test.beforeAll(async ({ playwright, baseURL }) => {
  adminApi = await playwright.request.newContext({ baseURL });
  const token = new URL(freshSetupPath(), "http://x").searchParams.get("token")!;
  expect((await adminApi.post("/api/auth/setup", { data: { token, email: admin.email, name: admin.name, password: PASSWORD } })).ok()).toBe(true);
  const headers = await apiSignIn(adminApi, admin.email);
  for (const u of [ann, bob]) {
    expect((await adminApi.post("/api/admin/users", { headers, data: { ...u, password: PASSWORD, memberships: [{ project: "default", role: "annotator" }] } })).status()).toBe(201);
  }
  expect((await adminApi.post("/api/traces", { headers, data: { ...example, trace_id: traceId } })).status()).toBe(201);
});

test.afterAll(async () => {
  await cleanUp(adminApi, admin.email, suffix, [traceId]);
  await adminApi.dispose();
});

const labels = async () => ((await (await adminApi.get(`/api/traces/${traceId}/annotations`)).json()) as { annotations: { event_id: string; annotator: string; value: number }[] }).annotations;

test("a label that failed to save is retried only for its author; another user sees it pending and may discard it", async ({ page }) => {
  await pageSignIn(page, ann.email, ann.name);
  await page.goto(`/traces/${traceId}/label`);
  await expect(page.locator("[data-testid=label-row][data-event-id]")).toHaveCount(8);
  // the session ends elsewhere (another tab signs out): the cookie is gone, this page still shows Ann
  await page.context().clearCookies();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("1");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("failed-labels")).toContainText("1 label not saved");

  await pageSignIn(page, bob.email, bob.name);
  await page.goto(`/traces/${traceId}/label`);
  await expect(page.getByTestId("others-pending")).toContainText("1 label pending from Ann One");
  await expect(page.locator("[data-testid=label-row][data-event-id]")).toHaveCount(8);
  await page.keyboard.press("r"); // retry must not send Ann's label as Bob's
  await page.waitForTimeout(500);
  expect(await labels()).toEqual([]);

  // Ann comes back on this browser: her page saves it, under her name
  await page.context().clearCookies();
  await pageSignIn(page, ann.email, ann.name);
  await page.goto(`/traces/${traceId}/label`);
  await expect.poll(labels).toEqual([expect.objectContaining({ event_id: "e2", annotator: ann.name, value: -1 })]);
  await expect(page.getByTestId("others-pending")).toHaveCount(0);

  // and a pending label of someone else can be discarded
  await page.context().clearCookies();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("5");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("failed-labels")).toBeVisible();
  await pageSignIn(page, bob.email, bob.name);
  await page.goto(`/traces/${traceId}/label`);
  await page.getByTestId("others-pending").getByRole("button", { name: "discard" }).click();
  await expect(page.getByTestId("others-pending")).toHaveCount(0);
  await page.reload();
  await expect(page.locator("[data-testid=label-row][data-event-id]")).toHaveCount(8);
  await expect(page.getByTestId("others-pending")).toHaveCount(0);
  expect((await labels()).map((l) => l.event_id)).toEqual(["e2"]);
});
