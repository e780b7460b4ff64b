import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readConfig, setting, SETTINGS } from "./config";

/**
 * Every setting is validated once, in lib/server/config.ts, and the
 * README's configuration table lists exactly those settings: a typo in a
 * number stops Baton at start with the variable's name, never a NaN at
 * run time.
 */

const ROOT = path.resolve(__dirname, "../..");

/** The variables of the README's "Configuration" table (the first table after that heading). */
function readmeSettings(): string[] {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Configuration"));
  const table = section.slice(0, section.indexOf("\n\n", section.indexOf("| `")));
  return [...table.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]!);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === "node_modules" || name === "generated") return [];
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

/** Variables Baton sets for its own child processes and test hooks: not configuration. */
const INTERNAL = new Set(["BATON_PROCESS_INDEX", "BATON_DATASET_FAIL_SHARD"]);

const env = (vars: Record<string, string>) => vars as NodeJS.ProcessEnv;

describe("configuration", () => {
  it("the README's table lists every setting, and only those", () => {
    expect([...readmeSettings()].sort()).toEqual([...SETTINGS].sort());
  });

  it("no code reads a BATON_ variable past the validation (process.env.BATON_... outside lib/server/config.ts)", () => {
    const raw: string[] = [];
    for (const file of [...sourceFiles(path.join(ROOT, "app")), ...sourceFiles(path.join(ROOT, "lib")), ...sourceFiles(path.join(ROOT, "components")), path.join(ROOT, "proxy.ts")]) {
      if (file.endsWith(path.join("lib", "server", "config.ts"))) continue;
      for (const m of readFileSync(file, "utf8").matchAll(/\benv(?:\.|\[")(BATON_[A-Z_]+)/g)) if (!INTERNAL.has(m[1]!)) raw.push(`${path.relative(ROOT, file)}: ${m[1]}`);
    }
    expect(raw).toEqual([]);
  });

  it("a bad value stops the start with the variable's name; setting() reads one as validated", () => {
    expect(() => readConfig(env({ BATON_DB_POOL: "ten" }))).toThrow(/BATON_DB_POOL/);
    expect(() => readConfig(env({ BATON_JUDGE_TIMEOUT_MS: "-1" }))).toThrow(/BATON_JUDGE_TIMEOUT_MS/);
    expect(() => readConfig(env({ BATON_EXPORT_SLOTS: "0" }))).toThrow(/BATON_EXPORT_SLOTS/);
    expect(setting("BATON_DB_POOL", env({}))).toBe(10);
    expect(setting("BATON_DATASET_QUOTA_MB", env({ BATON_DATASET_QUOTA_MB: "0.5" }))).toBe(0.5);
    expect(setting("BATON_MAX_BODY_MB", env({ BATON_MAX_BODY_MB: "" }))).toBe(100);
    expect(setting("BATON_DATASET_PROCESSES", env({}))).toBeUndefined();
  });
});
