import { ByteWriter, ParquetWriter, type ColumnSource, type KeyValue, type SchemaElement } from "hyparquet-writer";

/**
 * Parquet for the tabular export forms (event rows, transitions, one row per
 * trace for strict / extended), written with hyparquet-writer (chosen by
 * measurement, docs/export.md "Parquet"): rows are gathered into row groups
 * of at most ROW_GROUP_ROWS rows or ROW_GROUP_BYTES of text, each group is
 * encoded and handed out as bytes before the next is read, so memory is
 * bounded by one row group whatever the size of the dataset.
 */

export type ColumnKind = "string" | "json" | "int32" | "double" | "bool" | "int32_list" | "string_list" | "nested";

/**
 * A nested Parquet type (kind "nested"): a leaf, a LIST of a type, or a
 * struct of named fields, each optional. What trainers' loaders read as
 * Python lists and dicts (pyarrow / `datasets`), not JSON text.
 */
export type NestedType = "string" | "json" | "int32" | "double" | "bool" | { list: NestedType } | { struct: readonly (readonly [string, NestedType])[] };

export interface ParquetColumn {
  name: string;
  kind: ColumnKind;
  /** the column's type when kind is "nested" */
  type?: NestedType;
}

export const ROW_GROUP_ROWS = 10_000;
export const ROW_GROUP_BYTES = 32 * 1024 * 1024;

const LEAF: Record<Exclude<ColumnKind, "int32_list" | "string_list" | "nested">, Omit<SchemaElement, "name">> = {
  string: { type: "BYTE_ARRAY", converted_type: "UTF8" },
  json: { type: "BYTE_ARRAY", converted_type: "JSON" },
  int32: { type: "INT32" },
  double: { type: "DOUBLE" },
  bool: { type: "BOOLEAN" },
};

/** The Parquet schema: every column optional (null where the JSONL has null); lists as the standard 3-level LIST. */
function schemaOf(columns: readonly ParquetColumn[]): SchemaElement[] {
  const out: SchemaElement[] = [{ name: "root", num_children: columns.length }];
  for (const c of columns) {
    if (c.kind === "nested") pushNested(out, c.name, c.type ?? "json");
    else if (c.kind === "int32_list" || c.kind === "string_list") {
      out.push({ name: c.name, repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 });
      out.push({ name: "list", repetition_type: "REPEATED", num_children: 1 });
      out.push({ name: "element", repetition_type: "REQUIRED", ...(c.kind === "int32_list" ? LEAF.int32 : LEAF.string) });
    } else out.push({ name: c.name, repetition_type: "OPTIONAL", ...LEAF[c.kind] });
  }
  return out;
}

/** Schema elements of a nested type: every field and list element optional (null where the row has none). */
function pushNested(out: SchemaElement[], name: string, t: NestedType): void {
  if (typeof t === "string") {
    out.push({ name, repetition_type: "OPTIONAL", ...LEAF[t] });
  } else if ("list" in t) {
    out.push({ name, repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 });
    out.push({ name: "list", repetition_type: "REPEATED", num_children: 1 });
    pushNested(out, "element", t.list);
  } else {
    out.push({ name, repetition_type: "OPTIONAL", num_children: t.struct.length });
    for (const [field, ft] of t.struct) pushNested(out, field, ft);
  }
}

/** Rough text size of a value (string lengths, 8 per other leaf), without building its JSON: bounds a row group's memory. */
function roughSize(value: unknown, depth = 0): number {
  if (typeof value === "string") return value.length;
  if (typeof value !== "object" || value === null || depth > 32) return 8;
  let n = 2;
  if (Array.isArray(value)) for (const v of value) n += roughSize(v, depth + 1) + 1;
  else for (const [k, v] of Object.entries(value)) n += k.length + roughSize(v, depth + 1) + 4;
  return n;
}

/** Columns of a row shape with a known schema, plus any other key of `sample` as a JSON column (kept, never dropped). */
export function columnsFor(known: readonly ParquetColumn[], sample: object): ParquetColumn[] {
  const names = new Set(known.map((c) => c.name));
  const extra = Object.keys(sample).filter((k) => !names.has(k)).map((name): ParquetColumn => ({ name, kind: "json" }));
  return [...known.filter((c) => c.name in sample), ...extra];
}

/**
 * Parquet bytes of `rows`, a row group at a time. `columns` may be a
 * function of the first row (for shapes with optional keys).
 */
export async function* parquetChunks<Row extends object>(
  rows: Iterable<Row> | AsyncIterable<Row>,
  columns: readonly ParquetColumn[] | ((first: Row) => ParquetColumn[]),
  opts: { kvMetadata?: KeyValue[]; rowGroupRows?: number; emptyColumns?: readonly ParquetColumn[] } = {},
): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  const writer = new ByteWriter(1 << 20);
  const drain = () => {
    if (writer.index > 0) out.push(new Uint8Array(writer.buffer.slice(0, writer.index)));
    writer.index = 0;
  };
  Object.assign(writer, { flush: drain, finish: drain });
  const maxRows = opts.rowGroupRows ?? ROW_GROUP_ROWS;
  let cols: readonly ParquetColumn[] | null = typeof columns === "function" ? null : columns;
  let pw: ParquetWriter | null = null;
  // the group's cells, column by column, converted as rows arrive (JSON text made once)
  let batch: unknown[][] = [];
  let size = 0;
  let bytes = 0;

  // the writer's flush (drain) is synchronous, so write and finish return no promise; awaited all the same
  const writeGroup = async () => {
    if (size === 0) return;
    // no min / max for JSON cells (nothing prunes on them)
    await pw!.write({ columnData: cols!.map((c, j) => ({ name: c.name, data: batch[j] as ColumnSource["data"], ...((c.kind === "json" || c.kind === "nested") && { statistics: false }) })), rowGroupSize: size });
    batch = cols!.map(() => []);
    size = 0;
    bytes = 0;
  };

  for await (const row of rows) {
    if (cols === null) cols = (columns as (first: Row) => ParquetColumn[])(row);
    if (pw === null) {
      pw = new ParquetWriter({ writer, schema: schemaOf(cols), createdBy: "baton", ...(opts.kvMetadata && { kvMetadata: opts.kvMetadata }) });
      batch = cols.map(() => []);
    }
    for (let j = 0; j < cols.length; j++) {
      const c = cols[j]!;
      // JSON columns take the value itself: hyparquet-writer writes its JSON text
      const value = (row as Record<string, unknown>)[c.name] ?? null;
      bytes += roughSize(value);
      batch[j]!.push(value);
    }
    size++;
    if (size >= maxRows || bytes >= ROW_GROUP_BYTES) {
      await writeGroup();
      yield* out.splice(0);
    }
  }
  // an empty result is still a valid file (its schema from the known columns)
  pw ??= new ParquetWriter({ writer, schema: schemaOf(cols ?? opts.emptyColumns ?? []), createdBy: "baton", ...(opts.kvMetadata && { kvMetadata: opts.kvMetadata }) });
  await writeGroup();
  await pw.finish();
  yield* out.splice(0);
}

/** Collects chunks into one buffer (tests and small files). */
export async function parquetBuffer(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const c of chunks) parts.push(c);
  return Buffer.concat(parts);
}
