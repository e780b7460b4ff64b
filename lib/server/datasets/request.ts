import "server-only";
import { LIST_FILTER_KEYS, traceListQuery, type TraceListQuery } from "@/lib/api/filters";
import { datasetPreviewSchema, datasetRequestSchema, exportParams, requestPath, type DatasetPreviewRequest, type DatasetRequest } from "@/lib/datasets/request";
import { jsonPath, type Problem } from "@/lib/trace/validate";
import type { z } from "zod";
import { parseExportRequest, type ExportRequest } from "../compute/export";
import { ApiError, invalid } from "../errors";

/** A snapshot request with everything it stands for, checked: 400 listing every problem with its path, before anything is written. */
export interface CheckedRequest {
  request: DatasetRequest;
  filter: TraceListQuery;
  export: ExportRequest;
}

/** A preview request (`POST /api/datasets/preview`), checked as a snapshot request is. */
export interface CheckedPreview {
  request: DatasetPreviewRequest;
  filter: TraceListQuery;
  export: ExportRequest;
}

const FILTER_KEYS: ReadonlySet<string> = new Set(LIST_FILTER_KEYS);

export async function checkDatasetRequest(body: unknown): Promise<CheckedRequest> {
  return checkWith(datasetRequestSchema, body);
}

/** The preview's body: a snapshot request whose name may be left out, checked the same way (so a preview's 400 is the snapshot's). */
export async function checkPreviewRequest(body: unknown): Promise<CheckedPreview> {
  return checkWith(datasetPreviewSchema, body);
}

async function checkWith<R extends DatasetPreviewRequest>(schema: z.ZodType<R>, body: unknown): Promise<{ request: R; filter: TraceListQuery; export: ExportRequest }> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw invalid(parsed.error.issues.map((i) => ({ path: jsonPath("$", i.path), message: i.message })));
  const request = parsed.data;
  const problems: Problem[] = [];
  if (request.content === true && request.form !== "rows") problems.push({ path: "$.content", message: "only the rows form carries content" });
  for (const key of Object.keys(request.filter)) {
    if (!FILTER_KEYS.has(key)) problems.push({ path: jsonPath("$.filter", [key]), message: `not a trace filter; one of ${LIST_FILTER_KEYS.join(", ")}` });
  }
  const filter = traceListQuery.safeParse({ ...request.filter, sort: "created", dir: "asc", limit: "100" });
  if (!filter.success) problems.push(...filter.error.issues.map((i) => ({ path: jsonPath("$.filter", i.path), message: i.message })));
  let exportRequest: ExportRequest | null = null;
  try {
    exportRequest = await parseExportRequest(exportParams(request));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    problems.push(...error.details.map((d) => ({ path: requestPath(d.path), message: d.message })));
  }
  if (problems.length > 0 || !filter.success || !exportRequest) throw invalid(problems);
  return { request, filter: filter.data, export: { ...exportRequest, parquet: request.format === "parquet" } };
}
