import "server-only";
import { GroupTooSmallError, prepareTrace } from "@/lib/credit";
import { extendedForm, jsonChunks, strictForm } from "@/lib/export/forms";
import { exportRows, type ExportRow } from "@/lib/export/rows";
import { transitionRows, type TransitionRow } from "@/lib/export/transitions";
import { isTrainerForm, PER_TRACE_FORMS, trainerRows, TRAINER_FORMS, type TrainerForm } from "@/lib/export/trainers";
import { parquetChunks } from "@/lib/export/parquet";
import { formColumns, type TabularForm } from "@/lib/export/parquet-forms";
import { computeE1 } from "@/lib/metrics/e1";
import { resolvePreset, type WeightPreset } from "@/lib/rewards";
import type { DecisiveErrorsResponse } from "@/lib/api/decisive-errors";
import type { ExtendedDecisiveErrors } from "@/lib/trace/decisive-errors";
import type { ExtendedAdjudication, ExtendedAnnotation } from "@/lib/trace/extended-labels";
import type { Problem } from "@/lib/trace/validate";
import { prisma } from "../db/client";
import { storedDiagnostics } from "../hacking/store";
import { loadCalls } from "../calls/store";
import { decisiveErrorsOf, decisiveEventsOf } from "../queries/decisive-errors";
import { ApiError } from "../errors";
import { humanLabels, listAnnotations } from "../queries/annotations";
import { loadGroup, loadTraceById } from "../queries/load-trace";
import { findTraceRow } from "../queries/traces";
import type { HumanLabels } from "@/lib/rewards/labels";
import type { ModelCall } from "@/lib/trace/calls";
import type { Trace } from "@/lib/trace/types";
import { userPresets } from "../queries/presets";
import { parseCreditQuery, type CreditQuery } from "./credit";
import { yieldToEventLoop } from "./export-slots";

export const EXPORT_FORMATS = ["jsonl", "transitions", "strict", "extended", ...TRAINER_FORMS] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Everything an export needs from the query string, validated before any byte is sent. */
export interface ExportRequest {
  format: ExportFormat;
  credit: CreditQuery;
  preset: WeightPreset;
  /** rows carry each event's text (`content=1`) */
  content: boolean;
  /** Parquet instead of JSON text (`parquet=1`) */
  parquet: boolean;
}

/** Reads and checks format, content, method, preset, normalize and w.<family>; 400 listing every problem. */
export async function parseExportRequest(search: URLSearchParams): Promise<ExportRequest> {
  const problems: Problem[] = [];
  const format = search.get("format") ?? "jsonl";
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) problems.push({ path: "format", message: `one of ${EXPORT_FORMATS.join(", ")}` });
  const contentRaw = search.get("content") ?? "0";
  if (!["0", "1"].includes(contentRaw)) problems.push({ path: "content", message: "must be 0 or 1" });
  const parquetRaw = search.get("parquet") ?? "0";
  if (!["0", "1"].includes(parquetRaw)) problems.push({ path: "parquet", message: "must be 0 or 1" });
  let credit: CreditQuery | null = null;
  try {
    credit = parseCreditQuery(search);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    problems.push(...error.details);
  }
  const preset = credit ? resolvePreset(credit.preset, credit.overrides, await userPresets()) : null;
  if (credit && !preset) problems.push({ path: "preset", message: `unknown preset "${credit.preset}"` });
  if (problems.length > 0 || !credit || !preset) throw new ApiError(400, "invalid_parameter", "invalid query parameter(s)", problems);
  return { format: format as ExportFormat, credit, preset, content: contentRaw === "1", parquet: parquetRaw === "1" };
}

/**
 * What one trace exports as: tabular rows (event rows, or transitions when
 * the trace has model calls) or one JSON document (strict, extended).
 * `form` says which: `format=transitions` on a trace without model calls
 * gives its event rows (`form: "rows"`), as the JSONL export did before.
 */
export type ExportedTrace =
  | { form: "rows"; rows: Iterable<ExportRow> }
  | { form: "transitions"; rows: Iterable<TransitionRow> }
  | { form: TrainerForm; rows: Iterable<Record<string, unknown>> }
  | { form: "document"; doc: Record<string, unknown> };

/**
 * One trace exported for training (SPEC.md section 6). Loads and computes
 * first (so that a failure is an error response, not a truncated file); rows
 * are then computed one at a time as they are read.
 */
