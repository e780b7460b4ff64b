import { z } from "zod";
import { TRAINER_FORMS } from "../export/trainers";

/**
 * `POST /api/datasets` (docs/datasets.md): what a snapshot freezes. The
 * filter takes the trace list's filter parameters as text (as in a URL);
 * the credit settings are those of the export (method, preset, weights as
 * `w.<family>` overrides, normalize, judges).
 */
/** The trainer forms (verl, verl_agent, rllm, skyrl, agent_lightning) are read unchanged by those trainers (docs/train-with-baton.md). */
export const DATASET_FORMS = ["transitions", "rows", "strict", "extended", ...TRAINER_FORMS] as const;
export type DatasetForm = (typeof DATASET_FORMS)[number];
export const DATASET_FORMATS = ["parquet", "jsonl"] as const;
export type DatasetFormat = (typeof DATASET_FORMATS)[number];

/** The list's filter as text; an empty value is no filter, as in the list's URL (the keys and values are checked against the list's own parser). */
const filterRecord = z
  .record(z.string(), z.string().max(20_000))
  .default({})
  .transform((filter) => Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== "")));

export const datasetRequestSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  filter: filterRecord,
  form: z.enum(DATASET_FORMS).default("transitions"),
  format: z.enum(DATASET_FORMATS).default("parquet"),
  method: z.string().max(64).optional(),
  preset: z.string().max(200).optional(),
  weights: z.record(z.string(), z.number().finite()).optional(),
  normalize: z.boolean().optional(),
  judges: z.string().max(5_000).optional(),
  /** the rows form only: each event's text (`content`, SPEC.md section 6); off by default */
  content: z.boolean().optional(),
});
export type DatasetRequest = z.infer<typeof datasetRequestSchema>;

/** `POST /api/datasets/preview`: the same body, the name optional (what a snapshot of it would hold, counted). */
export const datasetPreviewSchema = datasetRequestSchema.extend({ name: z.string().trim().max(200).optional() });
export type DatasetPreviewRequest = z.infer<typeof datasetPreviewSchema>;

/** The export query string the credit settings and form stand for (validated by the export's own parser). */
export function exportParams(req: Omit<DatasetRequest, "name">): URLSearchParams {
  const params = new URLSearchParams({ format: req.form === "rows" ? "jsonl" : req.form });
  if (req.method !== undefined) params.set("method", req.method);
  if (req.preset !== undefined) params.set("preset", req.preset);
  if (req.normalize !== undefined) params.set("normalize", req.normalize ? "1" : "0");
  if (req.judges !== undefined) params.set("judges", req.judges);
  if (req.content === true) params.set("content", "1");
  for (const [family, w] of Object.entries(req.weights ?? {})) params.set(`w.${family}`, String(w));
  return params;
}

/** The request path of an export parameter's problem (`preset` -> `$.preset`, `w.cost` -> `$.weights.cost`). */
export function requestPath(param: string): string {
  if (param.startsWith("w.")) return `$.weights.${param.slice(2)}`;
  if (param === "format") return "$.form";
  return `$.${param}`;
}

/** Canonical JSON of (filter, form): snapshots with the same key are compared with each other. */
export function filterKey(filter: Record<string, string>, form: DatasetForm): string {
  const sorted = Object.fromEntries(Object.entries(filter).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return JSON.stringify({ filter: sorted, form });
}
