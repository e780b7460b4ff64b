import { describe, expect, it } from "vitest";
import { createKeyInput, createUserInput, safeNextPath, signInInput, updateUserInput } from "./auth";
import { csrfHeaders, readCookie } from "./csrf";

describe("account bodies", () => {
  it("normalise emails and default the optional fields", () => {
    expect(createUserInput.parse({ email: " Ann@Example.TEST ", name: "Ann", password: "long enough" })).toEqual({
      email: "ann@example.test",
      name: "Ann",
      password: "long enough",
      is_admin: false,
      memberships: [],
    });
    expect(signInInput.parse({ email: "A@B.TEST", password: "x" }).email).toBe("a@b.test");
  });

  it("refuse short passwords, unknown roles and scopes, one project twice, extra fields, empty patches", () => {
    const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) => r.error?.issues.map((i) => i.path.join(".")) ?? [];
    expect(issues(createUserInput.safeParse({ email: "a@b.test", name: "A", password: "short" }))).toEqual(["password"]);
    expect(issues(createUserInput.safeParse({ email: "a@b.test", name: "A", password: "long enough", memberships: [{ project: "p", role: "owner" }] }))).toEqual(["memberships.0.role"]);
    expect(issues(createUserInput.safeParse({ email: "a@b.test", name: "A", password: "long enough", memberships: [{ project: "p", role: "viewer" }, { project: "p", role: "admin" }] }))).toEqual(["memberships"]);
    expect(issues(createKeyInput.safeParse({ name: "k", scopes: ["admin"] }))).toEqual(["scopes.0"]);
    expect(issues(createKeyInput.safeParse({ name: "k", scopes: [] }))).toEqual(["scopes"]);
    expect(createUserInput.safeParse({ email: "a@b.test", name: "A", password: "long enough", role: "admin" }).success).toBe(false);
    expect(updateUserInput.safeParse({}).success).toBe(false);
  });
});

describe("safeNextPath", () => {
  it("keeps same-site paths and refuses everything that could leave the site", () => {
    expect(safeNextPath("/traces/x?y=1")).toBe("/traces/x?y=1");
    for (const bad of ["//evil.test", "/\\evil.test", "https://evil.test", "javascript:alert(1)", "/\nx", "", undefined]) expect(safeNextPath(bad)).toBe("/");
    expect(safeNextPath(["/admin", "/x"])).toBe("/admin");
  });
});

describe("CSRF header from the cookie", () => {
  it("reads one cookie from a Cookie header", () => {
    expect(readCookie("a=1; baton_csrf=tok%2Fx; b=2", "baton_csrf")).toBe("tok/x");
    expect(readCookie("baton_csrf_other=1", "baton_csrf")).toBeNull();
    expect(csrfHeaders("baton_csrf=abc")).toEqual({ "x-csrf-token": "abc" });
    expect(csrfHeaders("")).toEqual({});
  });
});
