import { describe, expect, it } from "vitest";
import { decodeSegment, isStorableText } from "./text";

describe("decodeSegment", () => {
  it("decodes a path segment", () => {
    expect(decodeSegment("demo%20trace%2F1")).toBe("demo trace/1");
    expect(decodeSegment("%F0%9F%98%80")).toBe("\u{1F600}");
  });
  it("is null for malformed escapes, U+0000 and lone surrogates (none can name a stored id)", () => {
    expect(decodeSegment("%E0%A4%A")).toBeNull();
    expect(decodeSegment("%")).toBeNull();
    expect(decodeSegment("a%00b")).toBeNull();
    // a lone surrogate cannot come from UTF-8 escapes (%ED%A0%80 is malformed UTF-8), but can from a decoded string
    expect(decodeSegment("%ED%A0%80")).toBeNull();
    expect(isStorableText("x\ud800")).toBe(false);
  });
});
