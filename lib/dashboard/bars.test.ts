import { describe, expect, it } from "vitest";
import { describeBar, parseBar } from "./bars";

describe("bar keys", () => {
  it("parse every kind of bar", () => {
    expect(parseBar("speedup:3")).toEqual({ kind: "bin", metric: "speedup", index: 3 });
    expect(parseBar("speedup:null")).toEqual({ kind: "null", metric: "speedup" });
    expect(parseBar("e1:1")).toEqual({ kind: "e1", value: 1 });
    expect(parseBar("e1:null")).toEqual({ kind: "e1", value: null });
    expect(parseBar("verdict:late")).toEqual({ kind: "verdict", verdict: "late" });
    expect(parseBar("verdict:none")).toEqual({ kind: "verdict", verdict: null });
    expect(parseBar("day:2026-11-29")).toEqual({ kind: "day", day: "2026-11-29" });
    expect(parseBar("policy:ckpt:7")).toEqual({ kind: "policy", version: "ckpt:7" });
    expect(parseBar("policy:")).toEqual({ kind: "policy", version: null });
  });

  it("refuse keys no bar has", () => {
    for (const key of [undefined, "", "speedup", "nope:1", "speedup:-1", "verdict:great", "day:yesterday", "e1:2"]) expect(parseBar(key)).toBeNull();
  });

  it("describe the traces behind a bar", () => {
    expect(describeBar({ kind: "bin", metric: "speedup", index: 0 }, (m) => m, "1-1.2")).toBe("speedup in 1-1.2");
    expect(describeBar({ kind: "policy", version: null }, (m) => m)).toBe("no policy_version");
  });
});
