import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, callBytes, callRaw } from "./client";
import { importFile, traceGraph } from "./contracts/traces";
import { nextQueueItem } from "./contracts/queues";

/** The browser client against a real HTTP server on loopback: what it sends, and each kind of answer it reads. */
let server: Server;
let origin = "";
const seen: { method: string; url: string; type: string | undefined; body: string }[] = [];

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

beforeAll(async () => {
  server = createServer((request, response) => {
    void bodyOf(request).then((body) => {
      seen.push({ method: request.method!, url: request.url!, type: request.headers["content-type"], body });
      const url = new URL(request.url!, "http://x");
      if (url.pathname === "/api/import") {
        response.writeHead(400, { "content-type": "application/json" });
        return response.end(JSON.stringify({ error: { code: "invalid_input", message: "malformed JSON", details: [{ path: "$[0]", message: "line 1, column 2: unexpected token" }] } }));
      }
      if (url.pathname === "/api/queues/7/next") {
        response.writeHead(200, { "content-type": "application/json" });
        return response.end(JSON.stringify({ item: null }));
      }
      if (url.pathname === "/api/traces/a%2Fb/graph") {
        response.writeHead(200, { "content-type": "application/json" });
        return response.end(`{"part":"${url.searchParams.get("part")}","from":${url.searchParams.get("from")}}`);
      }
      response.writeHead(502, { "content-type": "text/html" });
      response.end("<html>bad gateway</html>");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the API client", () => {
  it("call: the URL from the contract, the JSON answer as data", async () => {
    expect(await call(nextQueueItem, { params: { id: "7" } }, { origin })).toEqual({ ok: true, data: { item: null } });
    expect(seen.at(-1)).toMatchObject({ method: "POST", url: "/api/queues/7/next" });
  });

  it("callRaw: the body as it is with its type; an error answer's code, message and paths", async () => {
    const answer = await callRaw(importFile, { query: { format: "auto", name: "runs.jsonl" } }, "{not json", "application/octet-stream", { origin });
    expect(answer).toEqual({ ok: false, status: 400, code: "invalid_input", message: "malformed JSON", issues: [{ path: "$[0]", message: "line 1, column 2: unexpected token" }] });
    expect(seen.at(-1)).toEqual({ method: "POST", url: "/api/import?format=auto&name=runs.jsonl", type: "application/octet-stream", body: "{not json" });
  });

  it("callBytes: the answer's bytes, the path parameter encoded", async () => {
    const answer = await callBytes(traceGraph, { params: { id: "a/b" }, query: { part: "events", from: "500" } }, { origin });
    if (!answer.ok) throw new Error(answer.message);
    expect(new TextDecoder().decode(answer.data)).toBe('{"part":"events","from":500}');
  });

  it("an answer not in the documented shape, and no answer at all, are failures with their own codes", async () => {
    const html = await callBytes(traceGraph, { params: { id: "other" } }, { origin });
    expect(html).toEqual({ ok: false, status: 502, code: "bad_response", message: "request failed (502)", issues: [] });
    const down = await call(nextQueueItem, { params: { id: "7" } }, { origin: "http://127.0.0.1:9" });
    expect(down).toMatchObject({ ok: false, status: 0, code: "network" });
  });
});
