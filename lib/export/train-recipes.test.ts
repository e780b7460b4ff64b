import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The Python recipes of docs/train compile (python3's py_compile, the
 * bytecode written to a temporary folder, not next to the recipes). Their
 * packages (datasets, torch, pandas, pyarrow, the trainers) cannot be
 * installed here, so this is all that runs of them, apart from the verl
 * reward function, which needs none. Skipped, saying so, where there is no
 * python3.
 */

const python = spawnSync("python3", ["--version"]).status === 0;
const recipes = readdirSync("docs/train").filter((f) => f.endsWith(".py")).sort();
const dir = mkdtempSync(path.join(tmpdir(), "baton-recipes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!python)("docs/train recipes (python3 found)", () => {
  it.each(recipes)("%s compiles", (recipe) => {
    const code = "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)";
    const run = spawnSync("python3", ["-c", code, path.join("docs/train", recipe), path.join(dir, `${recipe}c`)], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("verl_reward.compute_score gives Baton's value for the recorded reply, the mismatch value otherwise", () => {
    const code = [
      "import sys; sys.dont_write_bytecode = True; sys.path.insert(0, 'docs/train')",
      "from verl_reward import compute_score",
      "extra = {'advantage': -0.7, 'credit': -0.5, 'reward': 0.0}",
      "print(compute_score('baton', ' booked ', 'booked', extra), compute_score('baton', 'other', 'booked', extra), compute_score('baton', 'x', None, extra, mismatch=-1.0))",
    ].join("\n");
    expect(execFileSync("python3", ["-c", code], { encoding: "utf8" }).trim()).toBe("-0.7 0.0 -1.0");
  });
});

describe.skipIf(python)("docs/train recipes (no python3)", () => {
  it.skip("not compiled: python3 is not installed on this machine", () => {});
});
