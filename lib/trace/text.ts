import { MAX_DEPTH } from "./limits";
import type { Problem } from "./validate";

/**
 * Text replacement of SPEC.md section 1: U+0000 and lone surrogates, which
 * PostgreSQL cannot store, become U+FFFD when a trace is parsed, so that
 * every number is computed on the text that is stored (at ingest and at every
 * later recompute alike). Also enforces the nesting limit, without ever
 * recursing deeper than it, so that no input can overflow the stack.
 */

/** U+0000, a high surrogate not followed by a low one, a low surrogate not preceded by a high one (code units: no `u` flag). */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what this replaces
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// eslint-disable-next-line no-control-regex -- as above
const HAS_UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The string with U+0000 and lone surrogates replaced by U+FFFD; the same string when it has none. */
export function replaceUnstorable(s: string): string {
  return HAS_UNSTORABLE.test(s) ? s.replace(UNSTORABLE, "\ufffd") : s;
}

export interface CleanResult {
  value: unknown;
  /** one per replaced string (or key), naming its path */
  warnings: Problem[];
  /** nesting beyond MAX_DEPTH */
  problems: Problem[];
}

/** Replaces unstorable characters in every string and key of a parsed JSON value; checks nesting depth first and refuses `__proto__` keys. */
export function cleanJson(value: unknown, base = "$", maxDepth = MAX_DEPTH): CleanResult {
  const warnings: Problem[] = [];
  const problems: Problem[] = [];
  const walk = (v: unknown, path: string, depth: number): unknown => {
    if (typeof v === "string") {
      const clean = replaceUnstorable(v);
      if (clean !== v) warnings.push({ path, message: "contains U+0000 or a lone surrogate, which cannot be stored: replaced by U+FFFD" });
      return clean;
    }
    if (typeof v !== "object" || v === null) return v;
    if (depth >= maxDepth) {
      problems.push({ path, message: `JSON nesting deeper than ${maxDepth} levels` });
      return v;
    }
    if (Array.isArray(v)) {
      let copy: unknown[] | null = null;
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        const clean = walk(item, `${path}[${i}]`, depth + 1);
        if (clean !== item) (copy ??= v.slice())[i] = clean;
      }
      return copy ?? v;
    }
    // Copy-on-write: a trace without such characters (the usual case) is not copied at all.
    const entries = Object.entries(v as Record<string, unknown>);
    let changed = false;
    const cleanEntries = entries.map(([key, item]): [string, unknown] => {
      const cleanKey = replaceUnstorable(key);
      const childPath = pathOf(path, cleanKey);
      // JSON.parse keeps it as a plain key, but every later copy (zod's included) would set the prototype instead: refused, never dropped
      if (key === "__proto__") problems.push({ path: childPath, message: 'a key named "__proto__" cannot be stored (JavaScript takes it for the object\'s prototype): rename it' });
      if (cleanKey !== key) {
        changed = true;
        warnings.push({ path: childPath, message: "this key contains U+0000 or a lone surrogate, which cannot be stored: replaced by U+FFFD" });
      }
      const clean = walk(item, childPath, depth + 1);
      if (clean !== item) changed = true;
      return [cleanKey, clean];
    });
    if (!changed) return v;
    const out: Record<string, unknown> = {};
    for (const [key, item] of cleanEntries) {
      if (Object.hasOwn(out, key)) problems.push({ path: pathOf(path, key), message: "two keys become equal once U+0000 and lone surrogates are replaced by U+FFFD" });
      // defineProperty: a "__proto__" key stays a plain key
      Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  const cleaned = walk(value, base, 0);
  return { value: cleaned, warnings, problems };
}

function pathOf(base: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}
