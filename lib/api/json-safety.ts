import type { Problem } from "@/lib/trace/validate";
import { isStorableText } from "./text";

/** SPEC.md section 1: JSON nesting is at most 64 levels deep (for every body, not only traces). */
export const MAX_JSON_DEPTH = 64;

/**
 * The offset of the first `{` or `[` that opens level `maxDepth + 1`, or
 * null. Runs on the raw text before JSON.parse, so that a body of 100,000
 * `[` never reaches a recursive parser, validator or serializer (a stack
 * overflow there is a 500). Strings are skipped with their escapes; the
 * text need not be valid JSON (JSON.parse then says what is wrong). JSONL
 * works as it is: each line closes what it opens.
 */
export function excessiveNesting(text: string, maxDepth = MAX_JSON_DEPTH): number | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return i;
    } else if (c === 0x7d || c === 0x5d) depth = Math.max(0, depth - 1);
  }
  return null;
}

export function nestingProblem(offset: number, maxDepth = MAX_JSON_DEPTH): Problem {
  return { path: "$", message: `JSON nested deeper than ${maxDepth} levels (at character ${offset})` };
}

/**
 * Every string and key of a parsed body that PostgreSQL cannot store
 * (U+0000, lone surrogates), and every `__proto__` key, with its JSON path. Bodies that are not
 * traces (annotation comments, names, ...) are refused rather than
 * silently changed: the caller learns which field to fix.
 */
export function unstorableStrings(value: unknown, path = "$", out: Problem[] = []): Problem[] {
  if (out.length >= 100) return out;
  if (typeof value === "string") {
    if (!isStorableText(value)) out.push({ path, message: "must not contain U+0000 or a lone surrogate" });
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => unstorableStrings(v, `${path}[${i}]`, out));
  } else if (value !== null && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      const keyPath = /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
      if (!isStorableText(key)) out.push({ path: keyPath, message: "key must not contain U+0000 or a lone surrogate" });
      // zod's records drop a "__proto__" key without looking at its value: refuse it instead of losing it silently
      if (key === "__proto__") out.push({ path: keyPath, message: 'the key "__proto__" is not accepted' });
      unstorableStrings(v, keyPath, out);
    }
  }
  return out;
}
