/**
 * The gateway's route handlers behind node:http on 127.0.0.1 (a random
 * port), for tests whose client is a real framework and for bench:gateway:
 * `/api/llm/...` to the gateway route with its path segments, `/api/llm/flush`
 * and `/api/status`. Replies are streamed to the socket as the handler's
 * body yields them (never read whole), and a client that closes its
 * connection aborts the Request's signal, as Next does.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { POST as llmRoute } from "@/app/api/llm/[...path]/route";
import { POST as flushRoute } from "@/app/api/llm/flush/route";
import { GET as statusRoute } from "@/app/api/status/route";

export interface GatewayServer {
  url: string;
  close(): Promise<void>;
}

export async function startGatewayServer(): Promise<GatewayServer> {
  const server: Server = createServer((req, res) => {
    void (async () => {
      const abort = new AbortController();
      res.on("close", () => {
        if (!res.writableFinished) abort.abort();
      });
      const request = await toRequest(req, abort.signal);
      const path = new URL(request.url).pathname;
      const response =
        path === "/api/llm/flush" ? await flushRoute(request, { params: Promise.resolve({}) })
        : path === "/api/status" ? await statusRoute(request, { params: Promise.resolve({}) })
        : path.startsWith("/api/llm/") ? await llmRoute(request, { params: Promise.resolve({ path: path.slice("/api/llm/".length).split("/") }) })
        : new Response("not found", { status: 404 });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body === null) return void res.end();
      // each chunk written as it comes (no Node stream in between); a closed socket cancels the body
      const reader = response.body.getReader();
      res.on("close", () => {
        if (!res.writableFinished) void reader.cancel().catch(() => undefined);
      });
      try {
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value);
        res.end();
      } catch {
        res.destroy();
      }
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function toRequest(req: IncomingMessage, signal: AbortSignal): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const method = req.method ?? "GET";
  const body = Buffer.concat(chunks);
  return new Request(`http://127.0.0.1${req.url ?? "/"}`, { method, headers, signal, body: method === "GET" || body.length === 0 ? undefined : body });
}
