import { describe, expect, it } from "vitest";
import { successRate, wilsonInterval, Z_95 } from "./wilson";

describe("wilsonInterval", () => {
  it("matches the closed form for 8 of 10", () => {
    // p = 0.8, z^2 = 3.841458820694124, d = 1 + z^2/10 = 1.3841458820694124
    // center = (0.8 + z^2/20) / d = 0.7167401600411336
    // half = z sqrt(0.8 x 0.2 / 10 + z^2 / 400) / d = 0.2265776885045089
    const w = wilsonInterval(8, 10)!;
    expect(w.rate).toBe(0.8);
    expect(w.low).toBeCloseTo(0.49016247153664183, 9);
    expect(w.high).toBeCloseTo(0.9433178485456247, 9);
    expect(w.n).toBe(10);
  });

  it("stays inside [0, 1] at the edges", () => {
    // 0 of 5: low 0, high = z^2/5 / (1 + z^2/5) = 0.7682917641388248 / 1.7682917641388248
    expect(wilsonInterval(0, 5)).toMatchObject({ rate: 0, low: 0 });
    expect(wilsonInterval(0, 5)!.high).toBeCloseTo(0.43448246478317476, 9);
    expect(wilsonInterval(5, 5)).toMatchObject({ rate: 1, high: 1 });
    expect(wilsonInterval(5, 5)!.low).toBeCloseTo(0.5655175352168251, 9);
  });

  it("is null without trials and uses SPEC's z", () => {
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(Z_95).toBe(1.959963984540054);
  });
});

describe("successRate", () => {
  it("counts non-null E1 values only", () => {
    const r = successRate([1, 0, null, 1, null]);
    expect(r.n).toBe(3);
    expect(r.rate).toBeCloseTo(2 / 3, 9);
    expect(r.low).toBeCloseTo(0.2076596008020477, 9);
    expect(r.high).toBeCloseTo(0.9385080552796037, 9);
  });

  it("is all null when no trace has E1", () => {
    expect(successRate([null, null])).toEqual({ rate: null, low: null, high: null, n: 0 });
  });
});
