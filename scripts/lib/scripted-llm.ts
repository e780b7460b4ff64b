import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A scripted OpenAI-compatible chat-completions server on 127.0.0.1 for
 * tests and the judge benchmark (never the internet). The model name picks
 * the behaviour:
 * - `good`: `{"value": 1, "reason": ...}` for binary (the schema has enum [0,1]) else `{"value": 0.5, ...}`;
 *   `good:<v>`: that value
 * - `garbage`: prose, not JSON
 * - `range`: value 3 (out of range)
 * - `slow`: answers after `slowMs` (longer than the client's timeout)
 * - `delay`: answers as `good` after 100 ms (to see how many requests overlap)
 * - `limit`: 429 for the first `limitFirst` requests, then as `good`
 * - `flaky`: 500 every other request, then as `good`
 * - `blame:<k>`: attribution all at once, `{"step": k, ...}`; asked "on track after step j?" (binary search), `{"on_track": j < k}`;
 *   asked "is step j the decisive error?" (step by step), `{"decisive": j === k}`; `blame:<word>` (not a number): k is the
 *   first step of the timeline shown whose text holds <word> (case-insensitive; step 0 when none does)
 * Every request is recorded (headers and body) and the peak of requests in flight is kept.
 */
export interface ScriptedLlm {
  url: string;
  requests: { authorization: string | undefined; body: { model: string; messages: { role: string; content: string }[]; response_format?: unknown } }[];
  peakInFlight: number;
  close(): Promise<void>;
}

export async function startScriptedLlm(options: { delayMs?: number; slowMs?: number; limitFirst?: number } = {}): Promise<ScriptedLlm> {
  let inFlight = 0;
  let limited = 0;
  let flaky = 0;
  const state: Omit<ScriptedLlm, "close" | "url"> = { requests: [], peakInFlight: 0 };
  const server: Server = createServer((req, res) => {
    void (async () => {
      inFlight++;
      state.peakInFlight = Math.max(state.peakInFlight, inFlight);
      try {
        const body = JSON.parse(await readAll(req)) as ScriptedLlm["requests"][number]["body"];
        state.requests.push({ authorization: req.headers.authorization, body });
        const [model, arg] = body.model.split(":");
        if (options.delayMs) await sleep(options.delayMs);
        if (model === "slow") await sleep(options.slowMs ?? 2000);
        if (model === "delay") await sleep(100);
        if (model === "limit" && limited++ < (options.limitFirst ?? 2)) return send(res, 429, { error: { message: "rate limited" } }, { "retry-after": "0.05" });
        if (model === "flaky" && flaky++ % 2 === 0) return send(res, 503, { error: { message: "unavailable" } });
        const binary = JSON.stringify(body.response_format ?? "").includes('"enum":[0,1]') || body.messages[0]!.content.includes("Answer 0 (failure");
        const asked = /after step (\d+)\?\s*$/.exec(body.messages[1]?.content ?? "");
        const step = /Is step (\d+) the decisive error\?\s*$/.exec(body.messages[1]?.content ?? "");
        const k = model === "blame" ? (/^\d+$/.test(arg ?? "") ? Number(arg) : firstStepWith(body.messages[1]?.content ?? "", arg ?? "")) : 0;
        const content =
          model === "blame" ? JSON.stringify(step ? { decisive: Number(step[1]) === k, reason: "scripted" } : asked ? { on_track: Number(asked[1]) < k, reason: "scripted" } : { step: k, reason: "scripted blame" })
          : model === "garbage" ? "Looks fine to me, I'd say pretty good overall."
          : model === "range" ? JSON.stringify({ value: 3, reason: "very good" })
          : JSON.stringify({ value: arg !== undefined ? Number(arg) : binary ? 1 : 0.5, reason: "scripted answer" });
        send(res, 200, { choices: [{ message: { role: "assistant", content } }], usage: { prompt_tokens: Math.ceil(JSON.stringify(body.messages).length / 4), completion_tokens: 12 } });
      } catch {
        send(res, 400, { error: { message: "bad request" } });
      } finally {
        inFlight--;
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** The first `[step k]` section of a judge's timeline whose text holds `word` (case-insensitive); 0 when none does. */
function firstStepWith(timeline: string, word: string): number {
  const parts = timeline.split(/\[step (\d+)\]/);
  for (let i = 1; i + 1 < parts.length; i += 2) if (parts[i + 1]!.toLowerCase().includes(word.toLowerCase())) return Number(parts[i]);
  return 0;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function readAll(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of req) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString("utf8");
}
