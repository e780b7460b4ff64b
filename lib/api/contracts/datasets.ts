import { z } from "zod";
import type { DatasetPreview } from "@/lib/datasets/preview";
import { datasetPreviewSchema, datasetRequestSchema } from "@/lib/datasets/request";
import { defineEndpoint, idParams, wire } from "../contract";

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
  manifest: z.unknown(),
  diff: z.unknown(),
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

export const previewDataset = defineEndpoint({
  method: "POST",
  path: "/api/datasets/preview",
  body: datasetPreviewSchema,
  output: wire<DatasetPreview & { form: string; method: string }>(),
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
