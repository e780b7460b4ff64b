/**
 * Where a JSON text stops being JSON, as a person finds it in an editor:
 * line and column (from 1). JSON.parse's own message names a character
 * offset at best, and on some inputs only a snippet.
 */

const WS = new Set([" ", "\t", "\n", "\r"]);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// eslint-disable-next-line no-control-regex -- JSON strings may not hold control characters: that is what this finds
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

/** The offset of the first character that makes `text` invalid JSON (text.length when it ends too soon), or null when it is valid. */
export function jsonErrorOffset(text: string): number | null {
  let i = 0;
  const skip = () => {
    while (i < text.length && WS.has(text[i]!)) i++;
  };
  const match = (re: RegExp): boolean => {
    re.lastIndex = i;
    if (!re.test(text)) return false;
    i = re.lastIndex;
    return true;
  };
  /** containers open around the cursor: "{" or "[" */
  const open: string[] = [];
  // state: "value" (a value is due), "after" (a value ended), "key" (a key is due, or "}" when first)
  let state: "value" | "after" | "key" | "first-value" = "value";
  for (;;) {
    skip();
    if (state === "value" || state === "first-value") {
      const c = text[i];
      if (c === undefined) return i;
      if (state === "first-value" && c === "]") {
        open.pop();
        i++;
        state = "after";
      } else if (c === "{") {
        open.push("{");
        i++;
        state = "key";
        skip();
        if (text[i] === "}") {
          open.pop();
          i++;
          state = "after";
        }
      } else if (c === "[") {
        open.push("[");
        i++;
        state = "first-value";
      } else if (c === '"') {
        if (!match(STRING)) return stringError(text, i);
        state = "after";
      } else if (c === "-" || (c >= "0" && c <= "9")) {
        if (!match(NUMBER)) return i + (c === "-" ? 1 : 0);
        state = "after";
      } else if (text.startsWith("true", i) || text.startsWith("null", i)) {
        i += 4;
        state = "after";
      } else if (text.startsWith("false", i)) {
        i += 5;
        state = "after";
      } else return i;
    } else if (state === "key") {
      if (text[i] !== '"') return i;
      if (!match(STRING)) return stringError(text, i);
      skip();
      if (text[i] !== ":") return i;
      i++;
      state = "value";
    } else {
      const top = open.at(-1);
      if (top === undefined) return i < text.length ? i : null;
      const c = text[i];
      if (c === ",") {
        i++;
        state = top === "{" ? "key" : "value";
      } else if ((c === "}" && top === "{") || (c === "]" && top === "[")) {
        open.pop();
        i++;
      } else return i;
    }
  }
}

/** Inside a string that does not close well: the bad escape or control character, else the end. */
function stringError(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') return i;
    if (c < " ") return i;
    if (c === "\\") {
      const next = text[i + 1];
      if (next === "u") {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return i;
        i += 5;
      } else if (next === undefined || !'"\\/bfnrt'.includes(next)) return i;
      else i++;
    }
  }
  return text.length;
}

/** Line and column (from 1) of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * "malformed JSON at line L, column C: <what the parser said>" (the parser's
 * own offset left out); "malformed JSON: ..." when the place is not found.
 */
export function malformedJson(text: string, error: unknown): string {
  const said = (error instanceof Error ? error.message : String(error)).replace(/ in JSON at position \d+.*$/s, "").replace(/, (\.\.\.)?".*" is not valid JSON$/s, "");
  const offset = jsonErrorOffset(text);
  if (offset === null) return `malformed JSON: ${said}`;
  const { line, column } = lineColumn(text, offset);
  const where = offset >= text.length ? `at the end (line ${line}, column ${column})` : `at line ${line}, column ${column}`;
  return `malformed JSON ${where}: ${said}`;
}
