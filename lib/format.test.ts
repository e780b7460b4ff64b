import { describe, expect, it } from "vitest";
import { axisLabel, clockOf, counted, formatCost, formatDuration, formatPercent, formatTokens, formatValue } from "./format";

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

describe("numbers formatted to what they mean", () => {
  it("never prints float debris", () => {
    expect(formatValue(10 / 3)).toBe("3.333");
    expect(formatValue(-2e-16)).toBe("0");
    expect(formatValue(-0)).toBe("0");
    expect(formatValue(0.1 + 0.2)).toBe("0.3");
    // a credit of -0.0002 shown to 3 decimals is 0: the label page printed "-0"
    expect(formatValue(-0.0002)).toBe("0");
    expect(formatValue(-0.0002, 4)).toBe("-0.0002");
    expect(formatValue(-0.004)).toBe("-0.004");
    expect(formatPercent(-0.001)).toBe("0%");
    expect(formatPercent(-0.25)).toBe("-25%");
    expect(formatPercent(0.1234, 1)).toBe("12.3%");
  });
  it("tokens, cost and durations on the trace's clock", () => {
    expect(formatTokens(12000)).toBe("12,000");
    expect(formatTokens(1_254_000)).toBe("1.25M");
    expect(formatTokens(null)).toBe("—");
    expect(formatCost(0.0042137)).toBe("$0.00421");
    expect(formatCost(0.25)).toBe("$0.25");
    expect(formatCost(12.5)).toBe("$12.50");
    expect(formatDuration(129, "steps")).toBe("129 steps");
    expect(formatDuration(1, "steps")).toBe("1 step");
    expect(formatDuration(7)).toBe("7 s");
    expect(formatDuration(42.25)).toBe("42.3 s");
    expect(formatDuration(200)).toBe("3 min 20 s");
    expect(formatDuration(7500)).toBe("2 h 5 min");
    expect(clockOf({ clock: "step_index" })).toBe("steps");
    expect(clockOf(null)).toBe("seconds");
    expect(axisLabel("steps")).toBe("step");
  });
});

describe("counted", () => {
  it("says one thing in the singular and any other count in the plural", () => {
    expect(counted(1, "run")).toBe("1 run");
    expect(counted(0, "run")).toBe("0 runs");
    expect(counted(2, "replay")).toBe("2 replays");
    expect(counted(12345, "trace")).toBe("12,345 traces");
    expect(counted(3, "child", "children")).toBe("3 children");
  });
});
