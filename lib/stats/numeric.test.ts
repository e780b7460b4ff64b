import { describe, expect, it } from "vitest";
import { exactFloat8Numeric, float8Numeric, NumericSum, numericQuotient } from "./numeric";

const sumOf = (vs: number[]) => {
  const s = new NumericSum();
  for (const v of vs) s.addFloat(v);
  return s;
};

describe("float8Numeric (PostgreSQL's v::numeric: %.15g, ties to even)", () => {
  it("keeps 15 significant digits of the exact binary value", () => {
    expect(float8Numeric(0.1)).toEqual({ m: 100000000000000, q: -15 });
    expect(float8Numeric(1 / 3)).toEqual({ m: 333333333333333, q: -15 });
    expect(float8Numeric(-2.5)).toEqual({ m: -250000000000000, q: -14 });
    expect(float8Numeric(0)).toEqual({ m: 0, q: 0 });
  });

  it("rounds an exact half to the even digit", () => {
    // 123456789012344.5 and 123456789012345.5 are exact doubles: ties at the 16th digit
    expect(float8Numeric(123456789012344.5)).toEqual({ m: 123456789012344, q: 0 });
    expect(float8Numeric(123456789012345.5)).toEqual({ m: 123456789012346, q: 0 });
    expect(float8Numeric(-123456789012345.5)).toEqual({ m: -123456789012346, q: 0 });
  });

  it("takes the exact expansion for subnormals and values of 10^15 and more", () => {
    // 5e-324 is 4.9406564584124654...e-324
    expect(float8Numeric(5e-324)).toEqual({ m: 494065645841247, q: -338 });
    expect(float8Numeric(1e15)).toEqual(exactFloat8Numeric(1e15));
    expect(Number(`${float8Numeric(1e15).m}e${float8Numeric(1e15).q}`)).toBe(1e15);
  });
});

describe("NumericSum.mean (PostgreSQL's (trim_scale(sum(v::numeric)) / count)::text as a double)", () => {
  it("sums the 15-digit decimals exactly", () => {
    expect(sumOf([0.1, 0.2]).mean(2)).toBe(0.15); // float8: 0.15000000000000002
    expect(sumOf([0.1, 0.2, 1]).mean(3)).toBe(0.43333333333333335);
    expect(sumOf([1, 2]).mean(2)).toBe(1.5);
    expect(sumOf([]).mean(0)).toBeNull();
  });

  it("divides to at least 16 significant digits and rounds half away from zero", () => {
    // 2 / 3: weights 0 and 0, first digits 2 <= 3, so 20 decimals: 0.66666666666666666667
    expect(numericQuotient({ n: 2n, scale: 0 }, 3)).toBe(Number("0.66666666666666666667"));
    expect(numericQuotient({ n: -2n, scale: 0 }, 3)).toBe(Number("-0.66666666666666666667"));
    // a dividend scale above that is kept: 1e-30 / 1 keeps its 30 decimals
    expect(numericQuotient({ n: 1n, scale: 30 }, 1)).toBe(1e-30);
  });

  it("carries partial sums past 2^53 into exact integers", () => {
    const s = new NumericSum();
    for (let i = 0; i < 100; i++) s.add(999999999999999, 0);
    expect(s.value()).toEqual({ n: 99999999999999900n, scale: 0 });
    const t = new NumericSum();
    t.addAll(s);
    t.add(-99999999999999, 0); // 99,999,999,999,999,900 − 99,999,999,999,999
    expect(t.value()).toEqual({ n: 99899999999999901n, scale: 0 });
  });

  it("gives a non-finite value's mean as numeric does: NaN, ±Infinity, Infinity − Infinity NaN", () => {
    expect(sumOf([1, Infinity]).mean(2)).toBe(Infinity);
    expect(sumOf([-Infinity, 2]).mean(2)).toBe(-Infinity);
    expect(sumOf([Infinity, -Infinity]).mean(2)).toBeNaN();
    expect(sumOf([NaN, 1]).mean(2)).toBeNaN();
  });

  it("trims the scale of its value (trim_scale)", () => {
    expect(sumOf([0.5, 0.5]).value()).toEqual({ n: 1n, scale: 0 });
    expect(sumOf([0.25, 0.5]).value()).toEqual({ n: 75n, scale: 2 });
  });
});
