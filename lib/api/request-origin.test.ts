import { describe, expect, it } from "vitest";
import { hostAllowed, parseAllowedHosts, refusal, type RequestFacts } from "./request-origin";

const facts = (over: Partial<RequestFacts>): RequestFacts => ({
  method: "POST", path: "/api/import", host: "127.0.0.1:3000", forwardedHost: null, origin: null, secFetchSite: null, contentType: "application/json", hasBody: true, ...over,
});
const code = (over: Partial<RequestFacts>, allowed: string[] = []) => refusal(facts(over), allowed)?.code ?? "ok";

describe("hosts (DNS rebinding)", () => {
  it("accepts IP addresses, localhost and the allowed names; refuses other names", () => {
    for (const host of ["127.0.0.1:3000", "10.1.2.3", "[::1]:3000", "localhost:3000", "LOCALHOST", "baton.localhost:3000"]) expect([host, hostAllowed(host, [])]).toEqual([host, true]);
    for (const host of ["evil.example", "evil.example:3000", "127.0.0.1.evil.example", "localhost.evil.example", ""]) expect([host, hostAllowed(host, [])]).toEqual([host, false]);
    expect(hostAllowed("baton.example.com:443", parseAllowedHosts(" Baton.Example.com , other"))).toBe(true);
    expect(hostAllowed("evil.example", ["*"])).toBe(true);
  });
  it("refuses every method from a name not allowed, reads included", () => {
    expect(code({ method: "GET", host: "evil.example:3000", origin: null })).toBe("forbidden_host");
    expect(code({ method: "GET", host: "evil.example:3000" }, ["evil.example"])).toBe("ok");
  });
});

describe("cross-site writes", () => {
  it("refuses a write whose Origin is another site, or null, or marked cross-site", () => {
    expect(code({ origin: "http://evil.example" })).toBe("cross_site");
    expect(code({ origin: "null" })).toBe("cross_site");
    expect(code({ origin: "http://127.0.0.1:3001" })).toBe("cross_site");
    expect(code({ secFetchSite: "cross-site" })).toBe("cross_site");
    expect(code({ method: "DELETE", origin: "http://evil.example", contentType: null, hasBody: false })).toBe("cross_site");
  });
  it("accepts Baton's own pages (same origin, default ports alike) and scripts without an Origin", () => {
    expect(code({ origin: "http://127.0.0.1:3000", secFetchSite: "same-origin" })).toBe("ok");
    expect(code({ host: "localhost", origin: "http://localhost:80" })).toBe("ok");
    expect(code({ origin: null })).toBe("ok");
    // behind a reverse proxy that rewrites Host
    expect(code({ host: "127.0.0.1:3000", forwardedHost: "baton.example.com", origin: "https://baton.example.com" })).toBe("ok");
    // reads are never refused for their Origin
    expect(code({ method: "GET", origin: "http://evil.example" })).toBe("ok");
  });
  it("the API refuses the bodies a page elsewhere can send without a preflight (415)", () => {
    for (const type of ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) expect([type, code({ contentType: type })]).toEqual([type, "unsupported_media_type"]);
    expect(code({ contentType: null, hasBody: true })).toBe("unsupported_media_type");
    expect(code({ contentType: null, hasBody: false })).toBe("ok");
    expect(code({ contentType: "application/x-ndjson" })).toBe("ok");
    expect(code({ contentType: "application/x-protobuf", path: "/api/otel/v1/traces" })).toBe("ok");
    // pages are not the API (Next's own requests)
    expect(code({ contentType: "text/plain;charset=UTF-8", path: "/traces/x" })).toBe("ok");
  });
});
