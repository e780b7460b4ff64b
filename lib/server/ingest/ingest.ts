import type { PoolClient } from "pg";
import type { TraceRecord } from "@/lib/ingest/parse";
import { prepareForStorage } from "@/lib/ingest/prepare";
import { decisionRecord } from "@/lib/decisions";
import { humanLabelsFrom } from "@/lib/rewards";
import { validateTrace, type Problem } from "@/lib/trace/validate";
import { recomputeMetrics } from "../compute/persist";
import { prisma, transaction } from "../db/client";
import { ApiError, invalid } from "../errors";
import { computedWithDiagnostics } from "./computed";
import { scheduleGraphPages } from "../graph-pages/jobs";
import { ConflictError, NotReplaceableError, storeTraces, type StoreItem, type StoreOptions, type StoredTrace } from "./store";

/**
 * The one ingest path behind all three doors (HTTP API, CLI, upload page):
 * validate every record, then store all of them in one transaction or none.
 */
export function validateRecords(records: readonly TraceRecord[]): { items: StoreItem[]; problems: Problem[] } {
  const items: StoreItem[] = [];
  const problems: Problem[] = [];
  const seen = new Map<string, string>();
  for (const record of records) {
    const result = validateTrace(record.value, record.base);
    if (!result.ok) {
      problems.push(...result.problems);
      continue;
    }
    const id = result.trace.trace_id;
    const first = seen.get(id);
    if (first !== undefined) {
      problems.push({ path: `${record.base}.trace_id`, message: `trace_id "${id}" appears twice in this request (first at ${first})` });
      continue;
    }
    seen.set(id, record.base);
    const prepared = prepareForStorage(result.trace);
    // an extended trace's labels enter its metrics at once, as they will every later recompute
    const labels = result.labels ? humanLabelsFrom(result.labels.annotations, result.labels.adjudications) : undefined;
    // one causal analysis serves the metric columns, the diagnostics and the decision row
    const { computed, diagnostics, analysis } = computedWithDiagnostics(prepared, labels);
    items.push({
      prepared, warnings: result.warnings, computed, diagnostics, decisions: decisionRecord(prepared.trace, labels, analysis),
      ...(result.labels && { labels: result.labels }),
    });
  }
  return { items, problems };
}

export interface IngestOptions extends StoreOptions {
  /**
   * Whether the writer may adjudicate in `project` (adjudicating is a project
   * admin's act): an extended trace's `adjudications` are refused (403, with
   * their path) where it may not. Default: anywhere (the operator's scripts).
   */
  mayAdjudicate?: (project: string) => boolean;
}

export async function ingestRecords(records: readonly TraceRecord[], opts: IngestOptions): Promise<StoredTrace[]> {
  const { items, problems } = validateRecords(records);
  if (problems.length > 0) throw invalid(problems);
  if (opts.mayAdjudicate) refuseAdjudications(records, items, opts.mayAdjudicate);
  const stored = await inTransaction((client) => storeTraces(client, items, opts));
  if (opts.upsert) await recomputeLabelled(stored);
  await scheduleGraphPages(stored);
  return stored;
}

function refuseAdjudications(records: readonly TraceRecord[], items: readonly StoreItem[], mayAdjudicate: (project: string) => boolean): void {
  // without problems, items[i] is records[i]
  const refused = items.flatMap((item, i) => {
    if (!item.labels || mayAdjudicate(item.prepared.project)) return [];
    const message = `adjudicating in project "${item.prepared.project}" needs its admin role; import the trace without adjudications`;
    return [
      ...(item.labels.adjudications.length > 0 ? [{ path: `${records[i]!.base}.adjudications`, message }] : []),
      // an admin's final decisive error is an adjudication too (SPEC.md section 5)
      ...(item.labels.decisive_error_adjudication ? [{ path: `${records[i]!.base}.decisive_error_adjudication`, message }] : []),
    ];
  });
  if (refused.length > 0) throw new ApiError(403, "forbidden", "only a project's admins may import adjudications; nothing was stored", refused);
}

/** Metrics computed at validation know no labels; a re-ingested trace that kept its annotations is recomputed with them. */
export async function recomputeLabelled(stored: readonly StoredTrace[]): Promise<void> {
  const labelled = await prisma().annotation.findMany({ where: { traceKey: { in: stored.map((s) => s.trace_id) } }, select: { traceKey: true }, distinct: ["traceKey"] });
  const keys = new Set(labelled.map((l) => l.traceKey));
  for (const s of stored) if (keys.has(s.trace_id)) await recomputeMetrics(s.id);
}

/** Runs `work` in one transaction on a pooled client; maps unique violations on trace_id to 409. */
export async function inTransaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
  try {
    return await transaction(work);
  } catch (error) {
    throw asApiError(error);
  }
}

function asApiError(error: unknown): unknown {
  if (error instanceof ConflictError) {
    // a re-import of a stored run: say so, and how to replace it, in words every door (API, upload, CLI) can show
    const n = error.traceIds.length;
    const message = `already stored: ${n === 1 ? "this run was" : `${n} of these runs were`} imported before (${error.traceIds.slice(0, 5).join(", ")}${n > 5 ? ", …" : ""}); nothing was changed. To replace ${n === 1 ? "it" : "them"}, import again with ?upsert=1 (upload page: "Replace traces…", CLI: --upsert)`;
    return new ApiError(409, "conflict", message, error.traceIds.map((id) => ({ path: "$.trace_id", message: `trace_id "${id}" exists` })));
  }
  if (error instanceof NotReplaceableError) {
    // the same answer whatever the stored trace's project is, and whether the caller may read it: nothing about it is told
    const message = "this trace_id is taken by a trace you may not replace; nothing was changed. Give the run another trace_id";
    return new ApiError(409, "conflict", message, error.traceIds.map((id) => ({ path: "$.trace_id", message: `trace_id "${id}" is taken` })));
  }
  if (isPgError(error) && error.code === "23505" && error.constraint === "traces_trace_id_key") {
    return new ApiError(409, "conflict", "a trace with this trace_id was stored concurrently");
  }
  // the data, not the server: a value PostgreSQL cannot hold (class 22) or an index entry too big (54000)
  if (isPgError(error) && (error.code.startsWith("22") || error.code === "54000")) {
    return new ApiError(400, "unstorable", `the database refused a value: ${error.message.slice(0, 300)}`, [{ path: "$", message: `PostgreSQL ${error.code}` }]);
  }
  return error;
}

function isPgError(e: unknown): e is { code: string; constraint?: string; message: string } {
  return e instanceof Error && !(e instanceof ApiError) && typeof (e as { code?: unknown }).code === "string";
}
