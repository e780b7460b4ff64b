import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonErrorOffset, lineColumn, malformedJson } from "./json-error";

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};
const message = (text: string) => {
  try {
    JSON.parse(text);
  } catch (error) {
    return malformedJson(text, error);
  }
  throw new Error("valid");
};

describe("where a JSON text breaks", () => {
  it("names line and column as an editor does", () => {
    expect(message('{\n  "a": 1,\n  "b": x\n}')).toBe("malformed JSON at line 3, column 8: Unexpected token 'x'");
    expect(message('{\n  "a": 1,\n}')).toMatch(/^malformed JSON at line 3, column 1: /);
    expect(message('{"events": [1, 2')).toMatch(/^malformed JSON at the end \(line 1, column 17\): /);
    expect(message('[{"a": "tab\tinside"}]')).toMatch(/^malformed JSON at line 1, column 12: /);
    expect(message("{} {}")).toMatch(/^malformed JSON at line 1, column 4: /);
    expect(lineColumn("ab\ncd", 4)).toEqual({ line: 2, column: 2 });
  });

  it("agrees with JSON.parse on what is valid, for any JSON value and any one character changed, added or taken out (fast-check)", () => {
    const texts = fc.tuple(fc.json(), fc.nat(), fc.constantFrom(..."{}[]\",:0-.eE tfn\\x\n"), fc.constantFrom("replace", "insert", "delete"));
    fc.assert(
      fc.property(texts, ([json, at, c, how]) => {
        const k = json.length === 0 ? 0 : at % json.length;
        const text = how === "replace" ? json.slice(0, k) + c + json.slice(k + 1) : how === "insert" ? json.slice(0, k) + c + json.slice(k) : json.slice(0, k) + json.slice(k + 1);
        expect(jsonErrorOffset(json)).toBeNull();
        expect(jsonErrorOffset(text) === null, JSON.stringify(text)).toBe(parses(text));
      }),
      { numRuns: 2000 },
    );
  });
});
