import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseAnswer, rangeOf } from "./answer";

describe("parseAnswer (strict, never guessed)", () => {
  it("accepts a value in range with a reason", () => {
    expect(parseAnswer('{"value": -0.25, "reason": "misleading"}', "signed")).toEqual({ ok: true, value: -0.25, reason: "misleading" });
    expect(parseAnswer(' {"value": 1, "reason": "done"}\n', "binary")).toEqual({ ok: true, value: 1, reason: "done" });
  });
  it("refuses prose, out of range, wrong binary values, missing reason and extra keys", () => {
    expect(parseAnswer("Looks fine, 0.8", "signed").ok).toBe(false);
    expect(parseAnswer('{"value": 3, "reason": "x"}', "signed")).toEqual({ ok: false, error: "value 3 is outside [-1, 1]" });
    expect(parseAnswer('{"value": 0.5, "reason": "x"}', "binary")).toEqual({ ok: false, error: "value 0.5 is not 0 or 1" });
    expect(parseAnswer('{"value": 0.5}', "signed").ok).toBe(false);
    expect(parseAnswer('{"value": "0.5", "reason": "x"}', "signed").ok).toBe(false);
    expect(parseAnswer('{"value": 0.5, "reason": "x", "confidence": 1}', "signed").ok).toBe(false);
    expect(parseAnswer('```json\n{"value": 0.5, "reason": "x"}\n```', "signed").ok).toBe(false);
  });
  it("task_success on a trace is binary, everything else signed", () => {
    expect(rangeOf("task_success", "trace")).toBe("binary");
    expect(rangeOf("task_success", "event")).toBe("signed");
    expect(rangeOf("cost", "trace")).toBe("signed");
  });
  it("never returns a value outside its range, whatever the reply", () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json(), fc.record({ value: fc.double(), reason: fc.string() }).map((o) => JSON.stringify(o))), (raw) => {
      const a = parseAnswer(raw, "signed");
      return !a.ok || (a.value >= -1 && a.value <= 1 && a.reason.length > 0);
    }));
  });
});
