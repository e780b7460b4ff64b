import { describe, expect, it } from "vitest";
import { clientAddress, FailureLimiter } from "./rate-limit";

describe("FailureLimiter", () => {
  it("blocks after max failures in the window, and frees the key as the oldest failure ages out", () => {
    let now = 0;
    const limiter = new FailureLimiter({ max: 3, windowMs: 1000 }, () => now);
    for (const t of [0, 100, 200]) {
      now = t;
      expect(limiter.retryAfterMs("a")).toBe(0);
      limiter.fail("a");
    }
    now = 300;
    expect(limiter.retryAfterMs("a")).toBe(700); // the failure at 0 ages out at 1000
    expect(limiter.retryAfterMs("b")).toBe(0);
    now = 1000;
    expect(limiter.retryAfterMs("a")).toBe(0);
  });

  it("reset forgets a key; the number of keys is capped", () => {
    let now = 0;
    const limiter = new FailureLimiter({ max: 1, windowMs: 1000 }, () => now, 2);
    limiter.fail("a");
    limiter.reset("a");
    expect(limiter.retryAfterMs("a")).toBe(0);
    for (const key of ["x", "y", "z"]) limiter.fail(key);
    now = 1;
    expect(limiter.retryAfterMs("x")).toBe(0); // evicted, the stalest
    expect(limiter.retryAfterMs("z")).toBe(999);
  });
});

describe("clientAddress", () => {
  it("is the first X-Forwarded-For entry, else X-Real-IP, else unknown", () => {
    expect(clientAddress(new Request("http://l/", { headers: { "x-forwarded-for": "203.0.113.9, 10.0.0.1" } }))).toBe("203.0.113.9");
    expect(clientAddress(new Request("http://l/", { headers: { "x-real-ip": "198.51.100.7" } }))).toBe("198.51.100.7");
    expect(clientAddress(new Request("http://l/"))).toBe("unknown");
  });
});
