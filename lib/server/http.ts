import "server-only";
import { z } from "zod";
import { declaredLength, MIB, SMALL_BODY_BYTES, tooLargeMessage } from "@/lib/api/body-limits";
import { MAX_JSON_DEPTH, unstorableStrings } from "@/lib/api/json-safety";
import { parseAllowedHosts, refusal, requestFacts } from "@/lib/api/request-origin";
import { nestingProblem } from "@/lib/ingest/depth";
import { jsonPath } from "@/lib/trace/validate";
import { ApiError } from "./errors";
import { DATABASE_HEADER, inReadScope, servedBy, stampWrite } from "./db/read";
import { setting } from "./config";

/**
 * Route-handler glue: every error becomes the documented error shape
 * (SPEC.md section 7); unexpected ones are logged and answered with a
 * generic 500, never a stack trace. Reads are routed to a standby when one
 * may serve them, and writes answer with the position they committed at
 * (lib/server/db/read.ts).
 */
type Handler<C> = (request: Request, context: C) => Promise<Response>;

export function route<C>(handler: Handler<C>): Handler<C> {
  return async (request, context) => {
    try {
      const refused = requestRefusal(request);
      if (refused) throw refused;
      const { scope, result } = inReadScope(request, () => handler(request, context));
      const response = await result;
      const by = servedBy(scope);
      if (by) setHeader(response, DATABASE_HEADER, by);
      else if (response.status < 400 && request.method !== "GET" && request.method !== "HEAD" && !isAuthPath(request)) await stampWrite(request, response);
      return response;
    } catch (error) {
      return errorResponse(error);
    }
  };
}

/**
 * The host, cross-site and body-type rules of lib/api/request-origin.ts.
 * proxy.ts applies them to every page and most API routes; the routes that
 * take files and batches are outside the proxy (so that Next does not copy
 * their bodies, and a body announced over the limit is refused before it is
 * sent), and every route applies them here as well.
 */
export function requestRefusal(request: Request): ApiError | null {
  const refused = refusal(requestFacts(request.method, new URL(request.url).pathname, request.headers), parseAllowedHosts(setting("BATON_ALLOWED_HOSTS")));
  return refused === null ? null : new ApiError(refused.status, refused.code, refused.message, [{ path: "$", message: refused.message }]);
}

/** Sign-in, sign-out and setup: what they write (sessions) is always read from the primary, so their answers carry no position. */
function isAuthPath(request: Request): boolean {
  return new URL(request.url).pathname.startsWith("/api/auth/");
}

function setHeader(response: Response, name: string, value: string): void {
  try {
    response.headers.set(name, value);
  } catch {
    // immutable headers (a redirect)
  }
}

export function errorResponse(error: unknown): Response {
  if (error instanceof ApiError) return Response.json(error.toJSON(), { status: error.status, headers: error.headers });
  if (error instanceof z.ZodError) return errorResponse(queryError(error));
  console.error("[baton] unexpected error:", error);
  return Response.json({ error: { code: "internal", message: "internal error", details: [] } }, { status: 500 });
}

/** A zod error on query parameters, with each parameter's name as its path. */
export function queryError(error: z.ZodError): ApiError {
  const details = error.issues.map((i) => ({ path: jsonPath("", i.path).replace(/^\./, "") || "$", message: i.message }));
  return new ApiError(400, "invalid_parameter", "invalid query parameter(s)", details);
}

export function parseQuery<T extends z.ZodType>(schema: T, params: Record<string, string>): z.infer<T> {
  const result = schema.safeParse(params);
  if (!result.success) throw queryError(result.error);
  return result.data;
}

/** Reads a request body as text, refusing (413) once it passes `limitBytes`, without buffering more. */
export async function readBodyLimited(request: Request, limitBytes: number): Promise<string> {
  return new TextDecoder().decode(await readBytesLimited(request, limitBytes));
}

/**
 * The body's bytes, whole: 413 once they pass `limitBytes` (at once when
 * Content-Length announces more), without buffering more; 400 when fewer
 * bytes arrive than Content-Length announced, so that a body cut short on
 * its way (by a proxy, or a client that gave up) is never taken for a whole
 * one and acknowledged.
 */
export async function readBytesLimited(request: Request, limitBytes: number): Promise<Uint8Array> {
  const declared = declaredLength(request.headers.get("content-length"));
  if (declared !== null && declared > limitBytes) throw tooLarge(limitBytes);
  if (!request.body) {
    if (declared !== null && declared > 0) throw incomplete(0, declared);
    return new Uint8Array(0);
  }
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch((error: unknown) => {
      // the client closed the connection mid-body: nobody hears the answer, and it is no server error (nothing to log)
      if (isClientAbort(error)) throw new ApiError(400, "request_aborted", "the request body ended early: the client closed the connection");
      throw error;
    });
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel();
      throw tooLarge(limitBytes);
    }
    parts.push(value);
  }
  if (declared !== null && Number.isFinite(declared) && size !== declared) throw incomplete(size, declared);
  return Buffer.concat(parts);
}

function incomplete(received: number, declared: number): ApiError {
  const message = `the request body ended after ${received} of the ${declared} bytes its Content-Length announced; nothing was stored`;
  return new ApiError(400, "request_incomplete", message, [{ path: "$", message }]);
}

/** Node's error for a request whose connection closed before its body ended. */
function isClientAbort(error: unknown): boolean {
  return error instanceof Error && error.message === "aborted" && (error as NodeJS.ErrnoException).code === "ECONNRESET";
}

/** Reads a small JSON body (415 unless application/json, 400 with paths when the schema refuses it). */
export async function parseJsonRequest<T extends z.ZodType>(request: Request, schema: T, limitBytes = SMALL_BODY_BYTES): Promise<z.infer<T>> {
  if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json")) {
    throw new ApiError(415, "unsupported_media_type", "send application/json");
  }
  const text = await readBodyLimited(request, limitBytes);
  const body = parseJsonText(text);
  const unstorable = unstorableStrings(body);
  if (unstorable.length > 0) throw new ApiError(400, "invalid_input", "text PostgreSQL cannot store", unstorable);
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError(400, "invalid_input", "invalid body", parsed.error.issues.map((i) => ({ path: jsonPath("$", i.path), message: i.message })));
  }
  return parsed.data;
}

/** A JSON body's value: 400 when it nests too deeply (before parsing) or is malformed, with the parser's message at `$`. */
export function parseJsonText(text: string): unknown {
  rejectDeepJson(text);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, "invalid_input", "malformed JSON", [{ path: "$", message: (error as Error).message }]);
  }
}

/** 400 before JSON.parse when the text nests deeper than SPEC.md section 1 allows, with the path where it does (lib/ingest/depth.ts). */
export function rejectDeepJson(text: string, maxDepth = MAX_JSON_DEPTH): void {
  const problem = nestingProblem(text, maxDepth);
  if (problem) throw new ApiError(400, "invalid_input", "JSON nested too deeply", [problem]);
}

export function tooLarge(limitBytes: number): ApiError {
  return new ApiError(413, "payload_too_large", tooLargeMessage(limitBytes, maxBodyBytes()));
}

/** BATON_MAX_BODY_MB in bytes: what the routes that take files and batches read (lib/api/body-limits.ts). */
export function maxBodyBytes(): number {
  return setting("BATON_MAX_BODY_MB") * MIB;
}
