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

/**
 * Writes rows into a staging file: `add` takes a row and the JSON text of
 * each of its keys (already made for the row's JSONL, so the JSON columns
 * are not made again).
 */
export class ParquetStage {
  readonly columns: readonly ParquetColumn[];
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
    this.fd = openSync(file, "w");
  }

  /** One row: `pieces.get(key)` is JSON.stringify(row[key]) (absent: undefined). */
  add(row: Record<string, unknown>, pieces: ReadonlyMap<string, string>): void {
    let line = stagedLine(this.columns, row, (c) => pieces.get(c.name), false);
    // JSON.stringify writes a lone surrogate as an escape (\ud800) that DuckDB's JSON reader refuses: such a row is
    // staged again with its strings made well-formed (U+FFFD, as a UTF-8 encoder writes them); an escaped backslash
    // before "ud8" only costs that second staging
    if (/\\ud[89a-f]/i.test(line)) line = stagedLine(this.columns, row, () => undefined, true);
    this.parts.push(line);
    this.pending += line.length;
    if (line.length > this.longest) this.longest = line.length;
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
}

/** Lone surrogates (what String.prototype.toWellFormed replaces). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const wellFormed = (v: unknown): unknown =>
  typeof v === "string" ? v.replace(LONE_SURROGATE, "\uFFFD") : Array.isArray(v) ? v.map(wellFormed) : v !== null && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, wellFormed(x)])) : v;

/** A row's staging line: its columns in order, JSON values as their text (from `piece` when given). */
function stagedLine(columns: readonly ParquetColumn[], row: Record<string, unknown>, piece: (c: ParquetColumn) => string | undefined, clean: boolean): string {
  let line = "{";
  for (let j = 0; j < columns.length; j++) {
    const c = columns[j]!;
    const value = row[c.name];
    let staged: string | undefined;
    if (value === null || value === undefined) staged = "null";
    // JSON text is ASCII where JSON.stringify escapes: the same cleaned or not
    else if (c.kind === "json") staged = JSON.stringify(piece(c) ?? JSON.stringify(value));
    else if (c.kind === "nested" && hasJson(c.type ?? "json")) {
      const nested = stageNested(value, c.type ?? "json");
      staged = JSON.stringify(clean ? wellFormed(nested) : nested);
    } else staged = clean ? JSON.stringify(wellFormed(value)) : (piece(c) ?? JSON.stringify(value));
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

/** The Parquet bytes of a closed stage; its files are removed. */
export async function encodeStage(stage: ParquetStage, opts: EncodeOptions): Promise<Buffer> {
  const out = stage.file.replace(/\.jsonl$/, ".parquet");
  const cols = stage.columns;
  const columns = cols.map((c) => `${literal(c.name)}: ${literal(duckType(c, true))}`).join(", ");
  const select = cols.map((c) => (duckType(c, true) === duckType(c) ? ident(c.name) : `CAST(${ident(c.name)} AS ${duckType(c)}) AS ${ident(c.name)}`)).join(", ");
  // a line's UTF-8 is at most 3 bytes per UTF-16 unit; the reader's buffers hold about two of the longest
  const maxObject = Math.max(16 * 2 ** 20, 3 * stage.longest + 1024);
  const source = `read_json(${literal(stage.file)}, format = 'newline_delimited', records = true, columns = {${columns}}, maximum_object_size = ${maxObject})`;
  try {
    const c = await duck();
    await c.run(`SET memory_limit = '${Math.max(256, Math.ceil((4 * maxObject) / 2 ** 20))}MB'`);
    await c.run(`COPY (SELECT ${select} FROM ${source}) TO ${literal(out)} (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE ${opts.rowGroupRows})`);
    return readFileSync(out);
  } finally {
    rmSync(stage.file, { force: true });
    rmSync(out, { force: true });
  }
}
