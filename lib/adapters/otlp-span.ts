import { z } from "zod";

/**
 * One OpenTelemetry span as Baton keeps it: the OTLP span flattened with its
 * resource and instrumentation scope, ids in lower-case hex, times in Unix
 * nanoseconds as decimal strings (int64 does not fit a JS number), attribute
 * values as plain JSON. Both OTLP encodings (JSON and protobuf) are read into
 * this form (otlp-json.ts), staged in the database as it is, and mapped onto
 * orchestration events by otlp.ts.
 */

export type AttrValue = string | number | boolean | null | AttrValue[] | { [key: string]: AttrValue };
export type Attributes = Record<string, AttrValue>;

/** OTLP Status.code: 0 unset, 1 ok, 2 error. */
export type StatusCode = 0 | 1 | 2;

const attributes: z.ZodType<Attributes> = z.record(z.string(), z.json());
/** Unix nanoseconds as a decimal string */
const nanos = z.string();

const otlpSpanEventSchema = z.object({ name: z.string(), timeUnixNano: nanos, attributes });
export type OtlpSpanEvent = z.infer<typeof otlpSpanEventSchema>;

const otlpSpanLinkSchema = z.object({ traceId: z.string(), spanId: z.string(), attributes });
export type OtlpSpanLink = z.infer<typeof otlpSpanLinkSchema>;

/** A span in Baton's form (the form it is staged in: otel_spans.span). */
export const otlpSpanSchema = z.object({
  traceId: z.string(),
  spanId: z.string(),
  /** absent for a root span */
  parentSpanId: z.string().optional(),
  name: z.string(),
  /** OTLP SpanKind (0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer) */
  kind: z.number().int(),
  startTimeUnixNano: nanos,
  endTimeUnixNano: nanos,
  attributes,
  events: z.array(otlpSpanEventSchema),
  links: z.array(otlpSpanLinkSchema),
  status: z.object({ code: z.union([z.literal(0), z.literal(1), z.literal(2)]), message: z.string().optional() }),
  /** the attributes of the span's resource (service.name, telemetry.sdk.*, ...) */
  resource: attributes,
  scope: z.object({ name: z.string().optional(), version: z.string().optional() }),
});
export type OtlpSpan = z.infer<typeof otlpSpanSchema>;

/** The first of `keys` that the attributes hold as a non-empty string (numbers and booleans are written out). */
export function textAttr(attributes: Attributes, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = attributes[key];
    if (typeof value === "string" && value !== "") return value;
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    if (value !== undefined && value !== null && typeof value === "object") return JSON.stringify(value);
  }
  return undefined;
}

/** The first of `keys` that the attributes hold as a finite number (numeric strings count). */
export function numberAttr(attributes: Attributes, ...keys: string[]): number | undefined {
  for (const key of keys) {
    const value = attributes[key];
    const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
    if (Number.isFinite(n)) return n;
  }
  return undefined;
}

/** A failed span: status ERROR, or `error.type` set (GenAI semantic conventions). */
export function spanFailed(span: OtlpSpan): boolean {
  return span.status.code === 2 || textAttr(span.attributes, "error.type") !== undefined;
}

/** Seconds from `origin` (Unix nanoseconds) to `nanos`, exact to the nanosecond before the final division. */
export function secondsSince(origin: bigint, nanos: string): number {
  return Number(BigInt(nanos) - origin) / 1e9;
}

/** Orders spans by start time. */
export function compareStart(a: OtlpSpan, b: OtlpSpan): number {
  const d = BigInt(a.startTimeUnixNano) - BigInt(b.startTimeUnixNano);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** `{key: value}`, or nothing when the value is absent (for spreading optional event fields). */
export function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}
