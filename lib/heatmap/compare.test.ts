import { describe, expect, it } from "vitest";
import { buildAgentTimeHeatmap } from "./agent-time";
import { differenceHeatmap, sameGrid, withSharedDomain } from "./compare";
import { exampleCredited, values } from "./fixtures";

describe("side-by-side comparison", () => {
  const ccp = buildAgentTimeHeatmap(exampleCredited(), 4);
  const uniform = buildAgentTimeHeatmap(exampleCredited({ method: "uniform" }), 4);

  it("puts both heatmaps on one symmetric domain, the larger of the two", () => {
    const [a, b] = withSharedDomain([ccp, uniform]);
    expect(a!.domain).toEqual(ccp.domain); // CCP's 1.2251 beats uniform's 0.60125
    expect(b!.domain).toEqual(ccp.domain);
    expect(b!.ticks).toEqual(ccp.ticks);
  });

  it("shows where two methods disagree: CCP - uniform per cell, gaps kept", () => {
    const d = differenceHeatmap(ccp, uniform);
    const u = 2.405 / 8;
    const v = values(d);
    expect(v[1]![1]).toBeCloseTo(1.2251 - u, 12); // the planner's message: CCP credits it far more
    expect(v[1]![0]).toBeNull();
    expect(d.title).toBe("Where they disagree: CCP - uniform");
    expect(d.domain[0]).toBe(-d.domain[1]);
  });

  it("refuses to subtract different grids", () => {
    const other = buildAgentTimeHeatmap(exampleCredited(), 3);
    expect(sameGrid(ccp, other)).toBe(false);
    expect(() => differenceHeatmap(ccp, other)).toThrow();
  });
});
