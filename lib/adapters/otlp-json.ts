import { z } from "zod";
import type { AttrValue, Attributes, OtlpSpan, StatusCode } from "./otlp-span";
import { zodDetails } from "./zod-details";

/**
 * Reads an OTLP/JSON trace payload (an ExportTraceServiceRequest, which is
 * also the shape of the collector's file export: `{"resourceSpans": [...]}`)
 * into flat OtlpSpans. Follows the OTLP/JSON rules: lowerCamelCase keys,
 * trace and span ids in hex, int64 values (times, intValue) as strings or
 * numbers, enums as integers (their names are accepted too). The protobuf
 * decoder (otlp-protobuf.ts) produces this same shape, so both encodings
 * share this reader.
 *
 * A payload that is not this shape is refused as a whole (`ok: false`, the
 * problems with their JSON paths); a span whose ids are invalid (wrong
 * length, all zeros) is rejected alone and counted, as OTLP's partial
 * success expects.
 */

/** Unix nanoseconds: a decimal string (int64 in OTLP/JSON) or a number (precise only to about 256 ns at today's dates). */
const nanos = z.union([z.string().regex(/^\d+$/, "must be Unix nanoseconds"), z.number().nonnegative().transform((n) => BigInt(Math.trunc(n)).toString())]);
const keyValue = z.looseObject({ key: z.string(), value: z.unknown().optional() });
const attributeList = z.array(keyValue).nullish();
const enumValue = z.union([z.number().int(), z.string()]).nullish();

const spanSchema = z.looseObject({
  traceId: z.string(),
  spanId: z.string(),
  parentSpanId: z.string().nullish(),
  name: z.string().nullish(),
  kind: enumValue,
  startTimeUnixNano: nanos,
  endTimeUnixNano: nanos.nullish(),
  attributes: attributeList,
  events: z.array(z.looseObject({ timeUnixNano: nanos.nullish(), name: z.string().nullish(), attributes: attributeList })).nullish(),
  links: z.array(z.looseObject({ traceId: z.string(), spanId: z.string(), attributes: attributeList })).nullish(),
  status: z.looseObject({ code: enumValue, message: z.string().nullish() }).nullish(),
});

const scopeSpansSchema = z.looseObject({
  scope: z.looseObject({ name: z.string().nullish(), version: z.string().nullish() }).nullish(),
  spans: z.array(spanSchema).nullish(),
});

const resourceSpansSchema = z.looseObject({
  resource: z.looseObject({ attributes: attributeList }).nullish(),
  scopeSpans: z.array(scopeSpansSchema).nullish(),
  /** the name of scopeSpans before OTLP 0.19, still written by old collectors' file exports */
  instrumentationLibrarySpans: z.array(scopeSpansSchema).nullish(),
});

export const otlpTracesSchema = z.looseObject({ resourceSpans: z.array(resourceSpansSchema) });

export type OtlpReadResult =
  | { ok: true; spans: OtlpSpan[]; rejected: string[] }
  | { ok: false; problems: string[] };

export function readOtlpJson(payload: unknown, base = "$"): OtlpReadResult {
  const parsed = otlpTracesSchema.safeParse(payload);
  if (!parsed.success) return { ok: false, problems: zodDetails(parsed.error, base) };
  const spans: OtlpSpan[] = [];
  const rejected: string[] = [];
  parsed.data.resourceSpans.forEach((rs, r) => {
    const resource = attributes(rs.resource?.attributes);
    [...(rs.scopeSpans ?? []), ...(rs.instrumentationLibrarySpans ?? [])].forEach((ss, s) => {
      const scope = { ...(ss.scope?.name ? { name: ss.scope.name } : {}), ...(ss.scope?.version ? { version: ss.scope.version } : {}) };
      (ss.spans ?? []).forEach((raw, i) => {
        const span = toSpan(raw, resource, scope);
        if (typeof span === "string") rejected.push(`${base}.resourceSpans[${r}].scopeSpans[${s}].spans[${i}]: ${span}`);
        else spans.push(span);
      });
    });
  });
  return { ok: true, spans, rejected };
}

