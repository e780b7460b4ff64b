import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { leftOutGlobs } from "./left-out.mjs";

const root = mkdtempSync(path.join(tmpdir(), "left-out-"));
mkdirSync(path.join(root, "lib/server/blame"), { recursive: true });
writeFileSync(path.join(root, "lib/server/fuzz.int.test.ts"), "");
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("leftOutGlobs", () => {
  it("returns the globs that name a file or a folder, trimmed", () => {
    expect(leftOutGlobs(root, " lib/server/blame/** ,lib/server/fuzz.int.test.ts,")).toEqual(["lib/server/blame/**", "lib/server/fuzz.int.test.ts"]);
    expect(leftOutGlobs(root, undefined)).toEqual([]);
  });

  it("throws on a file or a folder that is not there (renamed)", () => {
    expect(() => leftOutGlobs(root, "lib/server/fuzzing.int.test.ts")).toThrow(/lib\/server\/fuzzing\.int\.test\.ts, which matches no file/);
    expect(() => leftOutGlobs(root, "lib/server/blames/**")).toThrow(/matches no folder/);
    // a folder named as a file, and a file as a folder
    expect(() => leftOutGlobs(root, "lib/server/blame")).toThrow(/no file/);
    expect(() => leftOutGlobs(root, "lib/server/fuzz.int.test.ts/**")).toThrow(/no folder/);
  });

  it("takes globs of another shape as given", () => {
    expect(leftOutGlobs(root, "**/*.replica.int.test.ts")).toEqual(["**/*.replica.int.test.ts"]);
  });
});
