import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A scripted OpenAI-compatible model server on 127.0.0.1 for the gateway's
 * tests and bench: `POST /v1/chat/completions` and `POST /v1/responses`,
 * whole or streamed (SSE). Every request is logged as it came (raw text,
 * parsed body, headers) with what was answered (the reply object, or the
 * stream's events). vLLM's extras when asked: `return_token_ids` (prompt
 * and response token ids) and `logprobs` (one per response token). A
 * response token here is one character: its id is its code point, its
 * logprob -(index + 1) / 100.
 */

export interface ScriptedAnswer {
  text?: string;
  tools?: { id?: string; name: string; args?: unknown }[];
  /** answer with this status and an OpenAI error body instead */
  status?: number;
  /** wait before the headers (a timeout test) */
  delayMs?: number;
  /** characters per stream chunk, and the wait between chunks */
  chunkChars?: number;
  chunkDelayMs?: number;
  /** send this reply object, or these stream events, exactly (a replay of a logged run) */
  replay?: { reply: Record<string, unknown> | null; events: Record<string, unknown>[] };
}

export interface LoggedRequest {
  path: string;
  headers: IncomingMessage["headers"];
  raw: string;
  body: Record<string, unknown>;
  /** the reply object (whole) or every event sent (stream); null for an error status */
  reply: Record<string, unknown> | null;
  events: Record<string, unknown>[];
  /** whether the client (the gateway) went away before the stream ended */
  aborted: boolean;
}

export interface ScriptedOpenAi {
  url: string;
  requests: LoggedRequest[];
  close(): Promise<void>;
}

type Script = (body: Record<string, unknown>, n: number) => ScriptedAnswer;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const charIds = (text: string) => [...text].map((c) => c.codePointAt(0)!);
const promptIds = (raw: string) => charIds(raw.slice(0, 40));

export async function startScriptedOpenAi(script: Script): Promise<ScriptedOpenAi> {
  const requests: LoggedRequest[] = [];
  let ids = 0;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const raw = await readAll(req);
      const body = JSON.parse(raw) as Record<string, unknown>;
      const log: LoggedRequest = { path: req.url ?? "", headers: req.headers, raw, body, reply: null, events: [], aborted: false };
      requests.push(log);
      res.on("close", () => {
        if (!res.writableFinished) log.aborted = true;
      });
      const answer = script(body, requests.length);
      if (answer.delayMs) await sleep(answer.delayMs);
      if (answer.status !== undefined && answer.status >= 400) {
        return send(res, answer.status, { error: { message: `scripted ${answer.status}`, type: "scripted", code: String(answer.status) } }, answer.status === 429 ? { "retry-after": "1" } : {});
      }
      const n = ++ids;
      if (answer.replay) return replay(res, log, req.url?.endsWith("/responses") === true, answer.replay);
      if (req.url?.endsWith("/chat/completions")) await chat(res, log, body, answer, n);
      else if (req.url?.endsWith("/responses")) await responses(res, log, body, answer, n);
      else send(res, 404, { error: { message: `not scripted: ${req.url}` } });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

async function chat(res: ServerResponse, log: LoggedRequest, body: Record<string, unknown>, answer: ScriptedAnswer, n: number) {
  const model = String(body.model);
  const text = answer.text ?? null;
  const toolCalls = (answer.tools ?? []).map((t, i) => ({ id: t.id ?? `call_${n}_${i}`, type: "function", function: { name: t.name, arguments: JSON.stringify(t.args ?? {}) } }));
  const finish = toolCalls.length > 0 ? "tool_calls" : "stop";
  const withIds = body.return_token_ids === true;
  const withLogprobs = body.logprobs === true;
  const usage = { prompt_tokens: 20, completion_tokens: [...(text ?? "")].length || 5, total_tokens: 0 };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  const logprobsOf = (chars: string[], from: number) => ({ content: chars.map((c, i) => ({ token: c, logprob: -(from + i + 1) / 100, bytes: charIds(c), top_logprobs: [] })) });
  if (body.stream !== true) {
    const chars = [...(text ?? "")];
    const reply = {
      id: `chatcmpl-${n}`, object: "chat.completion", created: 1764547200, model,
      ...(withIds && { prompt_token_ids: promptIds(log.raw) }),
      choices: [{
        index: 0, finish_reason: finish,
        message: { role: "assistant", content: text, ...(toolCalls.length > 0 && { tool_calls: toolCalls }) },
        logprobs: withLogprobs ? logprobsOf(chars, 0) : null,
        ...(withIds && { token_ids: charIds(text ?? "") }),
      }],
      usage,
    };
    log.reply = reply;
    return send(res, 200, reply);
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const emit = async (event: Record<string, unknown>) => {
    log.events.push(event);
    res.write(`data: ${JSON.stringify(event)}\n\n`);
    if (answer.chunkDelayMs) await sleep(answer.chunkDelayMs);
  };
  const base = { id: `chatcmpl-${n}`, object: "chat.completion.chunk", created: 1764547200, model };
  await emit({ ...base, ...(withIds && { prompt_token_ids: promptIds(log.raw) }), choices: [{ index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }] });
  const chars = [...(text ?? "")];
  const size = answer.chunkChars ?? 4;
  for (let at = 0; at < chars.length && !res.destroyed; at += size) {
    const piece = chars.slice(at, at + size);
    await emit({ ...base, choices: [{ index: 0, delta: { content: piece.join("") }, logprobs: withLogprobs ? logprobsOf(piece, at) : null, finish_reason: null, ...(withIds && { token_ids: charIds(piece.join("")) }) }] });
  }
  for (const [index, call] of toolCalls.entries()) {
    if (res.destroyed) break;
    await emit({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] }, logprobs: null, finish_reason: null }] });
    await emit({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: call.function.arguments } }] }, logprobs: null, finish_reason: null }] });
  }
  if (res.destroyed) return;
  await emit({ ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: finish }] });
  const options = body.stream_options as { include_usage?: boolean } | undefined;
  if (options?.include_usage) await emit({ ...base, choices: [], usage });
  res.end("data: [DONE]\n\n");
}

