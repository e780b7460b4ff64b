import { flushOtel, otelFlushInput } from "@/lib/api/contracts/otel";
import { jsonPath } from "@/lib/trace/validate";
import { ApiError } from "@/lib/server/errors";
import { endpoint } from "@/lib/server/endpoint";
import { readBodyLimited } from "@/lib/server/http";
import { authorizeOtlp } from "@/lib/server/otel/auth";
import { flushTraces } from "@/lib/server/otel/finalise";
import { ensureSweeper, kickSweep } from "@/lib/server/otel/sweeper";

export const dynamic = "force-dynamic";


/**
 * POST /api/otel/v1/flush, body `{}` (or none) or `{"trace_id": "<hex>"}`:
 * finalises the receiving traces now (or that one, retrying it when it
 * failed) instead of waiting for BATON_OTEL_IDLE_S seconds without spans.
 * 200 `{"traces": [{trace_id, status, events, edges, error}]}`.
 */
export const POST = endpoint(flushOtel, {
  access: async (request) => {
    ensureSweeper();
    await authorizeOtlp(request);
  },
  // OTLP exporters flush with an empty body of any type: read here, empty is `{}`
  ownBody: true,
  handle: async ({ request }) => {
    kickSweep();
    const text = await readBodyLimited(request, 64 * 1024);
    let raw: unknown = {};
    if (text.trim() !== "") {
      try {
        raw = JSON.parse(text);
      } catch (error) {
        throw new ApiError(400, "invalid_input", "malformed JSON", [{ path: "$", message: (error as Error).message }]);
      }
    }
    const body = otelFlushInput.safeParse(raw);
    if (!body.success) throw new ApiError(400, "invalid_input", "invalid body", body.error.issues.map((i) => ({ path: jsonPath("$", i.path), message: i.message })));
    return { traces: await flushTraces(body.data.trace_id) };
  },
});
