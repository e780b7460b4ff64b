import { afterEach, describe, expect, it } from "vitest";
import { GET as session } from "@/app/api/auth/session/route";
import { POST as setup } from "@/app/api/auth/setup/route";
import { POST as signin } from "@/app/api/auth/signin/route";
import { POST as signout } from "@/app/api/auth/signout/route";
import { readConfig } from "@/lib/server/config";
import { prisma } from "@/lib/server/db/client";
import { params } from "@/scripts/lib/test-http";
import { answer, authRequest, cleanAccounts, makeUser, signIn, TEST_DOMAIN, withoutCsrf, type Credentials } from "@/scripts/lib/test-auth";
import { isOpenMode } from "./access";
import { ensureAdminFromEnv, setupLinkIfNeeded } from "./bootstrap";
import { verifyPassword } from "./password";

const PASSWORD = "correct horse battery";
const none = params({});

afterEach(cleanAccounts);

/** The cookies a response sets, as a Cookie header a browser would send back. */
function cookiesOf(response: Response): { header: string; raw: string[] } {
  const raw = response.headers.getSetCookie();
  return { header: raw.map((c) => c.split(";")[0]).join("; "), raw };
}

async function signInWith(email: string, password: string, address = "192.0.2.1") {
  const response = await signin(authRequest("POST", "/api/auth/signin", {}, { email, password }, { "x-forwarded-for": address }), none);
  return { ...(await answer(response)), cookies: cookiesOf(response) };
}

async function sessionOf(creds: Credentials) {
  return (await session(authRequest("GET", "/api/auth/session", creds), none).then(answer)).body;
}

describe("first admin through the one-time setup link", () => {
  it("works once, signs the admin in, and ends open mode", async () => {
    expect(await sessionOf({})).toEqual({ user: null, open_mode: true, csrf_token: null });
    const link = await setupLinkIfNeeded("http://localhost:3000");
    expect(link).toMatch(/^http:\/\/localhost:3000\/setup\?token=[A-Za-z0-9_-]{43}$/);
    const token = new URL(link!).searchParams.get("token")!;
    // only its hash is stored
    expect(await prisma().setupToken.count({ where: { tokenHash: token } })).toBe(0);

    const email = `first@${TEST_DOMAIN}`;
    const body = { token, email, name: "First", password: PASSWORD };
    const wrong = await setup(authRequest("POST", "/api/auth/setup", {}, { ...body, token: "guess" }), none).then(answer);
    expect([wrong.status, wrong.code]).toEqual([403, "forbidden"]);
    expect(await isOpenMode()).toBe(true);

    const response = await setup(authRequest("POST", "/api/auth/setup", {}, body), none);
    const created = await answer(response);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ user: { email, name: "First", is_admin: true, memberships: [] } });
    expect(created.body.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await isOpenMode()).toBe(false);
    const { header, raw } = cookiesOf(response);
    expect(raw[0]).toMatch(/^baton_session=[^;]+; Path=\/; Max-Age=604800; SameSite=Lax; HttpOnly$/);
    expect(await sessionOf({ cookie: header })).toMatchObject({ user: { email }, open_mode: false, csrf_token: created.body.csrf_token });

    const again = await setup(authRequest("POST", "/api/auth/setup", {}, { ...body, email: `second@${TEST_DOMAIN}` }), none).then(answer);
    expect([again.status, again.code]).toEqual([403, "forbidden"]);
    expect(await prisma().user.count({ where: { isAdmin: true } })).toBe(1);
    expect(await setupLinkIfNeeded("http://localhost:3000")).toBeNull();
  });

  it("a newer link replaces an older one; bodies are validated with paths", async () => {
    const older = new URL((await setupLinkIfNeeded("http://x"))!).searchParams.get("token")!;
    await setupLinkIfNeeded("http://x");
    const stale = await setup(authRequest("POST", "/api/auth/setup", {}, { token: older, email: `a@${TEST_DOMAIN}`, name: "A", password: PASSWORD }), none).then(answer);
    expect(stale.status).toBe(403);
    const bad = await setup(authRequest("POST", "/api/auth/setup", {}, { token: older, email: "nope", name: "", password: "short" }), none).then(answer);
    expect(bad.status).toBe(400);
    expect(bad.body.error!.details.map((d) => d.path).sort()).toEqual(["$.email", "$.name", "$.password"]);
  });

  it("an expired link does not work", async () => {
    const token = new URL((await setupLinkIfNeeded("http://x"))!).searchParams.get("token")!;
    await prisma().setupToken.updateMany({ data: { createdAt: new Date(Date.now() - 25 * 3600_000) } });
    const expired = await setup(authRequest("POST", "/api/auth/setup", {}, { token, email: `a@${TEST_DOMAIN}`, name: "A", password: PASSWORD }), none).then(answer);
    expect(expired.status).toBe(403);
  });
});

