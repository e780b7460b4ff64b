import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { proxy } from "@/proxy";

/** The proxy itself, as Next calls it: what it lets through (no body of its own) and what it answers. */
const call = (url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) => proxy(new NextRequest(url, init));
const passes = (r: Response) => r.headers.get("x-middleware-next") === "1";

afterEach(() => {
  delete process.env.BATON_ALLOWED_HOSTS;
});

describe("proxy.ts", () => {
  it("lets Baton's own requests and scripts through", () => {
    expect(passes(call("http://127.0.0.1:3000/api/traces", { method: "POST", headers: { host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000", "content-type": "application/json" }, body: "{}" }))).toBe(true);
    expect(passes(call("http://localhost:3000/traces/x", { headers: { host: "localhost:3000" } }))).toBe(true);
    expect(passes(call("http://127.0.0.1:3000/api/otel/v1/traces", { method: "POST", headers: { host: "127.0.0.1:3000", "content-type": "application/x-protobuf" }, body: "x" }))).toBe(true);
  });

  it("refuses a rebound host name (403 JSON with the error shape and nosniff), unless BATON_ALLOWED_HOSTS names it", async () => {
    const r = call("http://evil.example:3000/api/traces", { headers: { host: "evil.example:3000" } });
    expect(r.status).toBe(403);
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(((await r.json()) as { error: { code: string; details: unknown[] } }).error).toMatchObject({ code: "forbidden_host", details: [{ path: "$" }] });
    process.env.BATON_ALLOWED_HOSTS = "evil.example";
    expect(passes(call("http://evil.example:3000/api/traces", { headers: { host: "evil.example:3000" } }))).toBe(true);
  });

  it("refuses a cross-site form post and a text/plain import (415)", () => {
    const form = call("http://127.0.0.1:3000/api/import", { method: "POST", headers: { host: "127.0.0.1:3000", origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" }, body: "a=1" });
    expect(form.status).toBe(403);
    const plain = call("http://127.0.0.1:3000/api/import", { method: "POST", headers: { host: "127.0.0.1:3000", "content-type": "text/plain" }, body: "{}" });
    expect(plain.status).toBe(415);
  });

  it("answers a path with malformed %-escapes with a JSON 400 and the headers (not a bare 500)", async () => {
    const r = call("http://127.0.0.1:3000/api/traces/%E0%A4%A/metrics", { headers: { host: "127.0.0.1:3000" } });
    expect(r.status).toBe(400);
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe("invalid_path");
  });
});
