import { describe, expect, it } from "vitest";
import { burnVerification, hashPassword, parseHash, SCRYPT_PARAMS, verifyPassword } from "./password";

describe("password hashes", () => {
  it("are scrypt$N$r$p$salt$hash with a 16-byte salt and a 64-byte key, never the password", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(hash).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/);
    expect(hash).not.toContain("correct horse");
    expect(parseHash(hash)).toMatchObject({ ...SCRYPT_PARAMS });
  });

  it("use a fresh salt each time, and verify only the right password", async () => {
    const [a, b] = await Promise.all([hashPassword("s3cret-pass"), hashPassword("s3cret-pass")]);
    expect(a).not.toBe(b);
    expect(await verifyPassword("s3cret-pass", a)).toBe(true);
    expect(await verifyPassword("s3cret-pass", b)).toBe(true);
    expect(await verifyPassword("s3cret-pasS", a)).toBe(false);
    expect(await verifyPassword("", a)).toBe(false);
    // six scrypt derivations: seconds on a loaded 2-core machine, not a speed assertion
  }, 30_000);

  it("treat Unicode-equivalent spellings as one password (NFKC)", async () => {
    const hash = await hashPassword("caf\u00e9-latte");
    expect(await verifyPassword("cafe\u0301-latte", hash)).toBe(true);
  });

  it("never match a malformed or tampered hash", async () => {
    const hash = await hashPassword("s3cret-pass");
    const parts = hash.split("$");
    expect(await verifyPassword("s3cret-pass", "plain-text")).toBe(false);
    expect(await verifyPassword("s3cret-pass", ["bcrypt", ...parts.slice(1)].join("$"))).toBe(false);
    expect(await verifyPassword("s3cret-pass", [parts[0], "16384", ...parts.slice(2)].join("$"))).toBe(false);
    expect(parseHash([parts[0], "1048577", ...parts.slice(2)].join("$"))).toBeNull(); // not a power of two
    expect(parseHash([parts[0], String(2 ** 22), ...parts.slice(2)].join("$"))).toBeNull(); // too costly
    expect(parseHash([...parts.slice(0, 5), "c2hvcnQ"].join("$"))).toBeNull(); // key too short
  });

  it("burnVerification spends a verification and says no", async () => {
    expect(await burnVerification("anything")).toBe(false);
  });
});
