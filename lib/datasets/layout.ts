import { hash } from "node:crypto";
import { type SPEC_VERSION } from "../metrics/types";
import { isTrainerForm, trainerRowKey } from "../export/trainers";
import type { DatasetForm, DatasetFormat } from "./request";

/**
 * A snapshot's files as a Hugging Face dataset: `data/train-00000-of-0000N.<ext>`
 * shards, `manifest.json`, and a `README.md` dataset card whose YAML header
 * points `datasets.load_dataset` at the shards. Nothing in them depends on
 * when or where the snapshot was built, so the same data gives the same bytes.
 */

/** Rows per shard: a shard is held in memory while it is written. */
export const SHARD_ROWS = 50_000;

export function shardPath(index: number, count: number, format: DatasetFormat): string {
  const pad = (n: number) => String(n).padStart(5, "0");
  return `data/train-${pad(index)}-of-${pad(count)}.${format}`;
}

export function sha256(bytes: Uint8Array | string): string {
  return hash("sha256", bytes, "hex");
}

export interface ManifestFile {
  path: string;
  sha256: string;
  bytes: number;
  rows: number;
}

export interface Manifest {
  version: typeof SPEC_VERSION;
  name: string;
  form: DatasetForm;
  format: DatasetFormat;
  filter: Record<string, string>;
  credit: { method: string; preset: string; weights: Record<string, number>; normalize: boolean; judges: string };
  counts: { traces: number; rows: number; traces_without_calls: number; traces_skipped_no_group: number };
  /** the newest annotation any row used, null when none */
  annotations_as_of: string | null;
  files: ManifestFile[];
}

/** The dataset card: a YAML header for the Hub and `datasets`, the manifest, how to load it. */
export function datasetCard(m: Manifest): string {
  const glob = `data/train-*.${m.format}`;
  return [
    "---",
    "configs:",
    "- config_name: default",
    "  data_files:",
    "  - split: train",
    `    path: ${glob}`,
    "tags:",
    "- baton",
    `- ${m.form}`,
    "---",
    "",
    `# ${m.name.replace(/[\r\n]+/g, " ")}`,
    "",
    `A Baton dataset snapshot (${m.version}): ${m.counts.rows} ${m.form === "transitions" ? "transitions (one row per model call)" : m.form === "rows" ? "event rows" : isTrainerForm(m.form) ? `rows in ${m.form}'s own shape (docs/train-with-baton.md)` : "traces"} from ${m.counts.traces} traces, credit by \`${m.credit.method}\` under preset \`${m.credit.preset}\`.`,
    "",
    "```python",
    "from datasets import load_dataset",
    `ds = load_dataset("${m.format === "jsonl" ? "json" : "parquet"}", data_files="${glob}", split="train")`,
    "```",
    "",
    "```sql",
    `SELECT * FROM read_${m.format === "jsonl" ? "json" : "parquet"}('${glob}');`,
    "```",
    "",
    "## Manifest",
    "",
    "```json",
    JSON.stringify(m, null, 2),
    "```",
    "",
  ].join("\n");
}

/** A row's key in diffs: its trace and its event or call (one trace per row for the trace forms). */
export function rowKey(form: DatasetForm, row: Record<string, unknown>): string {
  if (isTrainerForm(form)) return trainerRowKey(form, row);
  if (form === "transitions") return JSON.stringify([row.traj_uid, row.call_id]);
  if (form === "rows") return JSON.stringify([row.traj_uid, row.event_id]);
  return JSON.stringify([row.trace_id]);
}
