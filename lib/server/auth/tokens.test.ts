import { describe, expect, it } from "vitest";
import { looksLikeApiKey, newApiKey, randomToken, safeEqual, sha256 } from "./tokens";

describe("tokens", () => {
  it("randomToken gives 256 bits in base64url, different every time", () => {
    const tokens = new Set(Array.from({ length: 100 }, () => randomToken()));
    expect(tokens.size).toBe(100);
    for (const t of tokens) expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("sha256 is hex SHA-256", () => {
    expect(sha256("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("safeEqual compares whole strings of any length", () => {
    expect(safeEqual("token", "token")).toBe(true);
    expect(safeEqual("token", "tokem")).toBe(false);
    expect(safeEqual("token", "token-longer")).toBe(false);
    expect(safeEqual("", "")).toBe(true);
  });

  it("API keys are baton_ + 43 characters; the prefix is their start; the stored hash is their SHA-256", () => {
    const { key, prefix, hash } = newApiKey();
    expect(key).toMatch(/^baton_[A-Za-z0-9_-]{43}$/);
    expect(key.startsWith(prefix)).toBe(true);
    expect(prefix).toHaveLength(12);
    expect(hash).toBe(sha256(key));
    expect(looksLikeApiKey(key)).toBe(true);
    expect(looksLikeApiKey(`${key}x`)).toBe(false);
    expect(looksLikeApiKey("Bearer-me")).toBe(false);
  });
});