export async function exportTraceRecords(traceId: string, req: ExportRequest): Promise<ExportedTrace> {
  const { format } = req;
  const row = await findTraceRow(traceId);
  // independent reads, at once: the trace, its calls (only the forms that carry them), its labels, its stored flags
  const [trace, calls, { labels, asOf }, diagnostics] = await Promise.all([
    loadTraceById(row.id, { content: format === "extended" || req.content ? "all" : "messages" }),
    format === "extended" || format === "transitions" || isTrainerForm(format) ? loadCalls(row.id) : Promise.resolve([]),
    humanLabels(row.traceId, req.credit.judges),
    storedDiagnostics(row.id),
  ]);
  // the load's result is parsed; the credit computation comes next: let waiting requests in between
  await yieldToEventLoop();
  return exportLoaded({ trace, calls, labels, asOf, hackingFlags: diagnostics.flags }, req);
}

/** What one trace's export is computed from. */
export interface LoadedTrace {
  trace: Trace;
  /** in call order; only read by the extended and transitions forms */
  calls: ModelCall[];
  labels: HumanLabels;
  asOf: Date | null;
  hackingFlags: string[];
  /** the trace's decisive event when already read (a snapshot reads a page's at once); read here when absent */
  decisiveEvent?: string | null;
}

/** The export of a loaded trace (exportTraceRecords, or a page of traces loaded at once for a snapshot). */
export async function exportLoaded({ trace, calls, labels, asOf, hackingFlags, decisiveEvent: known }: LoadedTrace, req: ExportRequest): Promise<ExportedTrace> {
  const { format, preset } = req;
  const prepared = prepareTrace(trace, labels);
  if (format === "strict") {
    const humanE1 = labels.trace.task_success ? computeE1(trace, labels) : null;
    return { form: "document", doc: strictForm(trace, prepared.rewards(preset.token_budget), humanE1) };
  }
  if (format === "extended") {
    const [annotations, adjudications, decisive] = await Promise.all([exportedAnnotations(trace.trace_id), exportedAdjudications(trace.trace_id), decisiveErrorsOf(trace.trace_id)]);
    return { form: "document", doc: extendedForm(calls.length > 0 ? { ...trace, calls } : trace, annotations, adjudications, hackingFlags, exportedDecisiveErrors(decisive)) };
  }
  const { method, normalize } = req.credit;
  const needsGroup = method === "grpo" || method === "gigpo";
  const group = needsGroup && trace.group_id
    ? await Promise.all((await loadGroup(trace.group_id)).map(async (t) => ({ trace: t, labels: (await humanLabels(t.trace_id, req.credit.judges)).labels })))
    : [];
  const decisiveEvent = known !== undefined ? known : ((await decisiveEventsOf([trace.trace_id])).get(trace.trace_id) ?? null);
  const opts = { method, preset, normalize, group, annotationsAsOf: asOf?.toISOString() ?? null, content: req.content, hackingFlags, decisiveEvent };
  // the first row is computed here, so that an unusable group is an error before streaming
  if (format === "transitions" && calls.length > 0) return { form: "transitions", rows: primed(transitionRows(prepared, calls, opts)) };
  // a trainer form: the trace's calls in the trainer's shape; a trace without calls gives its event rows, as transitions does
  if (isTrainerForm(format) && calls.length > 0) return { form: format, rows: primed(trainerRows(format, prepared, calls, opts)) };
  return { form: "rows", rows: primed(exportRows(prepared, opts)) };
}

/** The generator with its first value already computed (errors surface now, not mid-stream). */
function primed<T>(rows: Generator<T>): Iterable<T> {
  const first = rows.next();
  return (function* () {
    if (first.done) return;
    yield first.value;
    yield* rows;
  })();
}

/** One trace's export as text: JSONL rows, or the JSON document with its arrays element by element. */
export async function exportTrace(traceId: string, req: ExportRequest): Promise<Iterable<string>> {
  return exportedText(await exportTraceRecords(traceId, req));
}

/** The tabular form an export's records take in Parquet (a document is one row of the traces form). */
export function tabularForm(exported: ExportedTrace): TabularForm {
  return exported.form === "document" ? "traces" : exported.form;
}

/** An export's records as plain rows (for Parquet). */
export function exportedRecords(exported: ExportedTrace): Iterable<object> {
  return exported.form === "document" ? [exported.doc] : exported.rows;
}

