import { endpointUrl, errorBody, type EndpointDefinition, type EndpointInput, type ErrorCode, type Method, type Output } from "./contract";
import type { z } from "zod";
import { csrfHeaders } from "./csrf";

/**
 * The browser's one way to call Baton's JSON API: `call(contract, {params,
 * query, body})` builds the URL from the endpoint's contract, sends the
 * CSRF header that cookie-authenticated writes need, and never throws.
 * Every answer is one ApiResult: the data of a 2xx answer, or the error's
 * status, code, message and the problems with their JSON paths (the
 * documented error shape, SPEC.md section 7).
 */
export interface ApiIssue {
  path: string;
  message: string;
}

export interface ApiFailure<C extends string = string> {
  ok: false;
  /** 0 when no answer arrived */
  status: number;
  code: C;
  message: string;
  issues: ApiIssue[];
}

export type ApiResult<T, C extends string = string> = { ok: true; data: T } | ApiFailure<C>;

type Args<E extends EndpointDefinition> = Record<never, never> extends EndpointInput<E> ? [input?: EndpointInput<E>, init?: CallInit] : [input: EndpointInput<E>, init?: CallInit];

export interface CallInit {
  signal?: AbortSignal;
  /** makes the URL absolute, for callers outside a page (a worker whose location is a blob: URL, a script) */
  origin?: string;
}

export async function call<E extends EndpointDefinition>(endpoint: E, ...[input, init]: Args<E>): Promise<ApiResult<Output<E>, ErrorCode<E>>> {
  const i = (input ?? {}) as { params?: Record<string, string | string[]>; query?: unknown; body?: unknown };
  return requestJson(endpoint.method, `${init?.origin ?? ""}${endpointUrl(endpoint, i)}`, i.body, init);
}

type UrlInput<E extends EndpointDefinition> = Omit<EndpointInput<E>, "body">;

/**
 * `call` for an endpoint whose request body is not JSON (its contract says
 * `rawBody`: a file, a batch): the body is sent as it is, with its content
 * type; the answer is read as `call` reads it.
 */
export async function callRaw<E extends EndpointDefinition & { rawBody: string }>(endpoint: E, input: UrlInput<E>, body: BodyInit, contentType: string, init: CallInit = {}): Promise<ApiResult<Output<E>, ErrorCode<E>>> {
  const url = `${init.origin ?? ""}${endpointUrl(endpoint, input as { params?: Record<string, string | string[]>; query?: unknown })}`;
  return send(url, { method: endpoint.method, headers: { "content-type": contentType, ...csrfHeaders() }, body, credentials: "same-origin", signal: init.signal }, readAnswer<Output<E>>, init);
}

/**
 * The bytes of a 2xx answer, for a caller that decodes them elsewhere (the
 * graph view downloads event pages before its worker exists and hands the
 * bytes over); an error answer is read as `call` reads it.
 */
export async function callBytes<E extends EndpointDefinition>(endpoint: E, input: UrlInput<E>, init: CallInit = {}): Promise<ApiResult<ArrayBuffer, ErrorCode<E>>> {
  const url = `${init.origin ?? ""}${endpointUrl(endpoint, input as { params?: Record<string, string | string[]>; query?: unknown })}`;
  const read = async (response: Response): Promise<ApiResult<ArrayBuffer>> => (response.ok ? { ok: true, data: await response.arrayBuffer() } : readAnswer<ArrayBuffer>(response));
  return send(url, { method: endpoint.method, credentials: "same-origin", signal: init.signal }, read, init);
}

async function send<T>(url: string, request: RequestInit, read: (response: Response) => Promise<ApiResult<T>>, init: CallInit): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, request);
  } catch (error) {
    if (init.signal?.aborted) throw error;
    return { ok: false, status: 0, code: "network", message: `request failed: ${(error as Error).message}`, issues: [] };
  }
  return read(response);
}

/** The raw request under `call`, for a URL made elsewhere (a link handed over by the server). */
export async function requestJson<T>(method: Method, url: string, body?: unknown, init: CallInit = {}): Promise<ApiResult<T>> {
  const request: RequestInit = {
    method,
    headers: { ...(body !== undefined && { "content-type": "application/json" }), ...(method !== "GET" && csrfHeaders()) },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
    signal: init.signal,
  };
  return send(url, request, readAnswer<T>, init);
}

/** A Response read as an ApiResult. */
export async function readAnswer<T>(response: Response): Promise<ApiResult<T>> {
  const data: unknown = await response.json().catch(() => undefined);
  if (response.ok) {
    if (response.status === 204) return { ok: true, data: null as T };
    if (data === undefined) return { ok: false, status: response.status, code: "bad_response", message: `the answer (${response.status}) is not JSON`, issues: [] };
    return { ok: true, data: data as T };
  }
  const error = errorBody.safeParse(data);
  if (!error.success) return { ok: false, status: response.status, code: "bad_response", message: `request failed (${response.status})`, issues: [] };
  const { code, message, details } = error.data.error;
  return { ok: false, status: response.status, code, message, issues: details };
}

/** One line for a failed call: the message and, when there are any, the problems with their paths. */
export function describeFailure(failure: ApiFailure): string {
  const issues = failure.issues.map((d) => `${d.path}: ${d.message}`).join("; ");
  return issues ? `${failure.message} (${issues})` : failure.message;
}

/**
 * A body made of a form's fields as they are (numbers from text boxes,
 * lists from checkboxes): the server checks it against the contract and
 * answers 400 with the path of each problem, so the browser does not
 * repeat the check. The one place where a body's type is taken on trust.
 */
export function formBody<E extends EndpointDefinition>(_endpoint: E, body: Record<string, unknown>): E extends { body: infer S extends z.ZodType } ? z.input<S> : never {
  return body as E extends { body: infer S extends z.ZodType } ? z.input<S> : never;
}
