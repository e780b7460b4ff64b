import { z } from "zod";
import { jsonPath } from "@/lib/trace/validate";
import { ApiError } from "@/lib/server/errors";
import { readBodyLimited, route } from "@/lib/server/http";
import { authorizeOtlp } from "@/lib/server/otel/auth";
import { flushTraces } from "@/lib/server/otel/finalise";
import { ensureSweeper, kickSweep } from "@/lib/server/otel/sweeper";

export const dynamic = "force-dynamic";

const flushBody = z.strictObject({ trace_id: z.string().regex(/^[0-9a-f]{32}$/, "an OTLP trace id: 32 lower-case hex digits").optional() });

/**
 * POST /api/otel/v1/flush, body `{}` (or none) or `{"trace_id": "<hex>"}`:
 * finalises the receiving traces now (or that one, retrying it when it
 * failed) instead of waiting for BATON_OTEL_IDLE_S seconds without spans.
 * 200 `{"traces": [{trace_id, status, events, edges, error}]}`.
 */
export const POST = route(async (request: Request) => {
  ensureSweeper();
  await authorizeOtlp(request);
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
  const body = flushBody.safeParse(raw);
  if (!body.success) throw new ApiError(400, "invalid_input", "invalid body", body.error.issues.map((i) => ({ path: jsonPath("$", i.path), message: i.message })));
  return Response.json({ traces: await flushTraces(body.data.trace_id) });
});
