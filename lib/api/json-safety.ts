import type { Problem } from "@/lib/trace/validate";
import { isStorableText } from "./text";

/** SPEC.md section 1: JSON nesting is at most 64 levels deep (for every body, not only traces; lib/ingest/depth.ts scans for it). */
export { MAX_DEPTH as MAX_JSON_DEPTH } from "@/lib/trace/limits";

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
