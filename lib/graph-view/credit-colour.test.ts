import { describe, expect, it } from "vitest";
import { creditColour, creditExtent, creditPosition, inkOn, NO_CREDIT_COLOUR } from "./credit-colour";

describe("credit colours", () => {
  it("centres zero and scales by the largest |credit|", () => {
    expect(creditExtent([0.2, -0.8, 0.5])).toBe(0.8);
    expect(creditPosition(0, 0.8)).toBe(0.5);
    expect(creditPosition(-0.8, 0.8)).toBe(0);
    expect(creditPosition(0.4, 0.8)).toBe(0.75);
    expect(creditPosition(3, 0.8)).toBe(1);
    expect(creditPosition(3, 0)).toBe(0.5);
  });

  it("colours blame red, credit blue, and null grey (never as zero)", () => {
    expect(creditColour(null, 1)).toBe(NO_CREDIT_COLOUR);
    expect(creditColour(Number.NaN, 1)).toBe(NO_CREDIT_COLOUR);
    expect(creditColour(0, 1)).not.toBe(NO_CREDIT_COLOUR);
    const [r1, , b1] = rgb(creditColour(-1, 1));
    const [r2, , b2] = rgb(creditColour(1, 1));
    expect(r1).toBeGreaterThan(b1);
    expect(b2).toBeGreaterThan(r2);
  });
});

describe("inkOn", () => {
  it("writes dark on light fills and white on dark ones", () => {
    expect(inkOn("#ffffff")).toBe("#0f172a");
    expect(inkOn(creditColour(0, 1))).toBe("#0f172a");
    expect(inkOn(creditColour(1, 1))).toBe("#ffffff");
    expect(inkOn("#2f4b7c")).toBe("#ffffff");
  });
});

function rgb(colour: string): [number, number, number] {
  const [r = 0, g = 0, b = 0] = colour.match(/\d+/g)!.map(Number);
  return [r, g, b];
}
