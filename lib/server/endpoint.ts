import "server-only";
import type { z } from "zod";
import type { EndpointDefinition, Output } from "@/lib/api/contract";
import { searchParamsObject } from "@/lib/api/filters";
import { jsonPath } from "@/lib/trace/validate";
import { setting } from "./config";
import { parseJsonRequest, parseQuery, queryError, route } from "./http";

/**
 * The one way a route handler is written: `export const GET = endpoint(contract, { access, handle })`.
 * In order, it parses the path parameters, checks access (`access`, with the
 * existing helpers of lib/server/auth; 401/403/404 come before any body is
 * read), parses the query (400 invalid_parameter) and the JSON body through
 * parseJsonRequest (415, 413, depth, storable text, 400 invalid_input with
 * paths), then calls `handle`. Errors take the documented shape through
 * route() (lib/server/http.ts). `handle` returns the answer's data (200),
 * `reply(data, {status, headers})`, or a Response of its own (files,
 * streams, a prebuilt JSON text). Under test (NODE_ENV=test or
 * BATON_CHECK_OUTPUT=1) every 2xx JSON answer is checked against the
 * contract's output schema, and a mismatch is a 500.
 */
type Params<E extends EndpointDefinition> = E["params"] extends z.ZodType ? z.output<E["params"]> : Record<string, never>;
type Query<E extends EndpointDefinition> = E["query"] extends z.ZodType ? z.output<E["query"]> : undefined;
type Body<E extends EndpointDefinition> = E["body"] extends z.ZodType ? z.output<E["body"]> : undefined;

const REPLY = Symbol("reply");

export interface Reply<T> {
  readonly [REPLY]: true;
  readonly data: T;
  readonly status: number;
  readonly headers?: HeadersInit;
}

/** An answer with another status than 200, or with headers. */
export function reply<T>(data: T, init: { status?: number; headers?: HeadersInit } = {}): Reply<T> {
  return { [REPLY]: true, data, status: init.status ?? 200, headers: init.headers };
}

export interface EndpointContext<E extends EndpointDefinition, A> {
  request: Request;
  params: Params<E>;
  query: Query<E>;
  body: Body<E>;
  /** what `access` returned */
  access: A;
}

export interface EndpointHandler<E extends EndpointDefinition, A> {
  /** Checks the caller may do this (throws the 401/403/404 of lib/server/auth); its value reaches `handle` as `access`. */
  access?: (request: Request, params: Params<E>, query: Query<E>) => Promise<A>;
  /** The query is read before access, which it decides (the project a read names): `access` gets it. */
  queryFirst?: true;
  /** Largest JSON body in bytes (parseJsonRequest's default, SMALL_BODY_BYTES, when absent). */
  bodyLimit?: () => number;
  /**
   * The handler reads the JSON body itself, through parseJsonRequest, because
   * who may send it depends on what it says (a snapshot's filter project:
   * lib/server/datasets/scope.ts); `body` is then undefined.
   */
  ownBody?: true;
  handle: (context: EndpointContext<E, A>) => Promise<Output<E> | Reply<Output<E>> | Response>;
}

/** The handler as Next calls it: with the path parameters as they arrived (a route without any may be called without them). */
type RouteHandler<E extends EndpointDefinition> = E["params"] extends z.ZodType
  ? (request: Request, context: { params: Promise<z.input<E["params"]>> }) => Promise<Response>
  : (request: Request, context?: { params: Promise<object> }) => Promise<Response>;

export function endpoint<E extends EndpointDefinition, A = undefined>(contract: E, handler: EndpointHandler<E, A>): RouteHandler<E> {
  const run = route(async (request: Request, context: { params: Promise<unknown> } | undefined) => {
    const params = (contract.params ? parseParams(contract.params, await context?.params) : {}) as Params<E>;
    const readQuery = () => (contract.query ? parseQuery(contract.query, searchParamsObject(new URL(request.url).searchParams)) : undefined) as Query<E>;
    const early = handler.queryFirst ? readQuery() : undefined;
    const access = (handler.access ? await handler.access(request, params, early as Query<E>) : undefined) as A;
    const query = handler.queryFirst ? (early as Query<E>) : readQuery();
    const sent = !handler.ownBody && (!contract.bodyOptional || request.headers.get("content-type") !== null);
    const body = (contract.body && sent ? await parseJsonRequest(request, contract.body, handler.bodyLimit?.()) : undefined) as Body<E>;
    const result = await handler.handle({ request, params, query, body, access });
    const response = result instanceof Response ? result : isReply(result) ? Response.json(result.data, { status: result.status, headers: result.headers }) : Response.json(result);
    if (checksOutput()) await checkOutput(contract, response);
    return response;
  });
  return run;
}

function parseParams(schema: z.ZodType, raw: unknown): unknown {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw queryError(parsed.error);
  return parsed.data;
}

function isReply(value: unknown): value is Reply<unknown> {
  return typeof value === "object" && value !== null && REPLY in value;
}

function checksOutput(): boolean {
  return process.env.NODE_ENV === "test" || setting("BATON_CHECK_OUTPUT") === "1";
}

/** A 2xx JSON answer that its contract's output schema refuses is a server bug: a 500 (logged by route()) under test. */
async function checkOutput(contract: EndpointDefinition, response: Response): Promise<void> {
  if (response.status < 200 || response.status >= 300 || contract.rawOutput) return;
  if (!(response.headers.get("content-type") ?? "").includes("application/json")) return;
  const data: unknown = await response.clone().json();
  const parsed = contract.output.safeParse(data);
  if (parsed.success) return;
  const problems = parsed.error.issues.map((i) => `${jsonPath("$", i.path)}: ${i.message}`).join("; ");
  throw new Error(`${contract.method} ${contract.path}: the answer does not match its contract (${problems})`);
}
