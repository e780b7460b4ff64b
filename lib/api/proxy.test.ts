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

  it("answers U+0000 in the path or a query parameter (a page's project or system, a snapshot's file path) with a JSON 400", async () => {
    for (const url of ["http://127.0.0.1:3000/attribution?project=a%00b", "http://127.0.0.1:3000/rubrics?system=x&project=%00", "http://127.0.0.1:3000/api/datasets/1/files/data%00.jsonl"]) {
      const r = call(url, { headers: { host: "127.0.0.1:3000" } });
      expect(r.status, url).toBe(400);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe("invalid_parameter");
    }
    expect(passes(call("http://127.0.0.1:3000/attribution?project=a%20b", { headers: { host: "127.0.0.1:3000" } }))).toBe(true);
  });

  it("refuses a body announced over its route's limit from Content-Length (413 naming the limit)", async () => {
    const labels = call("http://127.0.0.1:3000/api/traces/x/annotations", { method: "POST", headers: { host: "127.0.0.1:3000", "content-type": "application/json", "content-length": String(2 * 1024 * 1024) } });
    expect(labels.status).toBe(413);
    expect(((await labels.json()) as { error: { message: string } }).error.message).toBe("request body is over this route's limit of 1 MB");
    const flush = call("http://127.0.0.1:3000/api/otel/v1/flush", { method: "POST", headers: { host: "127.0.0.1:3000", "content-type": "application/json", "content-length": "70000" } });
    expect(flush.status).toBe(413);
    expect(passes(call("http://127.0.0.1:3000/api/traces/x/annotations", { method: "POST", headers: { host: "127.0.0.1:3000", "content-type": "application/json", "content-length": "1048576" } }))).toBe(true);
  });
});
