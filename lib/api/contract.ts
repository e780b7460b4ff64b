import { z } from "zod";

/**
 * One contract per endpoint, shared by the route handler (which parses its
 * input and, in tests, checks its output against it: lib/server/endpoint.ts)
 * and the browser (which builds the URL and reads the answer with it:
 * lib/api/client.ts). Isomorphic: zod only, no Next, no Prisma.
 *
 * - `path` is the route with `{name}` for each path parameter
 *   (`/api/queues/{id}/next`); `{...name}` for a catch-all.
 * - `params`, `query` and `body` are zod schemas of what arrives: params and
 *   query as strings (lib/api/params.ts has the decimal parsers), the body
 *   as JSON. A route whose body is not JSON (files, OTLP, batches) declares
 *   `rawBody` instead and reads the request itself.
 * - `output` describes the JSON of a 2xx answer as it travels (dates as
 *   strings, absent values as null): no transforms or defaults, so that the
 *   type is the same on both sides. A route that answers with something else
 *   (a file, a stream) says so with `z.unknown()` and `rawOutput`.
 * - `errors` lists the codes of the route's own 4xx/5xx answers beyond the
 *   ones every route may give (COMMON_ERROR_CODES).
 */
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Codes any route may answer with (SPEC.md section 7): access, origin, body and parameter checks, and the generic 500. */
export const COMMON_ERROR_CODES = [
  "invalid_input",
  "invalid_parameter",
  "unauthenticated",
  "forbidden",
  "forbidden_host",
  "cross_site",
  "csrf",
  "rate_limited",
  "unsupported_media_type",
  "payload_too_large",
  "request_aborted",
  "request_incomplete",
  "busy",
  "internal",
] as const;

/** What the browser client reports when no answer in the documented shape arrived (network down, HTML error page). */
export const CLIENT_ERROR_CODES = ["network", "bad_response"] as const;

export type CommonErrorCode = (typeof COMMON_ERROR_CODES)[number] | (typeof CLIENT_ERROR_CODES)[number];

/** Path parameters arrive as strings (a catch-all as an array of them). */
type ParamsSchema = z.ZodType<Record<string, string | string[]>, Record<string, string | string[]>>;

export interface EndpointDefinition {
  method: Method;
  path: `/api/${string}`;
  params?: ParamsSchema;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The JSON body may be left out (no Content-Type): the handler then sees `undefined`. */
  bodyOptional?: boolean;
  /** The request body is not JSON; the handler reads it (the content types it takes, for the docs). */
  rawBody?: string;
  output: z.ZodType;
  /** The 2xx answer is not JSON (a file or a stream; the content type, for the docs). */
  rawOutput?: string;
  errors: readonly string[];
}

export function defineEndpoint<const D extends EndpointDefinition>(definition: D): D {
  for (const name of pathParams(definition.path)) {
    if (!definition.params) throw new Error(`${definition.method} ${definition.path}: the path names {${name}} but the contract has no params`);
  }
  return definition;
}

/** The names of a path's `{name}` and `{...name}` parameters. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{(?:\.\.\.)?([A-Za-z_]\w*)\}/g)].map((m) => m[1]!);
}

/** The JSON of a 2xx answer. */
export type Output<E extends EndpointDefinition> = z.output<E["output"]>;
/** The error codes an endpoint may answer with. */
export type ErrorCode<E extends EndpointDefinition> = CommonErrorCode | E["errors"][number];

type Part<E, K extends "params" | "query" | "body"> = E extends { [P in K]: infer S extends z.ZodType } ? S : undefined;

type Empty = Record<never, never>;

/** What a caller hands over: path parameters, query and body as their schemas take them. */
export type EndpointInput<E extends EndpointDefinition> = (Part<E, "params"> extends z.ZodType ? { params: z.input<Part<E, "params">> } : { params?: undefined }) &
  (Part<E, "query"> extends z.ZodType ? (Empty extends z.input<Part<E, "query">> ? { query?: z.input<Part<E, "query">> } : { query: z.input<Part<E, "query">> }) : { query?: undefined }) &
  (Part<E, "body"> extends z.ZodType ? (E extends { bodyOptional: true } ? { body?: z.input<Part<E, "body">> } : { body: z.input<Part<E, "body">> }) : { body?: undefined });

/** The URL of a call: the path with its parameters filled in (each encoded; a catch-all's segments each), then the query. */
export function endpointUrl(endpoint: EndpointDefinition, input: { params?: Record<string, string | string[]>; query?: unknown } = {}): string {
  const path = endpoint.path.replace(/\{(\.\.\.)?([A-Za-z_]\w*)\}/g, (_, rest: string | undefined, name: string) => {
    const value = input.params?.[name];
    if (value === undefined) throw new Error(`${endpoint.method} ${endpoint.path}: no value for {${name}}`);
    const parts = Array.isArray(value) ? value : [value];
    return rest ? parts.map(encodeURIComponent).join("/") : encodeURIComponent(parts.join("/"));
  });
  const search = queryString(input.query);
  return search ? `${path}?${search}` : path;
}

/** A query object as URL parameters: undefined, null and "" are left out; booleans become 1/0; arrays repeat the name. */
export function queryString(query: unknown): string {
  if (query === undefined || query === null) return "";
  if (query instanceof URLSearchParams) return query.toString();
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one === undefined || one === null || one === "") continue;
      params.append(key, typeof one === "boolean" ? (one ? "1" : "0") : String(one));
    }
  }
  return params.toString();
}

/** The documented error shape (SPEC.md section 7). */
export const errorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.array(z.object({ path: z.string(), message: z.string() })) }),
});

/** Path parameter schema of the many routes with one `{id}`. */
export const idParams = z.object({ id: z.string() });

/** True when A and B are assignable to each other (compile time only). */
export type Equals<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * `sameType<z.output<typeof schema>, T>()` compiles only when an output
 * schema and the type lib/ declares for the same answer agree, so that the
 * two cannot drift apart (a type the domain code builds, e.g.
 * lib/heatmap/types.ts, kept beside the schema that checks it).
 */
export function sameType<A, B>(..._agree: Equals<A, B> extends true ? [] : [never]): void {}
