import { authorizeTrace } from "@/lib/server/auth/trace-access";
import {
  byteStream, exportedRecords, exportedText, exportTraceRecords, groupTooSmall, parquetStream, parseExportRequest, tabularForm, textStream, type ExportedTrace,
} from "@/lib/server/compute/export";
import { acquireExportSlot, HEAVY_EXPORT_EVENTS, releasing } from "@/lib/server/compute/export-slots";
import { traceExport } from "@/lib/api/contracts/analysis";
import { endpoint } from "@/lib/server/endpoint";
import { isTrainerForm } from "@/lib/export/trainers";

export const dynamic = "force-dynamic";

/**
 * GET /api/traces/{id}/export?format=jsonl|transitions|strict|extended&content=&method=&preset=&normalize=&w.<f>= (SPEC.md section 6).
 * Parameters are checked and the trace computed before the first byte; the text is then streamed.
 * `x-baton-form` says what the rows are: `transitions`, or `rows` (event rows: also what
 * `format=transitions` gives for a trace without model calls), or `document`.
 * With `parquet=1` the same records are one Parquet file (a document is one row), streamed a row group at a time.
 * A trace of HEAVY_EXPORT_EVENTS events or more waits for one of the process's export slots (export-slots.ts).
 */
export const GET = endpoint(traceExport, {
  // the export parameters are checked before access
  handle: async ({ request, params: { id } }) => {
    const req = await parseExportRequest(new URL(request.url).searchParams);
    const { row } = await authorizeTrace(request, id, "read");
    // a big trace waits for an export slot (503 when too many wait); a small one goes straight through
    const release = row.eventCount >= HEAVY_EXPORT_EVENTS ? await acquireExportSlot() : () => {};
    let exported: ExportedTrace;
    try {
      exported = await exportTraceRecords(row.traceId, req);
    } catch (error) {
      release();
      throw groupTooSmall(error, req.credit.method) ?? error;
    }
    const safeName = row.traceId.replace(/[^A-Za-z0-9._-]+/g, "_");
    const note = (req.format === "transitions" || isTrainerForm(req.format)) && exported.form === "rows" ? { "x-baton-note": "this trace has no model calls: its event rows are exported instead" } : undefined;
    if (req.parquet) {
      return new Response(byteStream(releasing(parquetStream(tabularForm(exported), exportedRecords(exported)), release)), {
        headers: {
          "content-type": "application/vnd.apache.parquet",
          "content-disposition": `attachment; filename="${safeName}.${exported.form === "document" ? req.format : exported.form}.parquet"`,
          "x-baton-form": exported.form,
          ...note,
        },
      });
    }
    const tabular = exported.form !== "document";
    const headers: Record<string, string> = {
      "content-type": tabular ? "application/x-ndjson; charset=utf-8" : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${safeName}.${tabular ? `${exported.form}.jsonl` : `${req.format}.json`}"`,
      "x-baton-form": exported.form,
      ...note,
    };
    return new Response(textStream(releasing(exportedText(exported)[Symbol.iterator](), release)), { headers });
  },
});
