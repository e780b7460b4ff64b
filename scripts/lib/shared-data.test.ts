import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sharedDataAvailable, sharedDataExclusions, skipSummary, testFilesNeedingShared } from "./shared-data.mjs";

/** A checkout with no ../shared beside it, holding `files`. */
function checkout(files: Record<string, string>): string {
  const parent = mkdtempSync(path.join(tmpdir(), "baton-noshared-"));
  const root = path.join(parent, "repo");
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}
const isTest = (f: string) => f.endsWith(".test.ts");
const ci = process.env.CI;
afterEach(() => {
  if (ci === undefined) delete process.env.CI;
  else process.env.CI = ci;
});

describe("tests that need ../shared", () => {
  const root = checkout({
    "lib/fixture.ts": 'export const example = readFileSync("../shared/trace-schema/example_trace.json", "utf8");',
    "lib/deep/fixture.ts": 'export { example } from "../fixture";',
    "lib/direct.test.ts": 'const text = readFileSync("../shared/data/tau_bench/gpt-4o-airline.json", "utf8");',
    "lib/through.test.ts": 'import { example } from "./fixture";',
    "lib/alias.test.ts": 'import { example } from "@/lib/deep/fixture";',
    "lib/dynamic.test.ts": 'const m = await import("./deep/fixture");',
    "lib/own.test.ts": 'import { example } from "./fixture";\nit.skipIf(!sharedDataAvailable())("x", () => {});',
    "lib/plain.test.ts": 'import { other } from "./plain-helper";',
    "lib/plain-helper.ts": "// mentions shared/data only in prose\nexport const other = 1;",
    "lib/cycle-a.test.ts": 'import "./cycle-b";',
    "lib/cycle-b.ts": 'import "./cycle-c";',
    "lib/cycle-c.ts": 'import "./cycle-b";',
  });

  it("lists the test files that read it directly, through fixtures (relative, @/ and dynamic imports, transitively), and none other", () => {
    expect(testFilesNeedingShared(root, ["lib"], isTest)).toEqual(["lib/alias.test.ts", "lib/direct.test.ts", "lib/dynamic.test.ts", "lib/through.test.ts"]);
  });

  it("without ../shared: not available, and those files are left out; in CI its absence is an error", () => {
    delete process.env.CI;
    expect(sharedDataAvailable(root)).toBe(false);
    expect(sharedDataExclusions(root, ["lib"], isTest)).toHaveLength(4);
    process.env.CI = "true";
    expect(() => sharedDataExclusions(root, ["lib"], isTest)).toThrow("../shared (real traces in ../shared/data, the paper's example in ../shared/trace-schema) is missing; in CI it must be present");
    rmSync(path.dirname(root), { recursive: true, force: true });
  });

  it.skipIf(!sharedDataAvailable())("beside this checkout ../shared is present: nothing is left out", () => {
    expect(sharedDataExclusions(process.cwd(), ["lib"], isTest)).toEqual([]);
  });
});

describe("what a run says of the files it left out", () => {
  const skipped = { unit: ["lib/a.test.ts", "lib/b.test.ts"], integration: ["lib/c.int.test.ts"] };

  it("one line, counting only the projects it runs (npm run test:unit hears nothing of integration files)", () => {
    const [line, ...rest] = skipSummary(skipped, new Set(["unit"]), false);
    expect(line).toContain("Skipped  2 test file(s) that read real traces from ../shared");
    expect(line).toContain('README.md, "Test data"');
    expect(rest).toEqual([]);
    expect(skipSummary(skipped, null, false)[0]).toContain("Skipped  3 test file(s)");
    expect(skipSummary(skipped, new Set(["integration"]), true)).toEqual([expect.stringContaining("Skipped  1 test file(s)"), "          lib/c.int.test.ts"]);
    expect(skipSummary({ unit: [], integration: [] }, null, true)).toEqual([]);
  });
});
