import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * No module of the application (lib/, lib/server/, components/, app/,
 * scripts/) imports itself at run time through other modules: a loop makes what a module sees at load depend on which
 * module of the loop was loaded first. Type-only imports are erased and do
 * not count; a dynamic `import()` loads later and does not count either.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SKIP = new Set(["generated", "node_modules"]);

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIP.has(name) ? [] : sourcesUnder(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The module a specifier names inside the repository (null: a package, or outside lib). */
function resolveSpecifier(from: string, specifier: string): string | null {
  const base = specifier.startsWith("@/") ? join(ROOT, specifier.slice(2)) : specifier.startsWith(".") ? resolve(dirname(from), specifier) : null;
  if (base === null) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** What a module imports at run time: imports and re-exports that are not type-only. */
export function runtimeImports(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) continue;
      const named = clause?.namedBindings;
      const onlyTypes = clause !== undefined && clause.name === undefined && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
      if (!onlyTypes) out.push(statement.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
      if (statement.isTypeOnly) continue;
      const clause = statement.exportClause;
      const onlyTypes = clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
      if (!onlyTypes) out.push(statement.moduleSpecifier.text);
    }
  }
  return out;
}

/** Every loop of runtime imports among `files`, each once, as repository paths from the module where it was first found. */
export function importCycles(files: readonly string[]): string[][] {
  const inside = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = runtimeImports(file, readFileSync(file, "utf8")).map((s) => resolveSpecifier(file, s)).filter((t): t is string => t !== null && inside.has(t));
    graph.set(file, [...new Set(targets)]);
  }
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") {
        const loop = stack.slice(stack.indexOf(next)).map((f) => relative(ROOT, f));
        const key = [...loop].sort().join("|");
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push([...loop, relative(ROOT, next)]);
        }
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

describe("runtime imports", () => {
  it("reads type-only imports and re-exports as no import", () => {
    const text = [
      'import type { A } from "./a";',
      'import { type B, type C } from "./b";',
      'import { d, type E } from "./d";',
      'export type { F } from "./f";',
      'export { g } from "./g";',
      'import "./h";',
      'const later = () => import("./i");',
    ].join("\n");
    expect(runtimeImports("x.ts", text)).toEqual(["./d", "./g", "./h"]);
  });

  it("finds a loop of runtime imports, and not one closed only by a type import", () => {
    const dir = mkdtempSync(join(tmpdir(), "baton-cycles-"));
    const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
    write("a.ts", 'import { b } from "./b";\nexport const a = b;');
    write("b.ts", 'import { a } from "./a";\nexport const b = () => a;');
    write("c.ts", 'import type { a } from "./a";\nimport { d } from "./d";\nexport type C = typeof a;');
    write("d.ts", 'import type { C } from "./c";\nexport const d: C | null = null;');
    const cycles = importCycles(["a.ts", "b.ts", "c.ts", "d.ts"].map((f) => join(dir, f)));
    expect(cycles.map((c) => c.map((f) => f.split("/").pop()))).toEqual([["a.ts", "b.ts", "a.ts"]]);
  });

  it("has no loop among the modules of the whole application (lib, components, app, scripts, the proxy)", () => {
    const files = [...["lib", "components", "app", "scripts"].flatMap((dir) => sourcesUnder(join(ROOT, dir))), join(ROOT, "proxy.ts")].filter((f) => existsSync(f));
    expect(files.length).toBeGreaterThan(500);
    const cycles = importCycles(files);
    expect(cycles.map((c) => c.join(" -> "))).toEqual([]);
  }, 60_000);
});