/** Parquet bytes of records of one tabular form, a row group at a time; `kv` goes into the file's key-value metadata. */
export function parquetStream(form: TabularForm, records: Iterable<object> | AsyncIterable<object>, kv: Record<string, string> = {}): AsyncGenerator<Uint8Array> {
  return parquetChunks(records, (first) => formColumns(form, first), {
    kvMetadata: Object.entries(kv).map(([key, value]) => ({ key, value })),
    emptyColumns: formColumns(form),
    // a row per trace: small row groups (a big trace is a big row)
    ...((form === "traces" || (isTrainerForm(form) && PER_TRACE_FORMS.includes(form))) && { rowGroupRows: 16 }),
  });
}

/** A ReadableStream of bytes from byte chunks, pulled as the client reads. */
export function byteStream(chunks: AsyncIterator<Uint8Array>): ReadableStream<Uint8Array> {
  // a pull under way when the client goes away must not touch the cancelled stream
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      // a row group is CPU work: other requests get their turn between two
      await yieldToEventLoop();
      if (cancelled) return;
      const next = await chunks.next();
      if (cancelled) return;
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      cancelled = true;
      await chunks.return?.(undefined);
    },
  });
}

export function exportedText(exported: ExportedTrace): Iterable<string> {
  if (exported.form === "document") return jsonChunks(exported.doc);
  const rows: Iterable<unknown> = exported.rows;
  return (function* () {
    for (const row of rows) yield `${JSON.stringify(row)}\n`;
  })();
}

/** The 422 of grpo / gigpo without a group, as the credit route answers it. */
export function groupTooSmall(error: unknown, method: string): ApiError | null {
  return error instanceof GroupTooSmallError ? new ApiError(422, "group_too_small", `${method} needs a group of at least 2 traces sharing the trace's group_id`) : null;
}

async function exportedAnnotations(traceKey: string): Promise<ExtendedAnnotation[]> {
  return (await listAnnotations(traceKey)).map(({ id: _id, imported: _imported, family, ...a }) => ({ ...a, family: family as ExtendedAnnotation["family"] }));
}

function exportedDecisiveErrors(d: DecisiveErrorsResponse): ExtendedDecisiveErrors {
  return {
    decisive_errors: d.labels.map(({ imported: _imported, ...l }) => l),
    decisive_error_adjudication: d.adjudication,
  };
}

async function exportedAdjudications(traceKey: string): Promise<ExtendedAdjudication[]> {
  const rows = await prisma().adjudication.findMany({ where: { traceKey } });
  const ids = [...new Set(rows.map((r) => r.adjudicatorId))];
  const users = await prisma().user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
  const nameOf = new Map(users.map((u) => [u.id, u.name]));
  return rows.map((r) => ({
    event_id: r.eventId || null,
    family: r.family as ExtendedAdjudication["family"],
    value: r.value,
    adjudicator: nameOf.get(r.adjudicatorId) ?? null,
    updated_at: r.updatedAt.toISOString(),
  }));
}

/**
 * A ReadableStream of UTF-8 text from chunks, pulled as the client reads
 * (memory stays bounded). With `onError`, a failure part-way ends the text
 * with the line it returns instead of breaking the stream.
 */
export function textStream(chunks: Iterator<string> | AsyncIterator<string>, onError?: (error: unknown) => string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let atLineStart = true;
  // a pull under way when the client goes away must not touch the cancelled stream
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        // other requests get their turn between two pulls (reading a sync iterator never leaves the microtask queue)
        await yieldToEventLoop();
        // a few chunks per pull: one row is small, one pull per row would be slow
        let bytes = 0;
        while (bytes < 64 * 1024) {
          if (cancelled) return;
          const next = await chunks.next();
          if (cancelled) return;
          if (next.done) return controller.close();
          if (next.value === "") continue;
          atLineStart = next.value.endsWith("\n");
          const encoded = encoder.encode(next.value);
          bytes += encoded.length;
          controller.enqueue(encoded);
        }
      } catch (error) {
        if (!onError) return controller.error(error);
        // the error is a line of its own, even when the failure came mid-line
        controller.enqueue(encoder.encode(`${atLineStart ? "" : "\n"}${onError(error)}\n`));
        controller.close();
      }
    },
    async cancel() {
      cancelled = true;
      await chunks.return?.(undefined);
    },
  });
}
