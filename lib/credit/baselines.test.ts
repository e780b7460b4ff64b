import { describe, expect, it } from "vitest";
import { loadExampleTrace } from "../metrics/fixtures";
import { computeCredit } from "./index";

// The paper's example under the uniform preset: R_total = 1 (team) + 0.3 (orchestration)
// + 0.125 (parallelism) + 1 (communication) + 0.1 (tool) - 0.12 (cost) = 2.405
const R_TOTAL = 2.405;

const totals = (method: "uniform" | "terminal" | "mc_return") => {
  const res = computeCredit(loadExampleTrace(), { method, normalize: true });
  expect(res.r_total).toBeCloseTo(R_TOTAL, 9);
  for (const e of res.events) expect(e.by_family).toEqual({});
  expect(res.normalize).toBe(false); // ignored for baselines
  return res.events.map((e) => e.total);
};

describe("baselines", () => {
  it("uniform: R_total / N everywhere", () => {
    for (const v of totals("uniform")) expect(v).toBeCloseTo(R_TOTAL / 8, 9);
  });

  it("terminal: R_total on the terminal event only", () => {
    const credit = totals("terminal");
    expect(credit.slice(0, 7)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(credit[7]).toBeCloseTo(R_TOTAL, 9); // e8, the aggregate
  });

  it("mc_return: discounted sum of immediate rewards in event order", () => {
    // immediate i_k = sum_f w_f r_f(k), cost share 0.015 on every event:
    //   e1 -0.015; e2, e3 0.1 (orch) + 0.0625 (par) - 0.015 = 0.1475; e4 1 (comm) - 0.015 = 0.985;
    //   e5 0.1 (tool) - 0.015 = 0.085; e6, e7 -0.015; e8 1 (task) + 0.1 (orch) - 0.015 = 1.085
    // G_k = i_k + 0.95 G_{k+1}:
    //   G8 = 1.085; G7 = -0.015 + 0.95 x 1.085 = 1.01575; G6 = -0.015 + 0.95 x 1.01575 = 0.9499625
    //   G5 = 0.085 + 0.95 x 0.9499625 = 0.987464375; G4 = 0.985 + 0.95 x G5 = 1.92309115625
    //   G3 = 0.1475 + 0.95 x G4 = 1.9744365984375; G2 = 0.1475 + 0.95 x G3 = 2.023214768515625
    //   G1 = -0.015 + 0.95 x G2 = 1.90705403008984375
    const expected = [
      1.90705403008984375, 2.023214768515625, 1.9744365984375, 1.92309115625, 0.987464375, 0.9499625, 1.01575, 1.085,
    ];
    totals("mc_return").forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 9));
  });
});
