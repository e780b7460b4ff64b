import { describe, expect, it } from "vitest";
import { legendTicks, symmetricDomain } from "./scale";

describe("symmetricDomain", () => {
  it("is [-m, m] for the largest |value|, whichever its sign", () => {
    expect(symmetricDomain([0.2, -0.5, 0.3])).toEqual([-0.5, 0.5]);
    expect(symmetricDomain([0.2, 0.9])).toEqual([-0.9, 0.9]);
  });

  it("ignores nulls (gaps are not zeros) and falls back to [-1, 1] with nothing or only zeros", () => {
    expect(symmetricDomain([null, -0.25, null])).toEqual([-0.25, 0.25]);
    expect(symmetricDomain([null, null])).toEqual([-1, 1]);
    expect(symmetricDomain([0, 0])).toEqual([-1, 1]);
    expect(symmetricDomain([])).toEqual([-1, 1]);
  });

  it("gives five ticks through 0", () => {
    expect(legendTicks([-2, 2])).toEqual([-2, -1, 0, 1, 2]);
  });
});
