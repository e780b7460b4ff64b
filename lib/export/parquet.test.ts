import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, describe, expect, it } from "vitest";
import { prepareTrace } from "../credit";
import { BUILTIN_PRESETS } from "../rewards/presets";
import { validateTrace } from "../trace/validate";
import { extendedForm } from "./forms";
import { parquetBuffer, parquetChunks, type ParquetColumn } from "./parquet";
import { formColumns, type TabularForm } from "./parquet-forms";
import { exportRows } from "./rows";
import { transitionRows } from "./transitions";

/** Parquet files read back with DuckDB equal the JSONL export value for value. */

const dir = mkdtempSync(path.join(tmpdir(), "baton-parquet-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const result = validateTrace(JSON.parse(readFileSync("lib/export/fixtures/calls-trace.json", "utf8")));
if (!result.ok) throw new Error("fixture invalid");
const trace = result.trace;
const prepared = prepareTrace(trace);
const options = { method: "mc_return" as const, preset: BUILTIN_PRESETS.customer_support, normalize: false, annotationsAsOf: "2026-12-01T10:00:00.000Z", hackingFlags: ["tool_spam", "padding"] };

async function readBack(bytes: Uint8Array): Promise<Record<string, unknown>[]> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.parquet`);
  writeFileSync(file, bytes);
  const db = await DuckDBInstance.create(":memory:");
  const connection = await db.connect();
  const reader = await connection.runAndReadAll(`SELECT * FROM read_parquet('${file}')`);
  const rows = reader.getRowObjectsJson() as Record<string, unknown>[];
  connection.closeSync();
  return rows;
}

/** A JSONL row as the Parquet columns hold it: JSON columns parsed back, absent keys null. */
function asRead(rows: Record<string, unknown>[], columns: readonly ParquetColumn[]) {
  return rows.map((r) => Object.fromEntries(columns.map((c) => [c.name, c.kind === "json" && typeof r[c.name] === "string" ? JSON.parse(r[c.name] as string) : (r[c.name] ?? null)])));
}

async function roundTrip(form: TabularForm, rows: object[]) {
  // the JSONL text, parsed, is what the Parquet file must hold
  const jsonl = rows.map((r) => JSON.parse(JSON.stringify(r)) as Record<string, unknown>);
  const columns = formColumns(form, jsonl[0]);
  const read = await readBack(await parquetBuffer(parquetChunks(jsonl, columns)));
  return { expected: jsonl.map((r) => Object.fromEntries(columns.map((c) => [c.name, r[c.name] ?? null]))), read: asRead(read, columns) };
}

describe("Parquet read back with DuckDB", () => {
  it("transitions: every value as in the JSONL (prompts, responses, token ids, nulls, flags)", async () => {
    const { expected, read } = await roundTrip("transitions", [...transitionRows(prepared, trace.calls!, options)]);
    expect(read).toEqual(expected);
    expect(read[1]!.prompt_token_ids).toBeNull();
    expect(read[0]!.prompt_token_ids).toEqual([1, 2, 3]);
  });

  it("JSON columns are typed JSON in the file, the rest as their kind (DuckDB's DESCRIBE)", async () => {
    const rows = [...transitionRows(prepared, trace.calls!, options)];
    const file = path.join(dir, "typed.parquet");
    writeFileSync(file, await parquetBuffer(parquetChunks(rows, formColumns("transitions", rows[0]))));
    const db = await DuckDBInstance.create(":memory:");
    const connection = await db.connect();
    const described = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${file}')`)).getRowObjectsJson() as { column_name: string; column_type: string }[];
    connection.closeSync();
    const typeOf = Object.fromEntries(described.map((d) => [d.column_name, d.column_type]));
    expect(typeOf.prompt).toBe("JSON");
    expect(typeOf.response).toBe("JSON");
    expect(typeOf.agent).toBe("VARCHAR");
    expect(typeOf.credit).toBe("DOUBLE");
    expect(typeOf.prompt_token_ids).toBe("INTEGER[]");
  });

  it("event rows, with content", async () => {
    const { expected, read } = await roundTrip("rows", [...exportRows(prepared, { ...options, content: true })]);
    expect(read).toEqual(expected);
    expect(read.map((r) => r.event_id as string)).toEqual(["d", "s", "r", "a"]);
  });

  it("one row per trace (extended): events, edges and calls as JSON", async () => {
    const doc = extendedForm(trace, [], [], ["tool_spam"]);
    const { expected, read } = await roundTrip("traces", [doc]);
    expect(read).toEqual(expected);
    expect((read[0]!.calls as unknown[]).length).toBe(3);
  });

  it("a dataset with no rows is still a file with the form's columns", async () => {
    const bytes = await parquetBuffer(parquetChunks([], formColumns("transitions")));
    const file = path.join(dir, "empty.parquet");
    writeFileSync(file, bytes);
    const db = await DuckDBInstance.create(":memory:");
    const reader = await (await db.connect()).runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${file}')`);
    expect(reader.getRowObjectsJson().map((r) => r.column_name)).toEqual(formColumns("transitions").map((c) => c.name));
  });
});

describe("streaming", () => {
  it("hands out each row group before reading the next rows, and the groups all arrive", async () => {
    let pulled = 0;
    function* many() {
      for (let i = 0; i < 25; i++) {
        pulled++;
        yield { uid: `u${i}`, step: i };
      }
    }
    const columns: ParquetColumn[] = [{ name: "uid", kind: "string" }, { name: "step", kind: "int32" }];
    const pulledAtChunk: number[] = [];
    const parts: Uint8Array[] = [];
    for await (const chunk of parquetChunks(many(), columns, { rowGroupRows: 10 })) {
      pulledAtChunk.push(pulled);
      parts.push(chunk);
    }
    expect(pulledAtChunk[0]).toBe(10);
    const file = path.join(dir, "groups.parquet");
    writeFileSync(file, Buffer.concat(parts));
    const db = await DuckDBInstance.create(":memory:");
    const connection = await db.connect();
    const groups = await connection.runAndReadAll(`SELECT row_group_id, row_group_num_rows FROM parquet_metadata('${file}') GROUP BY ALL ORDER BY 1`);
    expect(groups.getRowsJson()).toEqual([["0", "10"], ["1", "10"], ["2", "5"]]);
    const sum = await connection.runAndReadAll(`SELECT sum(step)::INTEGER AS s FROM read_parquet('${file}')`);
    expect(sum.getRowsJson()).toEqual([[300]]);
  });
});
