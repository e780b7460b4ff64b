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

export interface OtlpSpanEvent {
  name: string;
  timeUnixNano: string;
  attributes: Attributes;
}

export interface OtlpSpanLink {
  traceId: string;
  spanId: string;
  attributes: Attributes;
}

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  /** absent for a root span */
  parentSpanId?: string;
  name: string;
  /** OTLP SpanKind (0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer) */
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Attributes;
  events: OtlpSpanEvent[];
  links: OtlpSpanLink[];
  status: { code: StatusCode; message?: string };
  /** the attributes of the span's resource (service.name, telemetry.sdk.*, ...) */
  resource: Attributes;
  scope: { name?: string; version?: string };
}

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
