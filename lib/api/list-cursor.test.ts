import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeListCursor, encodeListCursor, LIST_CURSOR_PATTERN } from "./list-cursor";

describe("list cursors", () => {
  it("round-trip every id, value and null, and match the pattern the query accepts", () => {
    fc.assert(
      fc.property(fc.nat(), fc.option(fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })), { nil: undefined }), (id, value) => {
        const cursor = { id, ...(value !== undefined && { value: Object.is(value, -0) ? 0 : value }) };
        const text = encodeListCursor(cursor);
        expect(text).toMatch(LIST_CURSOR_PATTERN);
        expect(decodeListCursor(text)).toEqual(cursor);
      }),
    );
    expect(decodeListCursor("null~7")).toEqual({ value: null, id: 7 });
    expect(decodeListCursor("42")).toEqual({ id: 42 });
  });

  it("refuses anything else", () => {
    for (const bad of ["", "0x10", "1~", "~1", "abc~1", "1.5", "Infinity~2"]) expect(bad).not.toMatch(LIST_CURSOR_PATTERN);
  });
});
