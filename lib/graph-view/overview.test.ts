import { describe, expect, it } from "vitest";
import { ROLE } from "../metrics/roles";
import { layoutInput } from "./fixtures";
import { computeLayout } from "./layout";
import { overviewGrid } from "./overview";

describe("overviewGrid", () => {
  // order spacing: x = 0, 40, 80, 120 (world width 144); two lanes of 54 (height 108)
  const layout = computeLayout(layoutInput([0, 1, 2, 3], [null, null, null, null], [0, 0, 1, 0], 2, "order"));

  it("bins events by the centre of their lane and their x, rows capped at the lane count", () => {
    const grid = overviewGrid(layout, Uint16Array.from([0, ROLE.tainted, ROLE.errorSource, 0]), ROLE.tainted | ROLE.errorSource, 4, 48);
    expect([grid.rows, grid.cols, grid.width, grid.height]).toEqual([2, 4, 144, 108]);
    // columns: floor(x / 144 * 4) = 0, 1, 2, 3
    expect(Array.from(grid.counts)).toEqual([1, 1, 0, 1, 0, 0, 1, 0]);
    expect(Array.from(grid.marks)).toEqual([0, 1, 0, 0, 0, 0, 1, 0]);
    expect(grid.maxCount).toBe(1);
  });

  it("puts events sharing a cell together", () => {
    const grid = overviewGrid(layout, new Uint16Array(4), 0, 2, 1);
    expect(Array.from(grid.counts)).toEqual([2, 2]);
    expect(grid.maxCount).toBe(2);
  });
});
