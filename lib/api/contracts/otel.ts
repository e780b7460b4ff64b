import { z } from "zod";
import { defineEndpoint } from "../contract";

/** OpenTelemetry traces received at /api/otel/v1/traces (docs/otlp.md). That receiver speaks OTLP (protobuf or JSON, errors in OTLP's own encoding) and is written outside endpoint(). */

/** Body of `POST /api/otel/v1/flush`, which may be empty: every staged trace, or the one named. */
export const otelFlushInput = z.strictObject({ trace_id: z.string().regex(/^[0-9a-f]{32}$/, "an OTLP trace id: 32 lower-case hex digits").optional() });

export const flushOtel = defineEndpoint({
  method: "POST",
  path: "/api/otel/v1/flush",
  body: otelFlushInput,
  bodyOptional: true,
  output: z.object({ traces: z.array(z.object({ trace_id: z.string() })) }),
  errors: [],
});
