import { Root } from "protobufjs/light";

/**
 * OTLP/protobuf for traces, with protobufjs (its reflection runtime, which
 * builds and runs the decoder; no generated code). The message definitions
 * below are those of opentelemetry-proto (opentelemetry/proto/trace/v1/
 * trace.proto, common/v1/common.proto, resource/v1/resource.proto,
 * collector/trace/v1/trace_service.proto), written as protobufjs JSON with
 * the same field numbers and types; fields Baton does not read (trace_state,
 * flags, dropped counts, schema urls, entity refs) are left out, which
 * protobuf decoding skips as unknown fields. google.rpc.Status is the error
 * body OTLP/HTTP answers with.
 *
 * `decodeTraceRequest` returns the OTLP/JSON shape (hex ids, int64 as
 * decimal strings, enums as numbers), read by otlp-json.ts like any JSON
 * payload.
 */

const keyValues = (id: number) => ({ rule: "repeated", type: "opentelemetry.proto.common.v1.KeyValue", id });

const DESCRIPTOR = {
  nested: {
    opentelemetry: { nested: { proto: { nested: {
      common: { nested: { v1: { nested: {
        AnyValue: {
          oneofs: { value: { oneof: ["stringValue", "boolValue", "intValue", "doubleValue", "arrayValue", "kvlistValue", "bytesValue"] } },
          fields: {
            stringValue: { type: "string", id: 1 },
            boolValue: { type: "bool", id: 2 },
            intValue: { type: "int64", id: 3 },
            doubleValue: { type: "double", id: 4 },
            arrayValue: { type: "ArrayValue", id: 5 },
            kvlistValue: { type: "KeyValueList", id: 6 },
            bytesValue: { type: "bytes", id: 7 },
          },
        },
        ArrayValue: { fields: { values: { rule: "repeated", type: "AnyValue", id: 1 } } },
        KeyValueList: { fields: { values: { rule: "repeated", type: "KeyValue", id: 1 } } },
        KeyValue: { fields: { key: { type: "string", id: 1 }, value: { type: "AnyValue", id: 2 } } },
        InstrumentationScope: { fields: { name: { type: "string", id: 1 }, version: { type: "string", id: 2 } } },
      } } } },
      resource: { nested: { v1: { nested: { Resource: { fields: { attributes: keyValues(1) } } } } } },
      trace: { nested: { v1: { nested: {
        ResourceSpans: { fields: { resource: { type: "opentelemetry.proto.resource.v1.Resource", id: 1 }, scopeSpans: { rule: "repeated", type: "ScopeSpans", id: 2 } } },
        ScopeSpans: { fields: { scope: { type: "opentelemetry.proto.common.v1.InstrumentationScope", id: 1 }, spans: { rule: "repeated", type: "Span", id: 2 } } },
        Span: {
          fields: {
            traceId: { type: "bytes", id: 1 },
            spanId: { type: "bytes", id: 2 },
            parentSpanId: { type: "bytes", id: 4 },
            name: { type: "string", id: 5 },
            kind: { type: "int32", id: 6 },
            startTimeUnixNano: { type: "fixed64", id: 7 },
            endTimeUnixNano: { type: "fixed64", id: 8 },
            attributes: keyValues(9),
            events: { rule: "repeated", type: "Event", id: 11 },
            links: { rule: "repeated", type: "Link", id: 13 },
            status: { type: "Status", id: 15 },
          },
          nested: {
            Event: { fields: { timeUnixNano: { type: "fixed64", id: 1 }, name: { type: "string", id: 2 }, attributes: keyValues(3) } },
            Link: { fields: { traceId: { type: "bytes", id: 1 }, spanId: { type: "bytes", id: 2 }, attributes: keyValues(4) } },
          },
        },
        Status: { fields: { message: { type: "string", id: 2 }, code: { type: "int32", id: 3 } } },
      } } } },
      collector: { nested: { trace: { nested: { v1: { nested: {
        ExportTraceServiceRequest: { fields: { resourceSpans: { rule: "repeated", type: "opentelemetry.proto.trace.v1.ResourceSpans", id: 1 } } },
        ExportTraceServiceResponse: { fields: { partialSuccess: { type: "ExportTracePartialSuccess", id: 1 } } },
        ExportTracePartialSuccess: { fields: { rejectedSpans: { type: "int64", id: 1 }, errorMessage: { type: "string", id: 2 } } },
      } } } } } },
    } } } },
    google: { nested: { rpc: { nested: { Status: { fields: { code: { type: "int32", id: 1 }, message: { type: "string", id: 2 } } } } } } },
  },
};

const root = Root.fromJSON(DESCRIPTOR);
const RequestType = root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest");
const ResponseType = root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse");
const RpcStatusType = root.lookupType("google.rpc.Status");

/** Decodes an ExportTraceServiceRequest into its OTLP/JSON shape; throws on bytes that are not one. */
export function decodeTraceRequest(bytes: Uint8Array): unknown {
  const message = RequestType.decode(bytes);
  const object = RequestType.toObject(message, { longs: String, enums: Number, bytes: String, defaults: false, arrays: true });
  return hexIds(object);
}

/** The ExportTraceServiceResponse: empty when every span was accepted, else the partial success. */
export function encodeTraceResponse(partial?: { rejectedSpans: number; errorMessage: string }): Uint8Array {
  return ResponseType.encode(ResponseType.fromObject(partial ? { partialSuccess: partial } : {})).finish();
}

/** google.rpc.Status, the body of an OTLP/HTTP error answer to a protobuf request. */
export function encodeRpcStatus(code: number, message: string): Uint8Array {
  return RpcStatusType.encode(RpcStatusType.fromObject({ code, message })).finish();
}

/** Test helper and the reverse of decodeTraceRequest: an OTLP/JSON-shaped request as protobuf bytes. */
export function encodeTraceRequest(request: unknown): Uint8Array {
  return RequestType.encode(RequestType.fromObject(base64Ids(request) as Record<string, unknown>)).finish();
}

const ID_KEYS = new Set(["traceId", "spanId", "parentSpanId"]);

/** protobufjs writes bytes as base64; OTLP/JSON wants ids in hex (attribute bytesValue stays base64, as in OTLP/JSON). */
function hexIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hexIds);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = ID_KEYS.has(key) && typeof item === "string" ? Buffer.from(item, "base64").toString("hex") : hexIds(item);
  }
  return out;
}

function base64Ids(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(base64Ids);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = ID_KEYS.has(key) && typeof item === "string" ? Buffer.from(item, "hex").toString("base64") : base64Ids(item);
  }
  return out;
}
