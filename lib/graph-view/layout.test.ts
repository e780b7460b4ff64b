import { describe, expect, it } from "vitest";
import { computeLayout, groupByLane, LANE_PAD, laneHeight, nodeY, ORDER_STEP, ROW_HEIGHT, TARGET_GAP, timeScale } from "./layout";
import { layoutInput } from "./fixtures";

describe("computeLayout, time spacing", () => {
  // lane 0: seq 0 (t 0), seq 1 (t 1..3, a bar), seq 3 (t 2.5); lane 1: seq 2 (t 2)
  const layout = computeLayout(layoutInput([0, 1, 2, 2.5], [null, 3, null, null], [0, 0, 1, 0], 2));

  it("scales the median gap between an agent's consecutive starts to TARGET_GAP", () => {
    // lane 0 gaps: 1 and 1.5; median (lower) 1
    expect(layout.scale).toBe(TARGET_GAP);
    expect(Array.from(layout.x)).toEqual([0, 48, 96, 120]);
  });

  it("draws t_end as a bar and instants as a glyph", () => {
    expect(Array.from(layout.w)).toEqual([24, 96, 24, 24]);
  });

  it("packs an event overlapping a bar into the next row, and grows the lane", () => {
    // seq 1 occupies row 0 until 48 + 96 + 4 = 148 > 120
    expect(Array.from(layout.row)).toEqual([0, 0, 0, 1]);
    expect(Array.from(layout.laneRows)).toEqual([2, 1]);
    expect(Array.from(layout.laneTop)).toEqual([0, 2 * LANE_PAD + 2 * ROW_HEIGHT, 2 * LANE_PAD + 2 * ROW_HEIGHT + laneHeight(1)]);
    expect(nodeY(layout, 3)).toBe(LANE_PAD + ROW_HEIGHT);
    expect(nodeY(layout, 2)).toBe(92 + LANE_PAD);
  });

  it("indexes each lane's events by x and keeps the widest event per lane", () => {
    expect(Array.from(layout.laneStart)).toEqual([0, 3, 4]);
    expect(Array.from(layout.laneSeqs)).toEqual([0, 1, 3, 2]);
    expect(Array.from(layout.laneMaxW)).toEqual([96, 24]);
    expect(layout.width).toBe(144);
    expect(layout.height).toBe(146);
  });
});

describe("computeLayout, order spacing", () => {
  it("spaces events evenly by event order, one row per lane", () => {
    const layout = computeLayout(layoutInput([0, 0, 0], [5, null, null], [0, 1, 0], 2, "order"));
    expect(Array.from(layout.x)).toEqual([0, ORDER_STEP, 2 * ORDER_STEP]);
    expect(Array.from(layout.w)).toEqual([24, 24, 24]);
    expect(Array.from(layout.row)).toEqual([0, 0, 0]);
  });
});

describe("row packing", () => {
  it("stacks up to four simultaneous events, then overlaps in the row that frees first", () => {
    const layout = computeLayout(layoutInput([0, 0, 0, 0, 0, 0, 10], [null, null, null, null, null, null, null], [0, 0, 0, 0, 0, 0, 0], 1));
    expect(Array.from(layout.row)).toEqual([0, 1, 2, 3, 0, 0, 0]);
    expect(layout.laneRows[0]).toBe(4);
  });
});

describe("timeScale", () => {
  it("is 1 when no agent has two events at different times", () => {
    const { laneStart, laneSeqs } = groupByLane(Int32Array.from([0, 1]), 2);
    expect(timeScale(Float64Array.from([3, 3]), laneStart, laneSeqs)).toBe(1);
  });
});
