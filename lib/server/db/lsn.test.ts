import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatLsn, parseLsn } from "./lsn";

describe("LSN", () => {
  it("reads PostgreSQL's notation as a 64-bit byte position", () => {
    expect(parseLsn("0/0")).toBe(0n);
    expect(parseLsn("0/16B3748")).toBe(0x16b3748n);
    expect(parseLsn("1/0")).toBe(4294967296n);
    expect(parseLsn("16/B374D848")).toBe(0x16n * 4294967296n + 0xb374d848n);
    // positions compare as numbers, not as text ("9/0" < "10/0")
    expect(parseLsn("9/FFFFFFFF")! < parseLsn("A/0")!).toBe(true);
  });

  it("refuses what is not an LSN", () => {
    for (const bad of ["", "16", "16/", "/1", "g/1", "1/2/3", "123456789/0", "1/-1", " 1 / 2", null, undefined]) expect(parseLsn(bad)).toBeNull();
  });

  it("formats what it parses", () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), (lsn) => parseLsn(formatLsn(lsn)) === lsn));
  });
});
