import { LIST_FILTER_KEYS, searchParamsObject, traceListQuery } from "@/lib/api/filters";
import { GroupTooSmallError } from "@/lib/credit";
import { readableProjects } from "@/lib/server/auth/access";
import {
  byteStream, exportedRecords, exportedText, exportTraceRecords, parquetStream, parseExportRequest, textStream, type ExportedTrace,
} from "@/lib/server/compute/export";
import { acquireExportSlot, releasing } from "@/lib/server/compute/export-slots";
import { ApiError } from "@/lib/server/errors";
import { datasetExport } from "@/lib/api/contracts/analysis";
import { endpoint } from "@/lib/server/endpoint";
import { parseQuery } from "@/lib/server/http";
import { listTraces } from "@/lib/server/queries/traces";

export const dynamic = "force-dynamic";


/**
 * GET /api/export?format=&content=&<trace list filters>&method=&preset=&normalize=:
 * every matching trace, streamed as JSONL (rows for `jsonl`, one row per
 * model call for `transitions`, skipping traces without model calls; one
 * trace per line for `strict` / `extended`), a trace at a time so memory stays flat.
 * Every parameter is checked before the stream starts; a stream that fails
 * part-way ends with a last line `{"error": {...}}` (SPEC.md section 6).
 * The stream holds one of the process's export slots (export-slots.ts).
 */
export const GET = endpoint(datasetExport, {
  handle: async ({ request }) => {
    const search = new URL(request.url).searchParams;
    const req = await parseExportRequest(search);
    const filterParams = Object.fromEntries(Object.entries(searchParamsObject(search)).filter(([k]) => (LIST_FILTER_KEYS as readonly string[]).includes(k)));
    // creation order (a search's ranking is for reading, not for a dataset)
    const filter = parseQuery(traceListQuery, { ...filterParams, sort: "created", limit: "100" });
    const readable = await readableProjects(request);
    const jsonl = req.format === "jsonl" || req.format === "transitions";
    // a dataset export holds an export slot of this process until its last byte (503 when too many wait)
    const release = await acquireExportSlot();

    /** The export of each matching trace, a trace at a time. */
    async function* traces(): AsyncGenerator<ExportedTrace> {
      let cursor: string | undefined;
      do {
        const page = await listTraces({ ...filter, cursor }, readable);
        for (const t of page.traces) {
          let exported: ExportedTrace;
          try {
            exported = await exportTraceRecords(t.trace_id, req);
          } catch (error) {
            // a grpo/gigpo export skips traces without a group rather than failing the whole dataset
            if (error instanceof GroupTooSmallError) continue;
            throw error;
          }
          // transitions are one shape of row: a trace without model calls has none
          if (req.format === "transitions" && exported.form !== "transitions") continue;
          yield exported;
        }
        cursor = page.next_cursor ?? undefined;
      } while (cursor !== undefined);
    }

    if (req.parquet) {
      // one Parquet file; a stream that fails part-way is cut before the footer, so no reader takes it for a whole file
      const form = req.format === "jsonl" ? "rows" : req.format === "transitions" ? "transitions" : "traces";
      async function* records(): AsyncGenerator<object> {
        for await (const exported of traces()) yield* exportedRecords(exported);
      }
      return new Response(byteStream(releasing(parquetStream(form, records()), release)), {
        headers: { "content-type": "application/vnd.apache.parquet", "content-disposition": `attachment; filename="baton-export-${req.format}.parquet"` },
      });
    }

    async function* dataset(): AsyncGenerator<string> {
      for await (const exported of traces()) {
        yield* exportedText(exported);
        if (!jsonl) yield "\n";
      }
    }

    return new Response(textStream(releasing(dataset(), release), errorLine), {
      headers: { "content-type": "application/x-ndjson; charset=utf-8", "content-disposition": `attachment; filename="baton-export-${req.format}.jsonl"` },
    });
  },
});

/** The last line of a dataset whose stream failed part-way: never mistaken for a whole file. */
function errorLine(error: unknown): string {
  const body = error instanceof ApiError ? error.toJSON() : { error: { code: "export_failed", message: "the export failed part-way; this file is incomplete", details: [] } };
  if (!(error instanceof ApiError)) console.error("dataset export failed part-way", error);
  return JSON.stringify(body);
}
