import { expect, test, type APIRequestContext } from "@playwright/test";
import { freshSetupPath, PASSWORD } from "./lib/accounts";

/**
 * Accounts end to end: the first admin through the one-time setup link, an
 * annotator created on the admin page, their sign-in showing in the header,
 * sign-out. Every e2e spec shares one server, so the accounts made here are
 * deleted at the end (through the admin API): Baton is back in open local
 * mode for the other specs.
 */
const stamp = Date.now();
const admin = { email: `e2e-admin-${stamp}@example.test`, name: "E2E Admin" };
const annotator = { email: `e2e-annotator-${stamp}@example.test`, name: "E2E Annotator" };

test.describe.configure({ mode: "serial" });

async function deleteAccounts(request: APIRequestContext) {
  const signedIn = await request.post("/api/auth/signin", { data: { email: admin.email, password: PASSWORD } });
  if (!signedIn.ok()) return;
  const { csrf_token } = (await signedIn.json()) as { csrf_token: string };
  const headers = { "x-csrf-token": csrf_token };
  const { users } = (await (await request.get("/api/admin/users")).json()) as { users: { id: number; email: string }[] };
  const ours = users.filter((u) => u.email.endsWith(`-${stamp}@example.test`));
  // the admin last: deleting the last site admin is what puts Baton back in open local mode
  for (const user of [...ours.filter((u) => u.email !== admin.email), ...ours.filter((u) => u.email === admin.email)]) expect((await request.delete(`/api/admin/users/${user.id}`, { headers })).status()).toBe(200);
}

test.afterAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  await deleteAccounts(request);
  const session = (await (await request.get("/api/auth/session")).json()) as { open_mode: boolean };
  await request.dispose();
  expect(session.open_mode).toBe(true);
});

test("first admin via the setup link, an annotator made by the admin signs in and out", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("open-mode-banner")).toBeVisible();

  await page.goto(freshSetupPath());
  await page.getByLabel("Name").fill(admin.name);
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Password again").fill(PASSWORD);
  await page.getByRole("button", { name: "Create admin and sign in" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByTestId("signed-in-user")).toHaveText(admin.name);
  await expect(page.getByTestId("open-mode-banner")).toHaveCount(0);

  const form = page.getByRole("form", { name: "Add a user" });
  await form.getByLabel("Email").fill(annotator.email);
  await form.getByLabel("Name").fill(annotator.name);
  await form.getByLabel("Password").fill(PASSWORD);
  await form.getByLabel("Project").fill("default");
  await form.getByLabel("Role").selectOption("annotator");
  await form.getByRole("button", { name: "Add user" }).click();
  const row = page.getByTestId("user-row").filter({ hasText: annotator.email });
  await expect(row.getByTestId("membership")).toHaveText(/default: annotator/);

  // the admin gives the default project a Hugging Face tokenizer for the gateway's token ids, then removes it
  const upload = page.getByRole("form", { name: "Upload a project's tokenizer" });
  await upload.getByLabel("Project").selectOption("default");
  await upload.getByLabel("Model").fill("tiny-bpe");
  await upload.getByLabel("tokenizer.json").setInputFiles("lib/gateway/fixtures/tiny-bpe.tokenizer_config.json");
  await upload.getByLabel("Chat template (optional)").setInputFiles({ name: "broken.jinja", mimeType: "text/plain", buffer: Buffer.from("{% for %}") });
  await upload.getByRole("button", { name: "Upload tokenizer" }).click();
  // a config is not a tokenizer, and the template does not parse: the page says which, nothing is stored
  await expect(page.getByRole("alert").filter({ hasText: "tokenizer" })).toContainText("$.tokenizer: cannot be read");
  await expect(page.getByTestId("tokenizer-table").locator("tbody tr")).toHaveCount(0);
  // (a submitted form starts empty again)
  await upload.getByLabel("Project").selectOption("default");
  await upload.getByLabel("Model").fill("tiny-bpe");
  await upload.getByLabel("tokenizer.json").setInputFiles("lib/gateway/fixtures/tiny-bpe.tokenizer.json");
  await upload.getByLabel("tokenizer_config.json").setInputFiles("lib/gateway/fixtures/tiny-bpe.tokenizer_config.json");
  await upload.getByLabel("Chat template (optional)").setInputFiles([]);
  await upload.getByRole("button", { name: "Upload tokenizer" }).click();
  const stored = page.getByTestId("tokenizer-table").locator("tbody tr");
  await expect(stored).toHaveCount(1);
  await expect(stored).toContainText("tiny-bpe");
  await expect(stored).toContainText("266");
  await expect(stored).toContainText("from the config");
  await stored.getByRole("button", { name: "remove" }).click();
  await expect(stored).toHaveCount(0);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByTestId("sign-in-link")).toBeVisible();
  // anonymous visitors still read (BATON_PUBLIC_READ defaults to on)
  await expect(page.getByTestId("trace-row").first()).toBeVisible();

  await page.getByTestId("sign-in-link").click();
  await page.getByLabel("Email").fill(annotator.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("sign-in-error")).toContainText("wrong email or password");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-user")).toHaveText(annotator.name);
  await expect(page.getByRole("link", { name: "Admin" })).toHaveCount(0);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByTestId("sign-in-link")).toBeVisible();
  await expect(page.getByTestId("signed-in-user")).toHaveCount(0);
});
