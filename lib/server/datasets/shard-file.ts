import "server-only";
import { sha256 } from "@/lib/datasets/layout";
import type { DatasetRequest } from "@/lib/datasets/request";
import { ROW_GROUP_ROWS } from "@/lib/export/parquet";
import { formColumns, type TabularForm } from "@/lib/export/parquet-forms";
import { isTrainerForm, PER_TRACE_FORMS } from "@/lib/export/trainers";
import { encodeStage, parquetStage, type ParquetStage } from "./duck-parquet";

/**
 * A shard's file made from its rows, one at a time. Each value of a row is
 * made JSON once: the pieces make the row's JSONL line and the text its
 * hash is taken of (what a diff compares: the row's JSON without
 * `annotations_as_of`, bookkeeping that every row of a relabelled trace
 * would differ by), and a Parquet shard stages them for DuckDB
 * (duck-parquet.ts), which encodes the file. Rows are not kept: a JSONL
 * shard's text, or a Parquet shard's staging file.
 */
export class ShardFile {
  private stage: ParquetStage | null = null;
  private readonly lines: string[] = [];
  private readonly pieces = new Map<string, string>();
  rows = 0;

  constructor(
    private readonly format: DatasetRequest["format"],
    private readonly form: TabularForm,
    /** the staging file's name (unique in this process) */
    private readonly name: string,
  ) {}

  /** Adds a row; returns the SHA-256 of its JSON without `annotations_as_of`. */
  add(row: Record<string, unknown>): string {
    // a row staged or written as its line (every form but the trainer forms' Parquet): made JSON in one call
    if (this.format !== "parquet" || (this.stage !== null && this.stage.asLine)) {
      const line = JSON.stringify(row);
      const hashed = withoutAsOf(line, row.annotations_as_of);
      if (hashed !== null) {
        if (this.format === "parquet") this.stage!.add(row, line, this.pieces);
        else this.lines.push(`${line}\n`);
        this.rows++;
        return sha256(hashed);
      }
    }
    const pieces = this.pieces;
    pieces.clear();
    const parts: string[] = [];
    let asOfAt = -1;
    for (const key of Object.keys(row)) {
      const piece = JSON.stringify(row[key]) as string | undefined;
      if (piece === undefined) continue;
      // (the pieces are read only by a stage of the trainer forms, whose rows are not staged as their line)
      if (this.stage === null || !this.stage.asLine) pieces.set(key, piece);
      if (key === "annotations_as_of") asOfAt = parts.length;
      parts.push(`${keyJson(key)}:${piece}`);
    }
    const line = `{${parts.join(",")}}`;
    const hashed = asOfAt < 0 ? line : `{${parts.filter((_, i) => i !== asOfAt).join(",")}}`;
    if (this.format === "parquet") {
      this.stage ??= parquetStage(formColumns(this.form, row), this.name);
      this.stage.add(row, line, pieces);
    } else this.lines.push(`${line}\n`);
    this.rows++;
    return sha256(hashed);
  }

  /** The file's bytes (an empty Parquet shard is still a valid file, its schema from the form's columns). */
  async bytes(): Promise<Buffer> {
    if (this.format !== "parquet") return Buffer.from(this.lines.splice(0).join(""), "utf8");
    const stage = this.stage ?? parquetStage(formColumns(this.form), this.name);
    stage.close();
    return encodeStage(stage, { rowGroupRows: oneRowPerTrace(this.form) ? 16 : ROW_GROUP_ROWS });
  }
}

/**
 * A row's line without its `annotations_as_of`, when that is its last key
 * (as in every form's rows) and a string or null (the line ends with it
 * then, and nothing else can: a value inside the line ending so would be
 * followed by its own closing bracket); null otherwise (the caller takes the
 * row key by key). A row without one hashes as its line.
 */
function withoutAsOf(line: string, asOf: unknown): string | null {
  if (asOf === undefined) return line;
  if (asOf !== null && typeof asOf !== "string") return null;
  const tail = `,"annotations_as_of":${JSON.stringify(asOf)}}`;
  if (!line.endsWith(tail)) return null;
  return `${line.slice(0, line.length - tail.length)}}`;
}

/** A row per trace: small row groups (a big trace is a big row), as the export's Parquet has them. */
const oneRowPerTrace = (form: TabularForm) => form === "traces" || (isTrainerForm(form) && PER_TRACE_FORMS.includes(form));

const keyTexts = new Map<string, string>();
/** A key as JSON.stringify writes it in an object. */
function keyJson(key: string): string {
  let text = keyTexts.get(key);
  if (text === undefined) {
    text = JSON.stringify(key);
    if (keyTexts.size < 10_000) keyTexts.set(key, text);
  }
  return text;
}
