import { execFileSync } from "node:child_process";
import { expect, type APIRequestContext, type Page } from "@playwright/test";

/**
 * Accounts for e2e specs. Every spec shares one server and database, so a
 * spec that leaves open local mode must delete its accounts (and the traces
 * they labelled) at the end, putting Baton back in open local mode.
 */
export const PASSWORD = "e2e password 1";

/** A fresh setup link from the same database the server uses (what an operator runs when the printed one is lost). */
export function freshSetupPath(): string {
  const out = execFileSync("npx", ["tsx", "--conditions=react-server", "scripts/setup-link.ts"], {
    encoding: "utf8",
    env: {
      ...process.env,
      BATON_DATA_DIR: process.env.BATON_E2E_DATA_DIR ?? ".baton-test/e2e",
      BATON_PG_PORT: process.env.BATON_E2E_PG_PORT ?? "24332",
      PORT: process.env.BATON_E2E_PORT ?? "3100",
    },
  });
  const link = new URL(out.trim().split("\n").at(-1)!);
  return `${link.pathname}${link.search}`;
}

/** Signs a request context in through the API; returns the CSRF header its writes need. */
export async function apiSignIn(request: APIRequestContext, email: string): Promise<Record<string, string>> {
  const response = await request.post("/api/auth/signin", { data: { email, password: PASSWORD } });
  expect(response.status()).toBe(200);
  const { csrf_token } = (await response.json()) as { csrf_token: string };
  return { "x-csrf-token": csrf_token };
}

/** Signs a browser page in through the sign-in form. */
export async function pageSignIn(page: Page, email: string, name: string): Promise<void> {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-user")).toHaveText(name);
}

/** Deletes the given traces, then the accounts whose email ends in `suffix` (admins last): back to open local mode. */
export async function cleanUp(request: APIRequestContext, adminEmail: string, suffix: string, traceIds: string[] = []): Promise<void> {
  const headers = await apiSignIn(request, adminEmail);
  for (const id of traceIds) await request.delete(`/api/traces/${encodeURIComponent(id)}`, { headers });
  const { users } = (await (await request.get("/api/admin/users")).json()) as { users: { id: number; email: string }[] };
  const ours = users.filter((u) => u.email.endsWith(suffix));
  for (const user of [...ours.filter((u) => u.email !== adminEmail), ...ours.filter((u) => u.email === adminEmail)]) {
    expect((await request.delete(`/api/admin/users/${user.id}`, { headers })).status()).toBe(200);
  }
}
