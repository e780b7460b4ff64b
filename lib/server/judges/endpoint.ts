import "server-only";
import type { ChatMessage } from "@/lib/judges/prompt";

/**
 * One call to an OpenAI-compatible `POST {base_url}/chat/completions`, with
 * a timeout and retries with exponential backoff (and jitter) on 429, 5xx,
 * timeouts and network errors; `Retry-After` is honoured when sent.
 * Returns the reply text and usage, or throws EndpointError after the last try.
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
  attempts: Number(process.env.BATON_JUDGE_ATTEMPTS ?? 4),
  baseDelayMs: Number(process.env.BATON_JUDGE_BACKOFF_MS ?? 1000),
  timeoutMs: Number(process.env.BATON_JUDGE_TIMEOUT_MS ?? 60_000),
};

export async function chat(req: ChatRequest, policy: RetryPolicy = DEFAULT_RETRY): Promise<ChatReply> {
  let last: EndpointError = new EndpointError("no attempt", false);
  for (let attempt = 0; attempt < policy.attempts; attempt++) {
    try {
      return await once(req, policy.timeoutMs);
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
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw new EndpointError(timedOut ? `timed out after ${timeoutMs} ms` : `network error: ${(error as Error).message}`, true);
  }
  if (!response.ok) {
    const text = (await response.text().catch(() => "")).slice(0, 300);
    const retryable = response.status === 429 || response.status >= 500;
    const error = new EndpointError(`HTTP ${response.status}: ${text}`, retryable) as EndpointError & { retryAfterMs?: number };
    const after = Number(response.headers.get("retry-after"));
    if (Number.isFinite(after) && after > 0) error.retryAfterMs = after * 1000;
    throw error;
  }
  const json = (await response.json().catch(() => null)) as {
    choices?: { message?: { content?: unknown } }[];
    usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
  } | null;
  const text = json?.choices?.[0]?.message?.content;
  if (typeof text !== "string") throw new EndpointError("the response has no choices[0].message.content", false);
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? Math.round(v) : null);
  return { text, tokensIn: num(json?.usage?.prompt_tokens), tokensOut: num(json?.usage?.completion_tokens), latencyMs: Math.round(performance.now() - started) };
}
