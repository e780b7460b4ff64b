// Loopback servers shared by every framework's capture script (no dependencies):
// - an OTLP/HTTP JSON capture server: the framework's real exporter posts
//   /v1/traces to it; every request body is kept as it came;
// - a scripted OpenAI-compatible chat-completions server: the framework's own
//   OpenAI client calls it, and `reply(body)` decides each answer, so a run
//   is the same every time without a real model.
import { createServer } from "node:http";

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function listen(server) {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server.address().port)));
}

/** Captures OTLP/HTTP JSON exports; `requests` holds each parsed body. */
export async function startCapture() {
  const requests = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    if (req.method === "POST" && req.url.endsWith("/v1/traces")) {
      if (!(req.headers["content-type"] ?? "").includes("json")) {
        res.writeHead(415).end("json only");
        return;
      }
      requests.push(JSON.parse(body));
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
      return;
    }
    res.writeHead(404).end();
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}/v1/traces`, requests, close: () => new Promise((r) => server.close(r)) };
}

let ids = 0;

/** A chat.completion for the scripted answer: `{ text }` or `{ tools: [{ name, args }] }`. */
function completion(model, answer) {
  const toolCalls = (answer.tools ?? []).map((t) => ({ id: t.id ?? `call_${++ids}`, type: "function", function: { name: t.name, arguments: JSON.stringify(t.args ?? {}) } }));
  return {
    id: `chatcmpl-${++ids}`,
    object: "chat.completion",
    created: 1764547200,
    model,
    choices: [{ index: 0, finish_reason: toolCalls.length > 0 ? "tool_calls" : "stop", message: { role: "assistant", content: answer.text ?? null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) } }],
    usage: { prompt_tokens: 20 + (answer.promptTokens ?? 0), completion_tokens: 10, total_tokens: 30 + (answer.promptTokens ?? 0) },
  };
}

/** The scripted model: `reply(body)` returns `{ text }` or `{ tools }` for each chat-completions request. */
export async function startMockOpenAI(reply) {
  const calls = [];
  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    if (req.method === "POST" && req.url.endsWith("/chat/completions")) {
      const body = JSON.parse(raw);
      calls.push(body);
      const answer = reply(body, calls.length);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(completion(body.model, answer)));
      return;
    }
    res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `not scripted: ${req.method} ${req.url}` } }));
  });
  const port = await listen(server);
  return { baseURL: `http://127.0.0.1:${port}/v1`, calls, close: () => new Promise((r) => server.close(r)) };
}

/** The text of a chat message (string or parts). */
export function textOf(message) {
  if (typeof message?.content === "string") return message.content;
  if (Array.isArray(message?.content)) return message.content.map((p) => p.text ?? "").join("");
  return "";
}

/** The system prompt of a chat-completions request. */
export function systemOf(body) {
  return body.messages.filter((m) => m.role === "system" || m.role === "developer").map(textOf).join("\n");
}

/** The last message of a request. */
export function lastOf(body) {
  return body.messages[body.messages.length - 1];
}

/**
 * Writes the captured OTLP requests as one fixture: `{ resourceSpans }`
 * merged from every request, with a header saying how it was made.
 */
async function writeFixture(path, requests, about) {
  const { writeFile, mkdir } = await import("node:fs/promises");
  const { dirname } = await import("node:path");
  const resourceSpans = requests.flatMap((r) => r.resourceSpans ?? []);
  const spans = resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
  if (spans.length === 0) throw new Error(`${path}: nothing was exported`);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify({ _about: about, resourceSpans }, null, 1) + "\n");
  console.log(`${path}: ${spans.length} spans in ${requests.length} export request(s)`);
}

/**
 * Ends a capture: writes the fixture (unless `out` is "-") and posts every
 * captured export request, as the exporter sent it, to `target` (a running
 * Baton's /api/otel/v1/traces), so the live harness feeds the server real
 * payloads. Prints the trace ids for the harness.
 */
export async function finish(capture, out, target, about) {
  if (out !== "-") await writeFixture(out, capture.requests, about);
  const traceIds = new Set(capture.requests.flatMap((r) => r.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans.map((s) => s.traceId)))));
  if (target) {
    for (const body of capture.requests) {
      const res = await fetch(target, { method: "POST", headers: { "content-type": "application/json", ...(process.env.BATON_INGEST_TOKEN ? { authorization: `Bearer ${process.env.BATON_INGEST_TOKEN}` } : {}) }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${target}: HTTP ${res.status} ${await res.text()}`);
    }
  }
  console.log(`trace ids: ${[...traceIds].join(" ")}`);
  await capture.close();
}
