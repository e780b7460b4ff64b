import { describe, expect, it } from "vitest";
import { legendTicks, symmetricDomain } from "./scale";

describe("symmetricDomain", () => {
  it("is [-m, m] for the largest |value|, whichever its sign, m rounded up so that its ticks are round", () => {
    expect(symmetricDomain([0.2, -0.5, 0.3])).toEqual([-0.5, 0.5]);
    expect(symmetricDomain([0.2, 0.9])).toEqual([-1, 1]);
    expect(symmetricDomain([9.11])).toEqual([-10, 10]);
    expect(symmetricDomain([-1.935, 1])).toEqual([-2, 2]);
    expect(symmetricDomain([13.66])).toEqual([-20, 20]);
    expect(symmetricDomain([0.0123])).toEqual([-0.02, 0.02]);
    expect(legendTicks(symmetricDomain([9.11]))).toEqual([-10, -5, 0, 5, 10]);
    expect(legendTicks(symmetricDomain([0.3]))).toEqual([-0.4, -0.2, 0, 0.2, 0.4]);
  });

  it("ignores nulls (gaps are not zeros) and falls back to [-1, 1] with nothing or only zeros", () => {
    expect(symmetricDomain([null, -0.25, null])).toEqual([-0.4, 0.4]);
    expect(symmetricDomain([null, null])).toEqual([-1, 1]);
    expect(symmetricDomain([0, 0])).toEqual([-1, 1]);
    expect(symmetricDomain([])).toEqual([-1, 1]);
  });

  it("gives five ticks through 0", () => {
    expect(legendTicks([-2, 2])).toEqual([-2, -1, 0, 1, 2]);
  });
});
