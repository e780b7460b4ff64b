import { z } from "zod";
import { textAttr, type OtlpSpan } from "../otlp-span";

/** `metadata.source` of a trace read from OTLP: the service, its SDK and the instrumentation scopes. */
export function provenanceOf(spans: readonly OtlpSpan[], service: string | undefined, file: string | undefined): Record<string, unknown> {
  const resource = spans[0]?.resource ?? {};
  const sdk = [textAttr(resource, "telemetry.sdk.name"), textAttr(resource, "telemetry.sdk.language"), textAttr(resource, "telemetry.sdk.version")].filter(Boolean).join(" ");
  const version = textAttr(resource, "service.version");
  return {
    format: "otlp",
    adapter: "otlp",
    dataset: "OpenTelemetry (OTLP)",
    ...(service !== undefined ? { service } : {}),
    ...(version !== undefined ? { service_version: version } : {}),
    ...(sdk ? { sdk } : {}),
    scopes: [...new Set(spans.map((s) => s.scope.name).filter((n): n is string => n !== undefined))],
    spans: spans.length,
    ...(file !== undefined ? { file } : {}),
  };
}

/**
 * The spans that became no event (graph plumbing, prompts, HTTP, retrievers
 * ...), counted by name, most frequent first: `metadata.otlp.unmapped`, shown
 * on the trace page so users see what was dropped.
 */
export function unmappedOf(spans: readonly OtlpSpan[], mapped: ReadonlyMap<string, unknown>, absorbed: ReadonlySet<string>): { count: number; names: { name: string; count: number }[] } {
  const counts = new Map<string, number>();
  for (const span of spans) if (!mapped.has(span.spanId) && !absorbed.has(span.spanId)) counts.set(span.name, (counts.get(span.name) ?? 0) + 1);
  const names = [...counts].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  return { count: names.reduce((n, x) => n + x.count, 0), names };
}

const unmappedSchema = z.object({
  otlp: z.object({ unmapped: z.object({ count: z.number().int().nonnegative(), names: z.array(z.object({ name: z.string(), count: z.number().int().positive() })) }) }),
});

/** What the trace page lists: `metadata.otlp.unmapped` of a trace read from OTLP, or null (other sources, none dropped, or a shape we did not write). */
export function unmappedSpansOf(metadata: unknown): { count: number; names: { name: string; count: number }[] } | null {
  const parsed = unmappedSchema.safeParse(metadata);
  return parsed.success && parsed.data.otlp.unmapped.count > 0 ? parsed.data.otlp.unmapped : null;
}

const notesSchema = z.object({ otlp: z.object({ notes: z.array(z.string()) }) });

/**
 * What the mapping says about a trace read from OTLP (`metadata.otlp.notes`:
 * spans kept without their parent, steps in no agent span, no agent name or
 * request in the spans), shown on the trace page; empty for other sources.
 */
export function otlpNotesOf(metadata: unknown): string[] {
  const parsed = notesSchema.safeParse(metadata);
  return parsed.success ? parsed.data.otlp.notes : [];
}
