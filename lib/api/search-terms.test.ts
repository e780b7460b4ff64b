import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { containsPattern, hasWholeWord, highlightParts, searchTerms, wholeWordRegex, wordPrefilter } from "./search-terms";

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

describe("whole words", () => {
  it("tells a whole word from a fragment inside a longer one", () => {
    expect(hasWholeWord("the spinel crystal", "Pine")).toBe(false);
    expect(hasWholeWord("Pine Street, then spinel", "pine")).toBe(true);
    expect(hasWholeWord("arXiv 1901.09759", "901")).toBe(false);
    expect(hasWholeWord("room 901.", "901")).toBe(true);
    expect(hasWholeWord("«Пинск» и Пинская", "Пинск")).toBe(true);
    expect(hasWholeWord("Пинская", "Пинск")).toBe(false);
    // the first occurrence a fragment, a later one whole
    expect(hasWholeWord("spine, pine", "pine")).toBe(true);
    expect(hasWholeWord("975 Sunset Drive", "975 Sunset Drive")).toBe(true);
  });

  it("escapes regex characters for PostgreSQL and bounds the term by non-word characters", () => {
    expect(wholeWordRegex("a.b(c)")).toBe("(^|[^[:alnum:]_])a\\.b\\(c\\)($|[^[:alnum:]_])");
    // read as a JavaScript regex (same syntax for these parts, [:alnum:] aside) it matches only the literal term
    const js = new RegExp(wholeWordRegex("1.5").replace(/\[\^\[:alnum:\]_\]/g, "[^A-Za-z0-9_]"), "i");
    expect(js.test("x 1.5 y")).toBe(true);
    expect(js.test("x 125 y")).toBe(false);
  });

  it("a whole-word match is always a substring match", () => {
    fc.assert(fc.property(fc.string(), fc.string({ minLength: 1 }), (text, term) => {
      if (hasWholeWord(text, term)) expect(text.toLowerCase().includes(term.toLowerCase())).toBe(true);
    }));
  });
});

describe("wordPrefilter", () => {
  it("keeps the words a separator starts: whole where one also ends them, a prefix at the end of the term", () => {
    // "https" may end a longer word ("xhttps"); "news" and "example" stand whole; "4697" may go on ("46971")
    expect(wordPrefilter("https://news.example/4697")).toBe("('news' & 'example' & '4697':*) | 'long-content'");
    expect(wordPrefilter("carbon pricing")).toBe("('pricing':*) | 'long-content'");
    expect(wordPrefilter(" timeout ")).toBe("('timeout') | 'long-content'");
  });

  it("says nothing of a term with no word a separator starts", () => {
    expect(wordPrefilter("timeout")).toBeNull();
    expect(wordPrefilter("HAT136")).toBeNull();
    expect(wordPrefilter("…")).toBeNull();
    expect(wordPrefilter("")).toBeNull();
  });

  it("takes a non-ASCII neighbour as a possible letter: the word may go on through it", () => {
    expect(wordPrefilter("x caf\u00e9 y")).toBe("('caf':* & 'y':*) | 'long-content'");
    expect(wordPrefilter("x \u00e9t\u00e9 y")).toBe("('y':*) | 'long-content'");
  });

  it("cuts a long word to the 200 characters the index keeps, as a prefix", () => {
    const long = "a".repeat(250);
    expect(wordPrefilter(` ${long} `)).toBe(`('${"a".repeat(200)}':*) | 'long-content'`);
  });

  it("only ever quotes letters and digits (a term cannot inject tsquery syntax)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (term) => {
        const q = wordPrefilter(term);
        if (q === null) return;
        expect(q).toMatch(/^\((?:'[A-Za-z0-9]+'(?::\*)?)(?: & '[A-Za-z0-9]+'(?::\*)?)*\) \| 'long-content'$/);
      }),
    );
  });
});
