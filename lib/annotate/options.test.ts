import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FAMILIES } from "../trace/types";
import { labelOptions, optionForKey, valueText } from "./options";
import { storedValuesChangedBy, widestChange } from "./recompute";
import { DEFAULT_RUBRICS, mergeRubrics } from "../rubrics";

describe("label options", () => {
  it("trace-level task_success has exactly fail = 0 and success = 1; key 3 means nothing", () => {
    expect(labelOptions("task_success", "trace")).toEqual([
      { key: "1", value: 0, text: "fail" },
      { key: "2", value: 1, text: "success" },
    ]);
    expect(optionForKey("task_success", "trace", "3")).toBeNull();
    expect(valueText("task_success", "trace", 0)).toBe("fail");
  });
  it("cost: key 1 is wasteful (+1), key 5 cheap (−1)", () => {
    expect(optionForKey("cost", "event", "1")).toEqual({ key: "1", value: 1, text: "wasteful +1" });
    expect(optionForKey("cost", "event", "5")).toEqual({ key: "5", value: -1, text: "cheap −1" });
  });
  it("quality families: key 1 is −1 (bad), key 5 is +1 (good)", () => {
    expect(labelOptions("step_quality", "event").map((o) => o.value)).toEqual([-1, -0.5, 0, 0.5, 1]);
    expect(optionForKey("step_quality", "event", "1")!.text).toBe("bad −1");
  });
  it("every option of every family is a value the API accepts", () => {
    fc.assert(fc.property(fc.constantFrom(...FAMILIES), fc.constantFrom("event" as const, "trace" as const), (family, unit) => {
      for (const o of labelOptions(family, unit)) {
        expect(o.value).toBeGreaterThanOrEqual(-1);
        expect(o.value).toBeLessThanOrEqual(1);
        if (family === "task_success" && unit === "trace") expect([0, 1]).toContain(o.value);
      }
      const keys = labelOptions(family, unit).map((o) => o.key);
      expect(keys).toEqual(keys.map((_, i) => String(i + 1)));
    }));
  });
});

describe("storedValuesChangedBy", () => {
  it("event-level labels change nothing stored; trace-level ones R_total; task_success also E1, the verdict and the diagnostics", () => {
    expect(storedValuesChangedBy({ event_id: null, family: "task_success" })).toBe("metrics");
    expect(storedValuesChangedBy({ family: "task_success" })).toBe("metrics");
    expect(storedValuesChangedBy({ event_id: "e8", family: "task_success" })).toBe("nothing");
    expect(storedValuesChangedBy({ event_id: null, family: "step_quality" })).toBe("r_total");
    expect(storedValuesChangedBy({ event_id: "e8", family: "step_quality" })).toBe("nothing");
  });
  it("a submission of several families recomputes the widest", () => {
    expect(widestChange([])).toBe("nothing");
    expect(widestChange(["nothing", "r_total", "nothing"])).toBe("r_total");
    expect(widestChange(["r_total", "metrics", "nothing"])).toBe("metrics");
    expect(widestChange(["metrics", "r_total"])).toBe("metrics");
  });
});

describe("rubrics", () => {
  it("has a default for each of the eight families, and a project's text replaces only its family", () => {
    expect(Object.keys(DEFAULT_RUBRICS).sort()).toEqual([...FAMILIES].sort());
    const merged = mergeRubrics([{ family: "cost", negative: "a", neutral: "b", positive: "c" }]);
    expect(merged.cost.positive).toBe("c");
    expect(merged.step_quality).toEqual(DEFAULT_RUBRICS.step_quality);
  });
});
