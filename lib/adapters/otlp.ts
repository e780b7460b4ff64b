import { modelCallsOf } from "./otlp-calls";
import { otlpSpansToTrace } from "./otlp/index";
import type { OtlpSpan } from "./otlp-span";
import type { AdaptedTrace } from "./types";

/**
 * OTLP spans of one trace -> the orchestration trace (otlp/: one module per
 * convention family) with the run's model calls (otlp-calls.ts) beside it.
 */
export function adaptOtlpSpans(spans: readonly OtlpSpan[], opts: { file?: string } = {}): AdaptedTrace {
  const trace = otlpSpansToTrace(spans, opts);
  const calls = modelCallsOf(spans, trace);
  return calls.length > 0 ? { ...trace, calls } : trace;
}