function toSpan(raw: z.infer<typeof spanSchema>, resource: Attributes, scope: OtlpSpan["scope"]): OtlpSpan | string {
  const traceId = hexId(raw.traceId, 16);
  const spanId = hexId(raw.spanId, 8);
  if (traceId === null) return `invalid traceId "${raw.traceId}" (16 bytes in hex, not all zero)`;
  if (spanId === null) return `invalid spanId "${raw.spanId}" (8 bytes in hex, not all zero)`;
  const parent = raw.parentSpanId ? hexId(raw.parentSpanId, 8) : null;
  const start = String(raw.startTimeUnixNano);
  const end = raw.endTimeUnixNano === undefined || raw.endTimeUnixNano === null ? start : String(raw.endTimeUnixNano);
  return {
    traceId,
    spanId,
    ...(parent !== null ? { parentSpanId: parent } : {}),
    name: raw.name ?? "",
    kind: enumNumber(raw.kind, "SPAN_KIND_", ["UNSPECIFIED", "INTERNAL", "SERVER", "CLIENT", "PRODUCER", "CONSUMER"]),
    startTimeUnixNano: start,
    endTimeUnixNano: BigInt(end) < BigInt(start) ? start : end,
    attributes: attributes(raw.attributes),
    events: (raw.events ?? []).map((e) => ({ name: e.name ?? "", timeUnixNano: String(e.timeUnixNano ?? start), attributes: attributes(e.attributes) })),
    links: (raw.links ?? []).flatMap((l) => {
      const linkTrace = hexId(l.traceId, 16);
      const linkSpan = hexId(l.spanId, 8);
      return linkTrace && linkSpan ? [{ traceId: linkTrace, spanId: linkSpan, attributes: attributes(l.attributes) }] : [];
    }),
    status: {
      code: Math.min(2, Math.max(0, enumNumber(raw.status?.code, "STATUS_CODE_", ["UNSET", "OK", "ERROR"]))) as StatusCode,
      ...(raw.status?.message ? { message: raw.status.message } : {}),
    },
    resource,
    scope,
  };
}

/** Lower-case hex of an id of `bytes` bytes, given in hex (OTLP/JSON) or, leniently, base64; null when invalid or all zero. */
export function hexId(value: string, bytes: number): string | null {
  let hex: string | null = null;
  if (value.length === bytes * 2 && /^[0-9a-fA-F]+$/.test(value)) hex = value.toLowerCase();
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) {
    const decoded = Buffer.from(value, "base64");
    if (decoded.length === bytes) hex = decoded.toString("hex");
  }
  return hex !== null && /[^0]/.test(hex) ? hex : null;
}

function enumNumber(value: string | number | null | undefined, prefix: string, names: readonly string[]): number {
  if (typeof value === "number") return value;
  if (typeof value !== "string") return 0;
  const index = names.indexOf(value.toUpperCase().replace(prefix, ""));
  return index >= 0 ? index : Number.isInteger(Number(value)) ? Number(value) : 0;
}

function attributes(list: readonly { key: string; value?: unknown }[] | null | undefined): Attributes {
  const out: Attributes = {};
  for (const kv of list ?? []) out[kv.key] = anyValue(kv.value);
  return out;
}

/** An OTLP AnyValue as plain JSON: int64 as a number when it fits exactly, else as its decimal string. */
export function anyValue(value: unknown): AttrValue {
  if (value === null || typeof value !== "object") return null;
  const v = value as Record<string, unknown>;
  if (typeof v.stringValue === "string") return v.stringValue;
  if (typeof v.boolValue === "boolean") return v.boolValue;
  const { intValue, doubleValue } = v;
  if (typeof intValue === "string" || typeof intValue === "number") {
    const n = Number(intValue);
    return Number.isSafeInteger(n) ? n : String(intValue);
  }
  // doubles outside JSON's range ("NaN", "Infinity" in proto3 JSON) stay strings
  if (typeof doubleValue === "string" || typeof doubleValue === "number") {
    const n = Number(doubleValue);
    return Number.isFinite(n) ? n : String(doubleValue);
  }
  if (v.arrayValue && typeof v.arrayValue === "object") {
    const values = (v.arrayValue as { values?: unknown }).values;
    return Array.isArray(values) ? values.map(anyValue) : [];
  }
  if (v.kvlistValue && typeof v.kvlistValue === "object") {
    const values = (v.kvlistValue as { values?: unknown }).values;
    const out: Record<string, AttrValue> = {};
    if (Array.isArray(values)) for (const kv of values as { key?: unknown; value?: unknown }[]) if (typeof kv?.key === "string") out[kv.key] = anyValue(kv.value);
    return out;
  }
  if (typeof v.bytesValue === "string") return v.bytesValue;
  return null;
}
