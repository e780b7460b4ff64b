import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { exportTrace, groupTooSmall, parseExportRequest, textStream } from "@/lib/server/compute/export";
import { route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/**
 * GET /api/traces/{id}/export?format=jsonl|strict|extended&content=&method=&preset=&normalize=&w.<f>= (SPEC.md section 6).
 * Parameters are checked and the trace computed before the first byte; the text is then streamed.
 */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const req = await parseExportRequest(new URL(request.url).searchParams);
  const { row } = await authorizeTrace(request, id, "read");
  let chunks: Iterable<string>;
  try {
    chunks = await exportTrace(row.traceId, req);
  } catch (error) {
    throw groupTooSmall(error, req.credit.method) ?? error;
  }
  const safeName = row.traceId.replace(/[^A-Za-z0-9._-]+/g, "_");
  return new Response(textStream(chunks[Symbol.iterator]()), {
    headers: {
      "content-type": req.format === "jsonl" ? "application/x-ndjson; charset=utf-8" : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${safeName}.${req.format === "jsonl" ? "jsonl" : `${req.format}.json`}"`,
    },
  });
});
