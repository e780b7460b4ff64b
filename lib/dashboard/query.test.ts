import { describe, expect, it } from "vitest";
import { createdRange, dashboardFilter, dashboardPageQuery } from "./query";

describe("dashboard query", () => {
  it("turns inclusive days into a [from, to) range of instants", () => {
    expect(createdRange({ from: "2026-01-01", to: "2026-01-03" })).toEqual({ from: new Date("2026-01-01T00:00:00Z"), to: new Date("2026-01-04T00:00:00Z") });
    expect(createdRange({})).toEqual({});
  });

  it("refuses unreal dates and a range that ends before it starts", () => {
    expect(dashboardFilter.safeParse({ from: "2026-02-30" }).success).toBe(false);
    expect(dashboardFilter.safeParse({ from: "26-1-1" }).success).toBe(false);
    expect(dashboardFilter.safeParse({ from: "2026-01-03", to: "2026-01-02" }).success).toBe(false);
    expect(dashboardFilter.safeParse({ from: "2026-01-02", to: "2026-01-02" }).success).toBe(true);
    expect(dashboardFilter.safeParse({ bar: "e1:1" }).success).toBe(false); // the API filter is strict
  });

  it("defaults the trend metric and keeps the bar; judges default to none", () => {
    expect(dashboardPageQuery.parse({ bar: "e1:1" })).toEqual({ bar: "e1:1", trend: "speedup", judges: { kind: "none" } });
    expect(dashboardPageQuery.parse({ judges: "all" }).judges).toEqual({ kind: "all" });
    expect(dashboardPageQuery.parse({ judges: "a,b" }).judges).toEqual({ kind: "names", names: ["a", "b"] });
    expect(dashboardPageQuery.safeParse({ judges: "a,," }).success).toBe(false);
    expect(dashboardPageQuery.safeParse({ trend: "nope" }).success).toBe(false);
  });
});
