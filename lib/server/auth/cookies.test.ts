import { describe, expect, it } from "vitest";
import { clearedSessionCookies, isHttps, sessionCookies } from "./cookies";

const session = { token: "tok", csrfToken: "csrf", expiresAt: new Date(1_000_000 + 3600_000) };

describe("session cookies", () => {
  it("the session cookie is httpOnly and SameSite=Lax; the CSRF one is readable by scripts", () => {
    const [sessionCookie, csrf] = sessionCookies(session, false, 1_000_000);
    expect(sessionCookie).toBe("baton_session=tok; Path=/; Max-Age=3600; SameSite=Lax; HttpOnly");
    expect(csrf).toBe("baton_csrf=csrf; Path=/; Max-Age=3600; SameSite=Lax");
  });

  it("both are Secure over https, and clearing sets Max-Age=0", () => {
    for (const c of sessionCookies(session, true, 1_000_000)) expect(c).toMatch(/; Secure$/);
    const cleared = clearedSessionCookies(false);
    expect(cleared).toEqual(["baton_session=; Path=/; Max-Age=0; SameSite=Lax; HttpOnly", "baton_csrf=; Path=/; Max-Age=0; SameSite=Lax"]);
  });

  it("isHttps follows the URL, or X-Forwarded-Proto when a proxy sets it", () => {
    expect(isHttps(new Request("https://baton.example/api"))).toBe(true);
    expect(isHttps(new Request("http://localhost/api"))).toBe(false);
    expect(isHttps(new Request("http://localhost/api", { headers: { "x-forwarded-proto": "https" } }))).toBe(true);
    expect(isHttps(new Request("https://localhost/api", { headers: { "x-forwarded-proto": "http" } }))).toBe(false);
  });
});
