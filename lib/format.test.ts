import { describe, expect, it } from "vitest";
import { formatPercent, formatValue } from "./format";

describe("formatValue", () => {
  it("shows null as a dash, never 0", () => {
    expect(formatValue(null)).toBe("—");
    expect(formatValue(undefined)).toBe("—");
    expect(formatPercent(null)).toBe("—");
  });
  it("formats integers, fractions, booleans and strings", () => {
    expect(formatValue(12000)).toBe("12,000");
    expect(formatValue(8 / 7)).toBe("1.143");
    expect(formatValue(0.75, 1)).toBe("0.8");
    expect(formatValue(true)).toBe("yes");
    expect(formatValue("premature")).toBe("premature");
    expect(formatPercent(0.25)).toBe("25%");
  });
});
