import "server-only";
import { lookup } from "node:dns/promises";
import { endpointProblem, parseJudgeHosts, type EndpointPolicy } from "@/lib/judges/endpoint-rules";
import type { ChatMessage } from "@/lib/judges/prompt";
import { readConfig, setting } from "../config";

/**
 * One call to an OpenAI-compatible `POST {base_url}/chat/completions`, with
 * a timeout and retries with exponential backoff (and jitter) on 429, 5xx,
 * timeouts and network errors; `Retry-After` is honoured when sent.
 * Returns the reply text and usage, or throws EndpointError after the last try.
 *
 * Bounded: the endpoint must pass lib/judges/endpoint-rules.ts (checked on
 * the addresses its name resolves to, at every call), redirects are not
 * followed (the key would go with them), a reply is read up to
 * BATON_JUDGE_MAX_REPLY_BYTES (default 1 MiB) and at most
 * BATON_JUDGE_MAX_CONCURRENT calls (default 16) are open per process.
 */
export interface ChatRequest {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  messages: ChatMessage[];
  temperature: number;
  maxTokens: number;
  responseFormat: Record<string, unknown> | null;
}

export interface ChatReply {
  text: string;
  tokensIn: number | null;
  tokensOut: number | null;
  latencyMs: number;
}

export class EndpointError extends Error {
  constructor(message: string, readonly retryable: boolean) {
    super(message);
  }
}

export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: setting("BATON_JUDGE_ATTEMPTS"),
  baseDelayMs: setting("BATON_JUDGE_BACKOFF_MS"),
  timeoutMs: setting("BATON_JUDGE_TIMEOUT_MS"),
};

/** The endpoint rules with this process's settings: BATON_JUDGE_HOSTS, BATON_ALLOW_LOOPBACK and the database's address. */
export function judgeEndpointPolicy(env: NodeJS.ProcessEnv = process.env): EndpointPolicy {
  const config = readConfig(env);
  let database: EndpointPolicy["database"] = { host: "127.0.0.1", port: config.BATON_PG_PORT };
  if (config.DATABASE_URL) {
    const url = new URL(config.DATABASE_URL);
    database = { host: url.hostname, port: url.port === "" ? 5432 : Number(url.port) };
  }
  return { allowed: parseJudgeHosts(setting("BATON_JUDGE_HOSTS", env)), database, loopback: config.BATON_ALLOW_LOOPBACK === "1" };
}

/** Why a judge may not call `baseUrl` (the addresses its host resolves to included), or null. */
export async function endpointRefusal(baseUrl: string, policy = judgeEndpointPolicy()): Promise<string | null> {
  const literal = endpointProblem(baseUrl, policy);
  if (literal !== null) return literal;
  const addresses = await lookup(new URL(baseUrl).hostname.replace(/^\[|\]$/g, ""), { all: true }).then((r) => r.map((a) => a.address), () => []);
  return endpointProblem(baseUrl, policy, addresses);
}

const MAX_REPLY_BYTES = setting("BATON_JUDGE_MAX_REPLY_BYTES");
const MAX_CONCURRENT = setting("BATON_JUDGE_MAX_CONCURRENT");

/** At most MAX_CONCURRENT calls open in this process; the others wait their turn. */
let open = 0;
const waiting: (() => void)[] = [];
async function withSlot<T>(work: () => Promise<T>): Promise<T> {
  while (open >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  open++;
  try {
    return await work();
  } finally {
    open--;
    waiting.shift()?.();
  }
}

export async function chat(req: ChatRequest, policy: RetryPolicy = DEFAULT_RETRY): Promise<ChatReply> {
  const refused = await endpointRefusal(req.baseUrl);
  if (refused !== null) throw new EndpointError(`endpoint refused: ${refused}`, false);
  let last: EndpointError = new EndpointError("no attempt", false);
  for (let attempt = 0; attempt < policy.attempts; attempt++) {
    try {
      return await withSlot(() => once(req, policy.timeoutMs));
    } catch (error) {
      last = error instanceof EndpointError ? error : new EndpointError(String(error), true);
      if (!last.retryable || attempt === policy.attempts - 1) break;
      const retryAfter = (last as EndpointError & { retryAfterMs?: number }).retryAfterMs;
      const backoff = retryAfter ?? policy.baseDelayMs * 2 ** attempt * (0.5 + Math.random() / 2);
      await new Promise((r) => setTimeout(r, Math.min(backoff, 30_000)));
    }
  }
  throw last;
}

async function once(req: ChatRequest, timeoutMs: number): Promise<ChatReply> {
  const started = performance.now();
  const body: Record<string, unknown> = { model: req.model, messages: req.messages, temperature: req.temperature, max_tokens: req.maxTokens };
  if (req.responseFormat) body.response_format = { type: "json_schema", json_schema: req.responseFormat };
  let response: Response;
  try {
    response = await fetch(`${req.baseUrl.replace(/\/+$/, "")}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(req.apiKey ? { authorization: `Bearer ${req.apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
      // never follow: a redirect would take the key to wherever it points
      redirect: "manual",
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw new EndpointError(timedOut ? `timed out after ${timeoutMs} ms` : `network error: ${(error as Error).message}`, true);
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    throw new EndpointError(`HTTP ${response.status}: the endpoint redirects (to ${response.headers.get("location") ?? "?"}); Baton follows no redirects, set base_url to where it points`, false);
  }
  if (!response.ok) {
    const text = new TextDecoder().decode((await readAtMost(response, 300, true).catch(() => null)) ?? new Uint8Array()).slice(0, 300);
    const retryable = response.status === 429 || response.status >= 500;
    const error = new EndpointError(`HTTP ${response.status}: ${text}`, retryable) as EndpointError & { retryAfterMs?: number };
    const after = Number(response.headers.get("retry-after"));
    if (Number.isFinite(after) && after > 0) error.retryAfterMs = after * 1000;
    throw error;
  }
  const bytes = await readAtMost(response, MAX_REPLY_BYTES);
  if (bytes === null) throw new EndpointError(`the reply is larger than ${MAX_REPLY_BYTES} bytes (BATON_JUDGE_MAX_REPLY_BYTES)`, false);
  const json = (parseJson(new TextDecoder().decode(bytes))) as {
    choices?: { message?: { content?: unknown } }[];
    usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
  } | null;
  const text = json?.choices?.[0]?.message?.content;
  if (typeof text !== "string") throw new EndpointError("the response has no choices[0].message.content", false);
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? Math.round(v) : null);
  return { text, tokensIn: num(json?.usage?.prompt_tokens), tokensOut: num(json?.usage?.completion_tokens), latencyMs: Math.round(performance.now() - started) };
}

/** The body up to `limit` bytes; null when it is longer (the rest is never read), or the first `limit` bytes when `truncate`. */
async function readAtMost(response: Response, limit: number, truncate = false): Promise<Uint8Array | null> {
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > limit) {
      await reader.cancel();
      if (!truncate) return null;
      parts.push(value.subarray(0, limit - size));
      size = limit;
      break;
    }
    size += value.byteLength;
    parts.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
