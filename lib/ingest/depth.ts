import { MAX_DEPTH } from "@/lib/trace/limits";
import type { Problem } from "@/lib/trace/validate";

/**
 * Nesting depth of raw JSON text, checked before JSON.parse and before any
 * recursive walk (zod, JSON.stringify, jsonb), so that a body nested
 * thousands of levels deep is a 400 with a path, never a stack overflow.
 * One pass, no recursion; strings are skipped (brackets inside them do not
 * count). Malformed JSON is left for JSON.parse to report.
 *
 * `limit` is the deepest allowed nesting of the text (containers, the
 * outermost counting 1); `base` the path of the text's top value;
 * `wrapper` levels on top that do not count (the array around a batch of
 * traces), so that the message names the limit as it is documented.
 * Reusable by any route that takes JSON.
 */
export function nestingProblem(text: string, limit = MAX_DEPTH, base = "$", wrapper = 0): Problem | null {
  // per open container: array index, or the last object key seen (null before any)
  const stack: { array: boolean; index: number; key: string | null; expectKey: boolean }[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      const top = stack[stack.length - 1];
      if (top && !top.array && top.expectKey) top.key = decodeKey(text.slice(i, end + 1));
      i = end;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      stack.push({ array: c === 0x5b, index: 0, key: null, expectKey: c === 0x7b });
      if (stack.length > limit + wrapper) {
        return { path: pathOf(base, stack.slice(0, -1)), message: `JSON nesting deeper than ${limit} levels` };
      }
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x3a /* : */) {
      const top = stack[stack.length - 1];
      if (top) top.expectKey = false;
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.array) top.index++;
      else if (top) top.expectKey = true;
    }
  }
  return null;
}

/** Index of the closing quote of the string opening at `start` (or the last index when unterminated). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x22) return i;
  }
  return text.length - 1;
}

function decodeKey(literal: string): string {
  try {
    return String(JSON.parse(literal));
  } catch {
    return literal;
  }
}

function pathOf(base: string, stack: readonly { array: boolean; index: number; key: string | null }[]): string {
  let out = base;
  for (const level of stack) {
    if (level.array) out += `[${level.index}]`;
    else if (level.key !== null) out += /^[A-Za-z_][A-Za-z0-9_]*$/.test(level.key) ? `.${level.key}` : `[${JSON.stringify(level.key)}]`;
  }
  return out;
}
