import "server-only";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import type { NestedType, ParquetColumn } from "@/lib/export/parquet";

/**
 * A snapshot shard's Parquet, encoded by DuckDB (native code, a thread of its
 * own) instead of in JavaScript: the shard's rows are staged as
 * newline-delimited JSON in a temporary file, one object per row with the
 * shard's columns in order, then `COPY (SELECT ... FROM read_json(...)) TO
 * ... (FORMAT parquet)` writes the file, which is read back whole (a shard is
 * SHARD_ROWS rows: tens of MB at most).
 *
 * The columns and their types are the form's (lib/export/parquet-forms.ts):
 * JSON columns (and JSON leaves of nested columns) are staged as the JSON
 * text of the value and cast to DuckDB's JSON type, so each cell holds
 * exactly `JSON.stringify` of the value, as the JSONL does. The same rows
 * give the same bytes: one DuckDB thread per process (row groups cut at the
 * same rows), no timestamps in the file; DuckDB's version is in the file's
 * `created_by`.
 */

/** DuckDB's type of a column (its staged type when `staged`: JSON leaves are VARCHAR there). */
export function duckType(c: ParquetColumn, staged = false): string {
  switch (c.kind) {
    case "string": return "VARCHAR";
    case "json": return staged ? "VARCHAR" : "JSON";
    case "int32": return "INTEGER";
    case "double": return "DOUBLE";
    case "bool": return "BOOLEAN";
    case "int32_list": return "INTEGER[]";
    case "string_list": return "VARCHAR[]";
    case "nested": return nestedType(c.type ?? "json", staged);
  }
}

