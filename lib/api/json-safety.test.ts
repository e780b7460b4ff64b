import { describe, expect, it } from "vitest";
import { unstorableStrings } from "./json-safety";

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
