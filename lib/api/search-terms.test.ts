import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { containsPattern, highlightParts, searchTerms } from "./search-terms";

describe("searchTerms", () => {
  it("reads words and quoted phrases, without duplicates", () => {
    expect(searchTerms('timeout "flight HAT136"  Timeout baggage')).toEqual(["timeout", "flight HAT136", "baggage"]);
    expect(searchTerms('  "" ')).toEqual([]);
  });
});

describe("containsPattern", () => {
  it("takes %, _ and backslash literally", () => {
    expect(containsPattern("50%_off\\")).toBe("%50\\%\\_off\\\\%");
  });
});

describe("highlightParts", () => {
  it("marks every occurrence, case-insensitively, keeping the original case", () => {
    expect(highlightParts("Timeout after a timeout", ["TIMEOUT"])).toEqual([
      { text: "Timeout", match: true },
      { text: " after a ", match: false },
      { text: "timeout", match: true },
    ]);
  });

  it("always gives back the text itself, whatever the terms", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.array(fc.string({ maxLength: 3, unit: "binary" }), { maxLength: 3 }), (text, terms) => {
        const parts = highlightParts(text, terms);
        expect(parts.map((p) => p.text).join("")).toBe(text);
        for (const p of parts) if (p.match) expect(terms.some((t) => t.length === p.text.length && t.toLowerCase() === p.text.toLowerCase())).toBe(true);
      }),
    );
  });
});
