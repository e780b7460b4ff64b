import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { excessiveNesting, unstorableStrings } from "./json-safety";

describe("excessiveNesting", () => {
  it("finds the bracket that opens level 65, ignoring brackets inside strings", () => {
    expect(excessiveNesting("[".repeat(64) + "]".repeat(64))).toBeNull();
    expect(excessiveNesting("[".repeat(65))).toBe(64);
    expect(excessiveNesting(`{"a": "${"[".repeat(100)}"}`)).toBeNull();
    expect(excessiveNesting(`{"a": "\\"${"[".repeat(100)}"}`)).toBeNull();
    expect(excessiveNesting(`{"a":1}\n`.repeat(1000))).toBeNull(); // JSONL: depth 1 on every line
  });

  it("agrees with the real depth of any JSON value", () => {
    const depthOf = (v: unknown): number => (v !== null && typeof v === "object" ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0);
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 8 }), (value, max) => {
      expect(excessiveNesting(JSON.stringify(value), max) === null).toBe(depthOf(value) <= max);
    }));
  });
});

describe("unstorableStrings", () => {
  it("names the path of every U+0000 and lone surrogate, in values and keys", () => {
    expect(unstorableStrings({ name: "a\u0000b", list: ["ok", "\ud800"], ["k\u0000"]: 1, pair: "\ud83d\ude00" })).toEqual([
      { path: "$.name", message: "must not contain U+0000 or a lone surrogate" },
      { path: "$.list[1]", message: "must not contain U+0000 or a lone surrogate" },
      { path: '$["k\\u0000"]', message: "key must not contain U+0000 or a lone surrogate" },
    ]);
    expect(unstorableStrings(JSON.parse('{"weights": {"__proto__": "x"}}'))).toEqual([{ path: "$.weights.__proto__", message: 'the key "__proto__" is not accepted' }]);
  });
});
