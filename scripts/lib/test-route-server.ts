/**
 * A real HTTP server for integration tests whose client is a real library
 * (an OpenTelemetry exporter): node:http on 127.0.0.1 with a random port,
 * each request turned into a WHATWG Request and handed to a route handler
 * by path; the handler's Response is written back as it is.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type RouteHandler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface RouteServer {
  url: string;
  /** every request served: method, path, content type and encoding, status */
  log: { method: string; path: string; contentType: string | null; contentEncoding: string | null; status: number }[];
  close(): Promise<void>;
}

export async function startRouteServer(routes: Record<string, RouteHandler>): Promise<RouteServer> {
  const log: RouteServer["log"] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
      const handler = routes[path];
      const response = handler ? await handler(await toRequest(req), { params: Promise.resolve({}) }) : new Response("not found", { status: 404 });
      log.push({ method: req.method ?? "", path, contentType: req.headers["content-type"] ?? null, contentEncoding: req.headers["content-encoding"] ?? null, status: response.status });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })().catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // exporters keep their connections alive; close() alone would wait for them
        server.closeAllConnections();
      }),
  };
}

async function toRequest(req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const method = req.method ?? "GET";
  return new Request(`http://127.0.0.1${req.url ?? "/"}`, { method, headers, body: method === "GET" || method === "HEAD" || body.length === 0 ? undefined : body });
}
