import { describe, expect, it } from "vitest";
import { clientAddress } from "./rate-limit";

describe("clientAddress", () => {
  it("is the first X-Forwarded-For entry, else X-Real-IP, else unknown", () => {
    expect(clientAddress(new Request("http://l/", { headers: { "x-forwarded-for": "203.0.113.9, 10.0.0.1" } }))).toBe("203.0.113.9");
    expect(clientAddress(new Request("http://l/", { headers: { "x-real-ip": "198.51.100.7" } }))).toBe("198.51.100.7");
    expect(clientAddress(new Request("http://l/"))).toBe("unknown");
  });
});
