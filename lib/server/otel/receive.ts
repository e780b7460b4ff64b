import "server-only";
import { gunzipSync, inflateSync } from "node:zlib";
import { readOtlpJson } from "@/lib/adapters/otlp-json";
import { decodeTraceRequest, encodeRpcStatus, encodeTraceResponse } from "@/lib/adapters/otlp-protobuf";
import type { OtlpSpan } from "@/lib/adapters/otlp-span";
import { ApiError } from "../errors";
import { nestingProblem } from "@/lib/ingest/depth";
import { errorResponse, readBytesLimited, tooLarge } from "../http";

/**
 * OTLP/HTTP for traces, the wire side: which encoding a request uses, its
 * body (gzip or deflate accepted, size-limited before and after
 * decompression), decoded into spans; and the answers OTLP expects
 * (ExportTraceServiceResponse on success, google.rpc.Status on errors, in
 * the request's encoding).
 */

export type OtlpEncoding = "json" | "protobuf";

const PROTOBUF_TYPES = new Set(["application/x-protobuf", "application/protobuf"]);

/** The request's encoding by Content-Type; 415 for anything but OTLP's two. */
export function encodingOf(request: Request): OtlpEncoding {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/json") return "json";
  if (PROTOBUF_TYPES.has(type)) return "protobuf";
  throw new ApiError(415, "unsupported_media_type", `send OTLP as application/json or application/x-protobuf, not "${type || "no content type"}"`);
}

export interface ReceivedSpans {
  spans: OtlpSpan[];
  /** spans refused one by one (invalid ids), for the partial success answer */
  rejected: string[];
}

export async function readOtlpRequest(request: Request, encoding: OtlpEncoding, limitBytes: number): Promise<ReceivedSpans> {
  const body = decompress(request.headers.get("content-encoding"), await readBytesLimited(request, limitBytes), limitBytes);
  let payload: unknown;
  try {
    payload = encoding === "json" ? parseBoundedJson(new TextDecoder("utf-8", { fatal: true }).decode(body)) : decodeTraceRequest(body);
  } catch (error) {
    const what = encoding === "json" ? "malformed JSON" : "malformed protobuf: not an ExportTraceServiceRequest";
    throw new ApiError(400, "invalid_input", what, [{ path: "$", message: (error as Error).message }]);
  }
  const read = readWithoutOverflow(payload);
  if (!read.ok) {
    throw new ApiError(400, "invalid_input", "not an OTLP ExportTraceServiceRequest", read.problems.map((p) => ({ path: p.slice(0, p.indexOf(":")), message: p.slice(p.indexOf(":") + 2) })));
  }
  return { spans: read.spans, rejected: read.rejected };
}

/** OTLP JSON nests attribute values (kvlistValue, arrayValue); deeper than this is refused before parsing. */
const OTLP_MAX_DEPTH = 256;

function parseBoundedJson(text: string): unknown {
  if (nestingProblem(text, OTLP_MAX_DEPTH) !== null) throw new Error(`nested deeper than ${OTLP_MAX_DEPTH} levels`);
  return JSON.parse(text);
}

/** A protobuf body can nest AnyValues as deep as its bytes allow: a stack overflow while reading it is the sender's 400. */
function readWithoutOverflow(payload: unknown): ReturnType<typeof readOtlpJson> {
  try {
    return readOtlpJson(payload);
  } catch (error) {
    if (error instanceof RangeError) throw new ApiError(400, "invalid_input", "OTLP values nested too deeply", [{ path: "$", message: error.message }]);
    throw error;
  }
}

/** 200 with the ExportTraceServiceResponse; a partial success when some spans were refused. */
export function exportResponse(encoding: OtlpEncoding, rejected: readonly string[]): Response {
  const partial = rejected.length > 0 ? { rejectedSpans: rejected.length, errorMessage: `${rejected.length} span(s) refused: ${rejected.slice(0, 5).join("; ")}` } : undefined;
  if (encoding === "protobuf") {
    return new Response(new Uint8Array(encodeTraceResponse(partial)), { status: 200, headers: { "content-type": "application/x-protobuf" } });
  }
  return Response.json({ partialSuccess: partial ?? {} });
}

/** gRPC status codes for OTLP's google.rpc.Status, by HTTP status. */
const RPC_CODES: Readonly<Record<number, number>> = { 400: 3, 401: 16, 403: 7, 404: 5, 413: 8, 415: 3, 429: 8, 500: 13, 503: 14 };

/**
 * An error answer: for protobuf requests the google.rpc.Status OTLP asks
 * for; for JSON, Baton's error shape with the Status fields beside it
 * (`code`, `message`), so that both OTLP clients and Baton's scripts read it.
 */
export function otlpErrorResponse(error: unknown, encoding: OtlpEncoding | null): Response {
  const base = errorResponse(error);
  if (!(error instanceof ApiError)) return base;
  const code = RPC_CODES[error.status] ?? 2;
  if (encoding === "protobuf") {
    return new Response(new Uint8Array(encodeRpcStatus(code, error.message)), { status: error.status, headers: { "content-type": "application/x-protobuf" } });
  }
  return Response.json({ code, message: error.message, ...error.toJSON() }, { status: error.status });
}

function decompress(contentEncoding: string | null, body: Uint8Array, limitBytes: number): Uint8Array {
  const encoding = (contentEncoding ?? "identity").trim().toLowerCase();
  if (encoding === "identity" || encoding === "") return body;
  if (encoding !== "gzip" && encoding !== "x-gzip" && encoding !== "deflate") {
    throw new ApiError(415, "unsupported_media_type", `Content-Encoding "${encoding}" is not supported (send gzip, deflate or none)`);
  }
  try {
    return encoding === "deflate" ? inflateSync(body, { maxOutputLength: limitBytes }) : gunzipSync(body, { maxOutputLength: limitBytes });
  } catch (error) {
    if (error instanceof RangeError || (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge(limitBytes);
    throw new ApiError(400, "invalid_input", `malformed ${encoding} body`, [{ path: "$", message: (error as Error).message }]);
  }
}
