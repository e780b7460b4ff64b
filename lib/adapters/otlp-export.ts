import { adaptOtlpSpans } from "./otlp";
import { readOtlpJson } from "./otlp-json";
import type { OtlpSpan } from "./otlp-span";
import { AdapterInputError, type AdaptedTrace } from "./types";

/**
 * An OTLP/JSON file (`--format otlp`): one ExportTraceServiceRequest
 * (`{"resourceSpans": [...]}`), an array of them, or one per line as the
 * OpenTelemetry Collector's file exporter writes. Spans are grouped by
 * trace id (a trace's spans may be spread over several requests or lines);
 * one Baton trace per trace id, in order of first appearance. A span with
 * invalid ids refuses the whole file, as any invalid input does.
 */
export function adaptOtlpFile(path: string, content: string): AdaptedTrace[] {
  return adaptOtlpPayloads(payloadsOf(path, content), path);
}

export function adaptOtlpPayloads(payloads: readonly unknown[], path: string): AdaptedTrace[] {
  const byTrace = new Map<string, Map<string, OtlpSpan>>();
  payloads.forEach((payload, i) => {
    const read = readOtlpJson(payload, payloads.length > 1 ? `$[${i}]` : "$");
    if (!read.ok) throw new AdapterInputError("otlp", path, read.problems);
    if (read.rejected.length > 0) throw new AdapterInputError("otlp", path, read.rejected);
    for (const span of read.spans) {
      const trace = byTrace.get(span.traceId) ?? new Map<string, OtlpSpan>();
      trace.set(span.spanId, span);
      byTrace.set(span.traceId, trace);
    }
  });
  if (byTrace.size === 0) throw new AdapterInputError("otlp", path, ["$.resourceSpans: no spans"]);
  return [...byTrace.values()].map((spans) => adaptOtlpSpans([...spans.values()], { file: path }));
}

function payloadsOf(path: string, content: string): unknown[] {
  try {
    const whole = JSON.parse(content) as unknown;
    return Array.isArray(whole) ? whole : [whole];
  } catch {
    // not one JSON document: JSON lines
  }
  const payloads: unknown[] = [];
  content.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      payloads.push(JSON.parse(line) as unknown);
    } catch (error) {
      throw new AdapterInputError("otlp", path, [`$[${payloads.length}]: malformed JSON on line ${i + 1}: ${(error as Error).message}`]);
    }
  });
  return payloads;
}
