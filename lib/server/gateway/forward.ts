import "server-only";
import { recordedCall, type CallOutcome, type JsonObject, type ReplyPart, type RequestPart } from "@/lib/gateway/call";
import { chatReplyPart, chatRequestPart, chatUpstreamBody, ChatStreamReply, withoutAdded, type Added } from "@/lib/gateway/chat";
import { responsesReplyPart, responsesRequestPart, ResponsesStreamReply } from "@/lib/gateway/responses";
import { agentOf, AGENT_HEADER, cleanName, parseTraceparent, RUN_HEADER, type GatewayApi } from "@/lib/gateway/request";
import { sseEvent, SseReader } from "@/lib/gateway/sse";
import { ApiError } from "../errors";
import { endpointRefusal } from "../judges/endpoint";
import { countUpstreamError, record } from "./recorder";
import type { LiveUpstream } from "./upstreams";

/**
 * One model call through the gateway (docs/gateway.md): the client's body
 * goes to the upstream as it came (plus token ids and logprobs when the
 * project asks for them), the reply comes back chunk by chunk as the
 * upstream sends it, and the call is recorded once the reply has ended, was
 * cut, or the client left. Upstream error statuses (429, 5xx) are handed
 * to the client as they came and not recorded (counted as
 * `upstream_errors`); no redirect is followed (the key would go with it).
 */

export interface CallContext {
  api: GatewayApi;
  upstream: LiveUpstream;
  runKey: string | null;
  request: Request;
  body: JsonObject;
}

const PATHS: Record<GatewayApi, string> = { chat: "/chat/completions", responses: "/responses" };
/** Upstream headers never handed on: hop by hop, or no longer true of the body fetch decoded. */
const DROPPED = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "set-cookie"]);

/** Address checks resolve the upstream's name; their answer is kept for a few seconds (a call must not wait on DNS each time). */
const REFUSAL_MS = 5000;
const refusals = new Map<string, { at: number; refusal: Promise<string | null> }>();
function refusalOf(baseUrl: string): Promise<string | null> {
  const hit = refusals.get(baseUrl);
  if (hit && Date.now() - hit.at < REFUSAL_MS) return hit.refusal;
  const refusal = endpointRefusal(baseUrl);
  refusals.set(baseUrl, { at: Date.now(), refusal });
  return refusal;
}

