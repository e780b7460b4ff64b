import { describe, expect, it } from "vitest";
import { judgesParam, selectionParam } from "./selection";

describe("judges= parameter", () => {
  it("defaults to none; all; a list without duplicates", () => {
    expect(judgesParam.parse(undefined)).toEqual({ kind: "none" });
    expect(judgesParam.parse("none")).toEqual({ kind: "none" });
    expect(judgesParam.parse("all")).toEqual({ kind: "all" });
    expect(judgesParam.parse("a, b,a")).toEqual({ kind: "names", names: ["a", "b"] });
    expect(selectionParam(judgesParam.parse("a,b"))).toBe("a,b");
  });
  it("refuses empty names", () => {
    expect(judgesParam.safeParse("a,,b").success).toBe(false);
    expect(judgesParam.safeParse(",").success).toBe(false);
  });
});