describe("sign-in, session, sign-out", () => {
  it("stores only a scrypt hash; a wrong password and an unknown email get the same 401", async () => {
    await makeUser("root", { isAdmin: true });
    const user = await makeUser("ann", { roles: { p: "annotator" }, password: PASSWORD });
    const row = await prisma().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.passwordHash).toMatch(/^scrypt\$/);
    expect(row.passwordHash).not.toContain(PASSWORD);
    expect(await verifyPassword(PASSWORD, row.passwordHash!)).toBe(true);

    const wrong = await signInWith(user.email, "not the password");
    const unknown = await signInWith(`nobody@${TEST_DOMAIN}`, PASSWORD);
    expect([wrong.status, wrong.code, unknown.status, unknown.code]).toEqual([401, "invalid_credentials", 401, "invalid_credentials"]);
    expect(wrong.body.error!.message).toBe(unknown.body.error!.message);
    expect(wrong.cookies.raw).toEqual([]);
    expect(await prisma().session.count({ where: { userId: user.id } })).toBe(0);
  });

  it("signs in (email in any case), shows the session, and signs out only with the CSRF token", async () => {
    await makeUser("root", { isAdmin: true });
    const user = await makeUser("ann", { roles: { p: "annotator" }, password: PASSWORD });
    const ok = await signInWith(user.email.toUpperCase(), PASSWORD);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ user: { id: user.id, email: user.email, is_admin: false, memberships: [{ project: "p", role: "annotator" }] } });
    const csrf = ok.body.csrf_token as string;
    expect(ok.cookies.raw[1]).toBe(`baton_csrf=${csrf}; Path=/; Max-Age=604800; SameSite=Lax`);
    const creds = { cookie: ok.cookies.header, csrf };
    // the cookie is a random token; the table holds its SHA-256
    const token = ok.cookies.header.match(/baton_session=([^;]+)/)![1]!;
    expect(await prisma().session.count({ where: { tokenHash: token } })).toBe(0);
    expect(await prisma().session.count({ where: { userId: user.id } })).toBe(1);
    expect(await sessionOf(creds)).toMatchObject({ user: { email: user.email }, csrf_token: csrf });

    const forged = await signout(authRequest("POST", "/api/auth/signout", withoutCsrf(creds)), none).then(answer);
    expect([forged.status, forged.code]).toEqual([403, "csrf"]);
    expect(await prisma().session.count({ where: { userId: user.id } })).toBe(1);

    const out = await signout(authRequest("POST", "/api/auth/signout", creds), none);
    expect(out.status).toBe(200);
    expect(cookiesOf(out).raw.every((c) => c.includes("Max-Age=0"))).toBe(true);
    expect(await prisma().session.count({ where: { userId: user.id } })).toBe(0);
    expect(await sessionOf(creds)).toEqual({ user: null, open_mode: false, csrf_token: null });
  });

  it("a new sign-in ends the session the browser had", async () => {
    await makeUser("root", { isAdmin: true });
    const user = await makeUser("ann", { password: PASSWORD });
    const before = await signIn(user);
    const response = await signin(authRequest("POST", "/api/auth/signin", before, { email: user.email, password: PASSWORD }), none);
    expect(response.status).toBe(200);
    expect(await sessionOf(before)).toMatchObject({ user: null });
  });

  it("rate-limits failed sign-ins per email and address: the 6th try in 15 minutes is 429, even with the right password", async () => {
    await makeUser("root", { isAdmin: true });
    const user = await makeUser("ann", { password: PASSWORD });
    for (let i = 0; i < 5; i++) expect((await signInWith(user.email, `wrong-${i}`, "198.51.100.5")).status).toBe(401);
    const blocked = await signin(authRequest("POST", "/api/auth/signin", {}, { email: user.email, password: PASSWORD }, { "x-forwarded-for": "198.51.100.5" }), none);
    const { status, code } = await answer(blocked);
    expect([status, code]).toEqual([429, "rate_limited"]);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(800);
    // the same account from another address still signs in
    expect((await signInWith(user.email, PASSWORD, "198.51.100.6")).status).toBe(200);
  });

  it("needs no sign-in in open mode (409 open_mode)", async () => {
    const user = await makeUser("ann", { password: PASSWORD });
    expect((await signInWith(user.email, PASSWORD)).code).toBe("open_mode");
  });
});

describe("admin from BATON_ADMIN_EMAIL / BATON_ADMIN_PASSWORD", () => {
  const config = (vars: Record<string, string>) => readConfig(vars as NodeJS.ProcessEnv);
  const env = (email: string, password: string) => config({ BATON_ADMIN_EMAIL: email, BATON_ADMIN_PASSWORD: password });

  it("is created, left alone when unchanged, and its password reset (sessions ended) when the variable changes", async () => {
    const email = `env-admin@${TEST_DOMAIN}`;
    expect(await ensureAdminFromEnv(config({}))).toBe("not_configured");
    expect(await ensureAdminFromEnv(env(` ENV-Admin@${TEST_DOMAIN}`, PASSWORD))).toBe("created");
    expect(await isOpenMode()).toBe(false);
    expect(await ensureAdminFromEnv(env(email, PASSWORD))).toBe("unchanged");
    const user = await prisma().user.findUniqueOrThrow({ where: { email } });
    await signIn(user);
    expect(await ensureAdminFromEnv(env(email, "another password"))).toBe("updated");
    expect(await verifyPassword("another password", (await prisma().user.findUniqueOrThrow({ where: { email } })).passwordHash!)).toBe(true);
    expect(await prisma().session.count({ where: { userId: user.id } })).toBe(0);
  });

  it("refuses half a configuration and bad values", () => {
    expect(() => config({ BATON_ADMIN_EMAIL: `a@${TEST_DOMAIN}` })).toThrow(/set both BATON_ADMIN_EMAIL and BATON_ADMIN_PASSWORD/);
    expect(() => config({ BATON_ADMIN_EMAIL: "not-an-email", BATON_ADMIN_PASSWORD: PASSWORD })).toThrow(/BATON_ADMIN_EMAIL/);
    expect(() => config({ BATON_ADMIN_EMAIL: `a@${TEST_DOMAIN}`, BATON_ADMIN_PASSWORD: "short" })).toThrow(/BATON_ADMIN_PASSWORD/);
    expect(() => config({ BATON_PUBLIC_READ: "yes" })).toThrow(/BATON_PUBLIC_READ/);
    expect(config({}).BATON_PUBLIC_READ).toBe("1");
  });
});