function nestedType(t: NestedType, staged: boolean): string {
  if (typeof t === "string") return t === "json" ? (staged ? "VARCHAR" : "JSON") : t === "string" ? "VARCHAR" : t === "int32" ? "INTEGER" : t === "double" ? "DOUBLE" : "BOOLEAN";
  if ("list" in t) return `${nestedType(t.list, staged)}[]`;
  return `STRUCT(${t.struct.map(([name, ft]) => `${ident(name)} ${nestedType(ft, staged)}`).join(", ")})`;
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Whether a nested type holds a JSON leaf (those are staged as text). */
function hasJson(t: NestedType): boolean {
  if (typeof t === "string") return t === "json";
  if ("list" in t) return hasJson(t.list);
  return t.struct.some(([, ft]) => hasJson(ft));
}

/** A nested value with its JSON leaves replaced by their JSON text. */
function stageNested(value: unknown, t: NestedType): unknown {
  if (value === null || value === undefined) return null;
  if (typeof t === "string") return t === "json" ? JSON.stringify(value) : value;
  if ("list" in t) return Array.isArray(value) ? value.map((v) => stageNested(v, t.list)) : value;
  if (typeof value !== "object") return value;
  const v = value as Record<string, unknown>;
  return Object.fromEntries(t.struct.map(([name, ft]) => [name, stageNested(v[name], ft)]));
}

/** The staging column holding the exact JSON text of a JSON column, for the rows whose text DuckDB would not keep. */
const exactName = (name: string) => `baton_exact:${name}`;

/**
 * Writes rows into a staging file. Where no column is nested with JSON
 * leaves (event rows, transitions, traces), a row is staged as its JSONL
 * line itself: DuckDB reads each JSON column's value as JSON and writes it
 * back as the same text, but for a number with a positive exponent (1e+21,
 * which it writes 1e21) and a lone surrogate (\ud800, which it refuses). A
 * line that may hold either (a digit, "e+", a digit; a backslash and "ud8"
 * to "udf": text that only looks so costs the slower way) is staged with
 * its JSON columns as their text in a column of their own (`baton_exact:`)
 * and its strings made well-formed: a lone surrogate (not text: a UTF-8
 * encoder writes U+FFFD for it) is U+FFFD in the Parquet file, JSON cells
 * included, where the JSONL keeps JSON.stringify's escape. The trainer
 * forms' nested JSON leaves are always staged as text.
 */
export class ParquetStage {
  readonly columns: readonly ParquetColumn[];
  /** rows are staged as their JSONL line (no column nested with JSON leaves) */
  readonly asLine: boolean;
  private readonly fd: number;
  private readonly parts: string[] = [];
  private pending = 0;
  rows = 0;
  /** the longest staged line, in UTF-16 units (DuckDB's reader buffers lines whole) */
  longest = 0;

  constructor(
    readonly file: string,
    columns: readonly ParquetColumn[],
  ) {
    this.columns = columns;
    this.asLine = !columns.some((c) => c.kind === "nested" && hasJson(c.type ?? "json"));
    this.fd = openSync(file, "w");
  }

  /** One row: `line` is its JSONL line (JSON.stringify(row), no newline), `pieces.get(key)` JSON.stringify(row[key]). */
  add(row: Record<string, unknown>, line: string, pieces: ReadonlyMap<string, string>): void {
    let staged: string;
    if (this.asLine) staged = /\d[eE]\+\d|\\ud[89a-f]/i.test(line) ? exactLine(this.columns, row) : `${line}\n`;
    else {
      staged = textLine(this.columns, row, (c) => pieces.get(c.name), false);
      if (/\\ud[89a-f]/i.test(staged)) staged = textLine(this.columns, row, () => undefined, true);
    }
    this.parts.push(staged);
    this.pending += staged.length;
    if (staged.length > this.longest) this.longest = staged.length;
    this.rows++;
    if (this.pending >= 1 << 22) this.flush();
  }

  private flush(): void {
    if (this.parts.length === 0) return;
    writeSync(this.fd, this.parts.join(""));
    this.parts.length = 0;
    this.pending = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  /** The columns as read_json reads the staging file, and the SELECT list that gives the file's columns. */
  sql(): { columns: string; select: string } {
    const staged: string[] = [];
    const select: string[] = [];
    for (const c of this.columns) {
      if (this.asLine && c.kind === "json") {
        staged.push(`${literal(c.name)}: 'JSON'`, `${literal(exactName(c.name))}: 'VARCHAR'`);
        select.push(`coalesce(CAST(${ident(exactName(c.name))} AS JSON), ${ident(c.name)}) AS ${ident(c.name)}`);
      } else {
        staged.push(`${literal(c.name)}: ${literal(duckType(c, true))}`);
        select.push(duckType(c, true) === duckType(c) ? ident(c.name) : `CAST(${ident(c.name)} AS ${duckType(c)}) AS ${ident(c.name)}`);
      }
    }
    return { columns: staged.join(", "), select: select.join(", ") };
  }
}

/** Lone surrogates (what String.prototype.toWellFormed replaces). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const wellFormed = (v: unknown): unknown =>
  typeof v === "string" ? v.replace(LONE_SURROGATE, "\uFFFD") : Array.isArray(v) ? v.map(wellFormed) : v !== null && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, wellFormed(x)])) : v;

/** A row staged the exact way (rows staged as lines): JSON columns as their text in `baton_exact:` columns, strings well-formed. */
function exactLine(columns: readonly ParquetColumn[], row: Record<string, unknown>): string {
  const out: Record<string, unknown> = {};
  for (const c of columns) {
    const value = row[c.name];
    if (value === null || value === undefined) continue;
    if (c.kind === "json") out[exactName(c.name)] = JSON.stringify(wellFormed(value));
    else out[c.name] = wellFormed(value);
  }
  return `${JSON.stringify(out)}\n`;
}

/** A row's staging line with JSON columns and leaves as their text (from `piece` when given). */
function textLine(columns: readonly ParquetColumn[], row: Record<string, unknown>, piece: (c: ParquetColumn) => string | undefined, clean: boolean): string {
  let line = "{";
  for (let j = 0; j < columns.length; j++) {
    const c = columns[j]!;
    const value = row[c.name];
    let staged: string | undefined;
    if (value === null || value === undefined) staged = "null";
    else if (c.kind === "json") staged = JSON.stringify(clean ? JSON.stringify(wellFormed(value)) : (piece(c) ?? JSON.stringify(value)));
    else if (c.kind === "nested" && hasJson(c.type ?? "json")) staged = JSON.stringify(stageNested(clean ? wellFormed(value) : value, c.type ?? "json"));
    else staged = clean ? JSON.stringify(wellFormed(value)) : (piece(c) ?? JSON.stringify(value));
    line += `${j === 0 ? "" : ","}${JSON.stringify(c.name)}:${staged ?? "null"}`;
  }
  return `${line}}\n`;
}

/** Rows per row group: 10,000, or 16 for forms of one row per trace (ROW_GROUP_ROWS, parquetStream). */
export interface EncodeOptions {
  rowGroupRows: number;
}

let connection: Promise<DuckDBConnection> | null = null;
let workDir: string | null = null;

/** This process's DuckDB (in memory, one thread, no extension fetched). */
async function duck(): Promise<DuckDBConnection> {
  connection ??= (async () => {
    const { DuckDBInstance } = await import("@duckdb/node-api");
    const instance = await DuckDBInstance.create(":memory:", {
      threads: "1",
      temp_directory: path.join(stagingDir(), "spill"),
      autoinstall_known_extensions: "false",
      autoload_known_extensions: "false",
    });
    return instance.connect();
  })();
  return connection;
}

/** A directory of this process's own for staging files, removed when it exits. */
export function stagingDir(): string {
  if (workDir === null) {
    const dir = mkdtempSync(path.join(tmpdir(), "baton-snapshot-"));
    workDir = dir;
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  }
  return workDir;
}

/** A new staging file for `columns`. */
export function parquetStage(columns: readonly ParquetColumn[], name: string): ParquetStage {
  return new ParquetStage(path.join(stagingDir(), `${name}.jsonl`), columns);
}

/** The encoding under way on this process's connection (the next one waits for it). */
let turn: Promise<void> = Promise.resolve();

/** The Parquet bytes of a closed stage; its files are removed. */
export async function encodeStage(stage: ParquetStage, opts: EncodeOptions): Promise<Buffer> {
  const out = stage.file.replace(/\.jsonl$/, ".parquet");
  const { columns, select } = stage.sql();
  // a line's UTF-8 is at most 3 bytes per UTF-16 unit; the reader's buffers hold about two of the longest
  const maxObject = Math.max(16 * 2 ** 20, 3 * stage.longest + 1024);
  const source = `read_json(${literal(stage.file)}, format = 'newline_delimited', records = true, columns = {${columns}}, maximum_object_size = ${maxObject})`;
  // one encoding at a time on this process's connection (two builds in one process take turns)
  const run = turn.then(async () => {
    const c = await duck();
    await c.run(`SET memory_limit = '${Math.max(128, Math.ceil((4 * maxObject) / 2 ** 20))}MB'`);
    await c.run(`COPY (SELECT ${select} FROM ${source}) TO ${literal(out)} (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE ${opts.rowGroupRows})`);
    return readFileSync(out);
  });
  turn = run.then(() => {}, () => {});
  try {
    return await run;
  } finally {
    rmSync(stage.file, { force: true });
    rmSync(out, { force: true });
  }
}