async function responses(res: ServerResponse, log: LoggedRequest, body: Record<string, unknown>, answer: ScriptedAnswer, n: number) {
  const output: Record<string, unknown>[] = [];
  if (answer.text !== undefined) output.push({ type: "message", id: `msg_${n}`, status: "completed", role: "assistant", content: [{ type: "output_text", text: answer.text, annotations: [] }] });
  for (const [i, t] of (answer.tools ?? []).entries()) output.push({ type: "function_call", id: `fc_${n}_${i}`, call_id: t.id ?? `call_${n}_${i}`, name: t.name, arguments: JSON.stringify(t.args ?? {}), status: "completed" });
  const response = {
    id: `resp_${n}`, object: "response", created_at: 1764547200, status: "completed", model: String(body.model), output,
    parallel_tool_calls: true, tool_choice: "auto", tools: body.tools ?? [], error: null, incomplete_details: null,
    usage: { input_tokens: 20, output_tokens: 7, total_tokens: 27, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
  };
  if (body.stream !== true) {
    log.reply = response;
    return send(res, 200, response);
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  let seq = 0;
  const emit = async (event: Record<string, unknown>) => {
    const full = { ...event, sequence_number: seq++ };
    log.events.push(full);
    res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(full)}\n\n`);
    if (answer.chunkDelayMs) await sleep(answer.chunkDelayMs);
  };
  await emit({ type: "response.created", response: { ...response, status: "in_progress", output: [], usage: null } });
  for (const [index, item] of output.entries()) {
    if (res.destroyed) return;
    await emit({ type: "response.output_item.added", output_index: index, item: { ...item, status: "in_progress", ...(item.type === "message" && { content: [] }) } });
    if (item.type === "message") {
      const chars = [...(answer.text ?? "")];
      for (let at = 0; at < chars.length && !res.destroyed; at += answer.chunkChars ?? 4) {
        await emit({ type: "response.output_text.delta", item_id: item.id, output_index: index, content_index: 0, delta: chars.slice(at, at + (answer.chunkChars ?? 4)).join("") });
      }
    }
    await emit({ type: "response.output_item.done", output_index: index, item });
  }
  if (res.destroyed) return;
  await emit({ type: "response.completed", response });
  res.end();
}

function replay(res: ServerResponse, log: LoggedRequest, responsesApi: boolean, logged: NonNullable<ScriptedAnswer["replay"]>) {
  if (logged.reply !== null) {
    log.reply = logged.reply;
    return send(res, 200, logged.reply);
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const event of logged.events) {
    log.events.push(event);
    res.write(`${responsesApi ? `event: ${String(event.type)}\n` : ""}data: ${JSON.stringify(event)}\n\n`);
  }
  res.end(responsesApi ? "" : "data: [DONE]\n\n");
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

async function readAll(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of req) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString("utf8");
}
