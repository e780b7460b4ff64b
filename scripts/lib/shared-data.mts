import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * `../shared` (the real third-party traces in ../shared/data and the paper's
 * example in ../shared/trace-schema) is kept outside the repository. A clone
 * elsewhere has no such folder: the test files that read it, directly or
 * through a fixture module, are then left out of the run and counted in its
 * summary (vitest.config.mts, playwright.config.ts). In CI, where it is
 * always present, its absence is a failure, never a skip.
 */
const SHARED = /["'`](\.\.\/)+shared\/(data|trace-schema)/;
const IMPORT = /(?:import|export)\s[^"'`;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
const SOURCE = /\.(ts|tsx|mts)$/;
const SKIP_DIRS = new Set(["node_modules", ".next", ".next-e2e", ".git", "generated"]);

/** Whether ../shared is there; absent in CI: throws. Tests that read it only in some cases may `it.skipIf(!sharedDataAvailable())`. */
export function sharedDataAvailable(root = process.cwd()): boolean {
  if (existsSync(path.join(root, "../shared/data")) && existsSync(path.join(root, "../shared/trace-schema"))) return true;
  if (process.env.CI === "true" || process.env.CI === "1") {
    throw new Error("../shared (real traces in ../shared/data, the paper's example in ../shared/trace-schema) is missing; in CI it must be present");
  }
  // said once, in the run's summary (vitest.config.mts, playwright.config.ts), not by every process that asks
  return false;
}

function sourcesUnder(root: string, dirs: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      if (SKIP_DIRS.has(entry) || entry.startsWith(".")) continue;
      const p = path.join(dir, entry);
      if (statSync(p).isDirectory()) walk(p);
      else if (SOURCE.test(entry)) found.push(p);
    }
  };
  for (const d of dirs) if (existsSync(path.join(root, d))) walk(path.join(root, d));
  return found;
}

function resolveImport(root: string, from: string, spec: string): string | null {
  const base = spec.startsWith("@/") ? path.join(root, spec.slice(2)) : spec.startsWith(".") ? path.resolve(path.dirname(from), spec) : null;
  if (base === null) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.mts`, path.join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/**
 * The test files (matching `isTest`) under `dirs` that read ../shared
 * themselves or through the modules they import, transitively; relative to
 * `root`, sorted. A file that calls `sharedDataAvailable` handles the absence
 * itself and is not listed.
 */
export function testFilesNeedingShared(root: string, dirs: readonly string[], isTest: (file: string) => boolean): string[] {
  const files = sourcesUnder(root, dirs);
  const text = new Map(files.map((f) => [f, readFileSync(f, "utf8")]));
  const needs = new Map<string, boolean>();
  const visit = (file: string, stack: Set<string>): boolean => {
    const known = needs.get(file);
    if (known !== undefined) return known;
    if (stack.has(file)) return false;
    stack.add(file);
    const source = text.get(file) ?? (existsSync(file) ? readFileSync(file, "utf8") : "");
    let result = SHARED.test(source);
    if (!result) {
      for (const m of source.matchAll(IMPORT)) {
        const dep = resolveImport(root, file, m[1] ?? m[2]!);
        if (dep && visit(dep, stack)) {
          result = true;
          break;
        }
      }
    }
    stack.delete(file);
    needs.set(file, result);
    return result;
  };
  return files
    .filter((f) => isTest(f) && !text.get(f)!.includes("sharedDataAvailable") && visit(f, new Set()))
    .map((f) => path.relative(root, f))
    .sort();
}

/** The files to leave out of a test run when ../shared is absent (none when it is there; in CI its absence throws). */
export function sharedDataExclusions(root: string, dirs: readonly string[], isTest: (file: string) => boolean): string[] {
  return sharedDataAvailable(root) ? [] : testFilesNeedingShared(root, dirs, isTest);
}

/**
 * What a test run says about the files it left out for want of ../shared:
 * one line, counting only the files of the projects it runs (`projectsRun`,
 * null: all), and the files themselves only when asked (`list`).
 */
export function skipSummary(skipped: Readonly<Record<string, readonly string[]>>, projectsRun: ReadonlySet<string> | null, list: boolean): string[] {
  const files = Object.entries(skipped).flatMap(([project, f]) => (projectsRun === null || projectsRun.has(project) ? f : []));
  if (files.length === 0) return [];
  const line = `\n Skipped  ${files.length} test file(s) that read real traces from ../shared, absent here (README.md, "Test data", says how to get it; BATON_LIST_SKIPPED=1 lists them)`;
  return list ? [line, ...files.map((f) => `          ${f}`)] : [line];
}
