import { z } from "zod";
import type { DatasetPreview } from "@/lib/datasets/preview";
import { datasetPreviewSchema, datasetRequestSchema } from "@/lib/datasets/request";
import { defineEndpoint, idParams, sameType } from "../contract";

/** Dataset snapshots: frozen, versioned exports of a filter for training (docs/datasets.md). */

export const datasetSummary = z.object({
  id: z.number(),
  name: z.string(),
  state: z.string(),
  progress: z.object({ traces_done: z.number(), traces_total: z.number() }),
  form: z.string(),
  format: z.string(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  error: z.string().nullable(),
  /**
   * the stored manifest.json and the diff against the previous snapshot
   * (lib/datasets/layout.ts Manifest, lib/server/datasets/build.ts
   * SnapshotDiff), passed on as stored; null until the snapshot is ready
   * (the diff: when there is no previous one). A snapshot keeps the manifest
   * of the version that built it (older ones lack later counts), so the
   * answer promises a JSON object and app/datasets reads its parts through
   * a schema.
   */
  manifest: z.record(z.string(), z.unknown()).nullable(),
  diff: z.record(z.string(), z.unknown()).nullable(),
});
export type DatasetSummary = z.infer<typeof datasetSummary>;

export const listDatasets = defineEndpoint({
  method: "GET",
  path: "/api/datasets",
  output: z.object({ datasets: z.array(datasetSummary) }),
  errors: [],
});

export const createDataset = defineEndpoint({
  method: "POST",
  path: "/api/datasets",
  body: datasetRequestSchema,
  output: z.object({ dataset: datasetSummary }),
  errors: ["quota_exceeded"],
});

/** What a snapshot of a filter will hold (lib/datasets/preview.ts). */
export const datasetPreview = z.strictObject({
  traces: z.number(),
  traces_kept: z.number(),
  rows: z.number(),
  row_unit: z.enum(["model call", "event", "trace"]),
  skipped: z.strictObject({ without_calls: z.number(), no_group: z.number() }),
  replays: z.number(),
});
sameType<z.output<typeof datasetPreview>, DatasetPreview>();

export const previewDataset = defineEndpoint({
  method: "POST",
  path: "/api/datasets/preview",
  body: datasetPreviewSchema,
  output: datasetPreview.extend({ form: z.string(), method: z.string() }),
  errors: [],
});

export const getDataset = defineEndpoint({
  method: "GET",
  path: "/api/datasets/{id}",
  params: idParams,
  output: datasetSummary.extend({ files: z.array(z.object({ path: z.string(), sha256: z.string(), bytes: z.number() })) }),
  errors: ["not_found"],
});

export const deleteDataset = defineEndpoint({
  method: "DELETE",
  path: "/api/datasets/{id}",
  params: idParams,
  output: z.object({ deleted: z.number() }),
  errors: ["not_found", "conflict"],
});

export const datasetFile = defineEndpoint({
  method: "GET",
  path: "/api/datasets/{id}/files/{...path}",
  params: z.object({ id: z.string(), path: z.array(z.string()) }),
  output: z.unknown(),
  rawOutput: "the file (Parquet, JSONL, JSON or Markdown) as an attachment",
  errors: ["not_found"],
});
