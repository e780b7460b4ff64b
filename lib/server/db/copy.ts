import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

/**
 * A value as PostgreSQL's COPY text format wants it: `\N` for null, with \\,
 * tab, newline and CR escaped. PostgreSQL text cannot hold U+0000: it is
 * stored as U+FFFD (validation warns about it in content).
 */
export function copyValue(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "\\N";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "\\N";
  if (typeof value === "boolean") return value ? "t" : "f";
  return /[\\\t\n\r\0]/.test(value) ? value.replace(/[\\\t\n\r\0]/g, escapeChar) : value;
}

function escapeChar(c: string): string {
  return c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : c === "\r" ? "\\r" : "\ufffd";
}

/** JSON text for a jsonb column: jsonb refuses the escape \\u0000, so it becomes U+FFFD as in text columns. */
export function jsonText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = JSON.stringify(value);
  // only an escape that is not itself an escaped backslash (an odd run of backslashes)
  return text.includes("\\u0000") ? text.replace(/(?<!\\)((?:\\\\)*)\\u0000/g, "$1\\ufffd") : text;
}

/**
 * Streams rows into `table` with COPY FROM STDIN on the given client (so it
 * joins the client's open transaction). `lines` yields whole lines, each
 * ending in "\n"; they are sent in chunks of about 256 KiB.
 */
export async function copyLines(client: pg.PoolClient | pg.Client, table: string, columns: readonly string[], lines: Iterable<string>): Promise<void> {
  const sql = `COPY ${table} (${columns.map((c) => `"${c}"`).join(", ")}) FROM STDIN`;
  const stream = client.query(copyFrom(sql));
  await pipeline(Readable.from(chunked(lines), { objectMode: false }), stream);
}

function* chunked(lines: Iterable<string>): Generator<string> {
  let buffer = "";
  for (const line of lines) {
    buffer += line;
    if (buffer.length >= 262_144) {
      yield buffer;
      buffer = "";
    }
  }
  if (buffer.length > 0) yield buffer;
}