export async function forwardCall(ctx: CallContext): Promise<Response> {
  const { api, upstream, body, request } = ctx;
  const refused = await refusalOf(upstream.baseUrl);
  if (refused !== null) throw new ApiError(502, "upstream_refused", `the project's upstream may not be called: ${refused}`);
  const t = Date.now() / 1000;
  const { body: sent, added } = api === "chat" ? chatUpstreamBody(body, { tokenIds: upstream.requestTokenIds, logprobs: upstream.requestLogprobs }) : { body, added: { tokenIds: false, logprobs: false } };
  const rewrite = added.tokenIds || added.logprobs;

  const abort = new AbortController();
  // why the upstream call was stopped, if it was: the first reason wins
  let why: CallOutcome | null = null;
  const stop = (outcome: CallOutcome) => {
    why ??= outcome;
    abort.abort(new DOMException(outcome, "AbortError"));
  };
  const timer = setTimeout(() => stop("upstream_timeout"), upstream.timeoutMs);
  const onClientGone = () => stop("client_disconnected");
  request.signal?.addEventListener("abort", onClientGone, { once: true });
  const done = () => {
    clearTimeout(timer);
    request.signal?.removeEventListener("abort", onClientGone);
  };
  let response: Response;
  // the request leaves first; what is recorded of it is put together while the upstream works
  const pending = fetch(`${upstream.baseUrl.replace(/\/+$/, "")}${PATHS[api]}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: request.headers.get("accept") ?? "application/json",
      ...(upstream.apiKey !== null && { authorization: `Bearer ${upstream.apiKey}` }),
    },
    body: JSON.stringify(sent),
    signal: abort.signal,
    redirect: "manual",
  });
  let requestPart: RequestPart;
  try {
    requestPart = api === "chat" ? chatRequestPart(body) : responsesRequestPart(body);
  } catch (error) {
    // the upstream call in flight is dropped with it
    stop("upstream_error");
    void pending.catch(() => undefined);
    done();
    throw error;
  }
  const agent = agentOf(request.headers.get(AGENT_HEADER), body);
  const runKey = ctx.runKey ?? cleanName(request.headers.get(RUN_HEADER));
  const traceparent = parseTraceparent(request.headers.get("traceparent"));
  const save = (reply: ReplyPart | null, outcome: CallOutcome) =>
    record({ projectId: upstream.projectId, runKey, tokenizer: upstream.tokenizer, traceparent, call: recordedCall(agent, t, Date.now() / 1000, requestPart, reply), outcome });
  try {
    response = await pending;
  } catch (error) {
    done();
    countUpstreamError();
    if (why === "upstream_timeout") {
      throw new ApiError(504, "upstream_timeout", `the upstream did not answer within ${upstream.timeoutMs} ms`);
    }
    throw new ApiError(502, "upstream_unreachable", `the upstream could not be reached (${(error as Error).message})`);
  }
  const headers = new Headers();
  response.headers.forEach((value, key) => {
    if (!DROPPED.has(key)) headers.set(key, value);
  });
  if (runKey !== null) headers.set(RUN_HEADER, runKey);
  if (response.status >= 300 || response.body === null) {
    // an error as the client would have had it from the upstream itself; a redirect is not followed
    done();
    countUpstreamError();
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }

  const streaming = (response.headers.get("content-type") ?? "").includes("text/event-stream");
  if (streaming) {
    // no compression on the way (Next's and proxies' honour no-transform): a compressor holds chunks back
    headers.set("cache-control", "no-cache, no-transform");
    headers.set("x-accel-buffering", "no");
  }
  if (!streaming && rewrite) {
    // the reply is rewritten whole (the fields Baton asked for taken out): it is read first, up to the limit
    const text = await readLimited(response, upstream.maxReplyBytes).finally(done);
    const json = parseObject(text);
    if (json === null) return new Response(text, { status: response.status, headers });
    save(chatReplyPart(json), "complete");
    headers.delete("content-length");
    return new Response(JSON.stringify(withoutAdded(json, added)), { status: response.status, headers });
  }
  return new Response(relay(response.body, { api, streaming, added: rewrite ? added : null, limit: upstream.maxReplyBytes, stop, why: () => why, done, save }), { status: response.status, headers });
}

interface RelayOptions {
  api: GatewayApi;
  streaming: boolean;
  /** what to take out of each event for the client (null: the bytes pass untouched) */
  added: Added | null;
  limit: number;
  stop: (outcome: CallOutcome) => void;
  why: () => CallOutcome | null;
  done: () => void;
  save: (reply: ReplyPart | null, outcome: CallOutcome) => void;
}

/**
 * The upstream's body to the client as it arrives, read on the side: SSE
 * events feed the reply being put together; a whole reply is kept (up to
 * the limit) and read when it ends. Records exactly once: at the end, when
 * the upstream fails or times out mid-reply, or when the client cancels.
 */
function relay(source: ReadableStream<Uint8Array>, o: RelayOptions): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const sse = new SseReader();
  const stream = o.api === "chat" ? new ChatStreamReply() : new ResponsesStreamReply();
  const whole: Uint8Array[] = [];
  const encoder = new TextEncoder();
  let size = 0;
  let saved = false;
  let cancelled = false;
  const finish = (outcome: CallOutcome) => {
    if (saved) return;
    saved = true;
    o.done();
    let reply: ReplyPart | null;
    try {
      reply = o.streaming ? stream.reply() : wholeReply(o.api, whole);
    } catch {
      reply = null;
    }
    o.save(reply, outcome);
  };
  const observe = (events: string[]): string[] => {
    const out: string[] = [];
    for (const data of events) {
      const json = data === "[DONE]" ? null : parseObject(data);
      if (json !== null) (stream as { add(event: JsonObject): void }).add(json);
      if (o.added !== null) out.push(sseEvent(json === null ? data : JSON.stringify(withoutAdded(json, o.added))));
    }
    return out;
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
        if (cancelled) return;
      } catch (error) {
        finish(o.why() ?? "upstream_error");
        if (cancelled) return;
        controller.error(error);
        return;
      }
      if (chunk.done) {
        if (o.streaming) {
          const rest = observe(sse.end());
          if (o.added !== null && rest.length > 0) controller.enqueue(encoder.encode(rest.join("")));
        }
        finish("complete");
        controller.close();
        return;
      }
      size += chunk.value.byteLength;
      if (size > o.limit) {
        o.stop("upstream_error");
        finish("upstream_error");
        controller.error(new Error(`the reply is larger than the upstream's limit of ${o.limit} bytes`));
        return;
      }
      if (!o.streaming) {
        whole.push(chunk.value);
        controller.enqueue(chunk.value);
        return;
      }
      if (o.added === null) {
        // the bytes go on first; reading them for the record comes after
        controller.enqueue(chunk.value);
        observe(sse.push(chunk.value));
        return;
      }
      const rewritten = observe(sse.push(chunk.value));
      if (rewritten.length > 0) controller.enqueue(encoder.encode(rewritten.join("")));
    },
    cancel(reason) {
      cancelled = true;
      // the client left: stop the upstream's generation, keep what was seen
      o.stop("client_disconnected");
      void reader.cancel(reason).catch(() => undefined);
      finish("client_disconnected");
    },
  });
}

function wholeReply(api: GatewayApi, parts: readonly Uint8Array[]): ReplyPart | null {
  const json = parseObject(Buffer.concat(parts).toString("utf8"));
  if (json === null) return null;
  return api === "chat" ? chatReplyPart(json) : responsesReplyPart(json);
}

function parseObject(text: string): JsonObject | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
  } catch {
    return null;
  }
}

async function readLimited(response: Response, limit: number): Promise<string> {
  const reader = response.body!.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new ApiError(502, "upstream_reply_too_large", `the reply is larger than the upstream's limit of ${limit} bytes`);
    }
    parts.push(value);
  }
  return Buffer.concat(parts).toString("utf8");
}
