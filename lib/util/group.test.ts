import { describe, expect, it } from "vitest";
import { pushTo } from "./group";

describe("pushTo", () => {
  it("groups values by key in the order they come, one list per key", () => {
    const m = new Map<string, number[]>();
    [["a", 1], ["b", 2], ["a", 3], ["a", 4]].forEach(([k, v]) => pushTo(m, k as string, v as number));
    expect([...m]).toEqual([["a", [1, 3, 4]], ["b", [2]]]);
  });

  it("appends to the list it holds (no copy per value): 200,000 values under one key", () => {
    const m = new Map<number, number[]>();
    pushTo(m, 0, -1);
    const first = m.get(0)!;
    for (let i = 0; i < 200_000; i++) pushTo(m, 0, i);
    expect(m.get(0)).toBe(first);
    expect(first.length).toBe(200_001);
  });
});
