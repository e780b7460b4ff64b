import { maxBodyBytes, requestRefusal } from "@/lib/server/http";
import { authorizeOtlp } from "@/lib/server/otel/auth";
import { encodingOf, exportResponse, otlpErrorResponse, readOtlpRequest, type OtlpEncoding } from "@/lib/server/otel/receive";
import { stageSpans } from "@/lib/server/otel/staging";
import { ensureSweeper, kickSweep } from "@/lib/server/otel/sweeper";

export const dynamic = "force-dynamic";

/**
 * POST /api/otel/v1/traces: OTLP/HTTP trace export (JSON or protobuf,
 * gzip accepted). Spans are staged; their trace shows as receiving until
 * BATON_OTEL_IDLE_S seconds pass without new spans (or a flush), then it is
 * mapped and stored (docs/otlp.md).
 */
export async function POST(request: Request): Promise<Response> {
  let encoding: OtlpEncoding | null = null;
  try {
    const refused = requestRefusal(request);
    if (refused) throw refused;
    ensureSweeper();
    // the encoding first, so that even a 401 answers in it
    encoding = encodingOf(request);
    await authorizeOtlp(request);
    kickSweep();
    const { spans, rejected } = await readOtlpRequest(request, encoding, maxBodyBytes());
    const staged = await stageSpans(spans);
    return exportResponse(encoding, [...rejected, ...staged.rejected]);
  } catch (error) {
    return otlpErrorResponse(error, encoding);
  }
}
