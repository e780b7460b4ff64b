import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { parseJsonRequest, readBytesLimited, route } from "./http";

/** A JSON request whose body stream fails after its first bytes, as Node's does when the client hangs up. */
function requestFailingWith(error: Error): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"family": "co'));
    },
    pull(controller) {
      controller.error(error);
    },
  });
  return new Request("http://localhost/api/x", { method: "POST", headers: { "content-type": "application/json" }, body, duplex: "half" } as RequestInit);
}

const handler = route(async (request: Request) => Response.json(await parseJsonRequest(request, z.object({ family: z.string() }))));

afterEach(() => vi.restoreAllMocks());

describe("a request body that ends early", () => {
  it("because the client hung up: a 400 request_aborted, nothing logged as an unexpected error", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await handler(requestFailingWith(Object.assign(new Error("aborted"), { code: "ECONNRESET" })), undefined);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("request_aborted");
    expect(logged).not.toHaveBeenCalled();
  });

  it("for any other reason: still the generic 500, logged", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await handler(requestFailingWith(new Error("disk on fire")), undefined);
    expect(response.status).toBe(500);
    expect(logged).toHaveBeenCalledOnce();
  });
});

describe("a request body and its Content-Length", () => {
  const read = route(async (request: Request) => Response.json({ bytes: (await readBytesLimited(request, 1000)).length }));
  const post = (body: string, length: string) => new Request("http://localhost/api/x", { method: "POST", headers: { "content-length": length, "content-type": "application/json" }, body });

  it("fewer bytes than announced (a body cut on its way) is a 400 request_incomplete, never read as whole", async () => {
    const response = await read(post('{"a":1}\n', "700"), undefined);
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("request_incomplete");
    expect(error.message).toBe("the request body ended after 8 of the 700 bytes its Content-Length announced; nothing was stored");
  });

  it("as many bytes as announced is read whole; more announced than the limit is a 413 before reading", async () => {
    expect((await readBytesLimited(post("x".repeat(1000), "1000"), 1000)).length).toBe(1000);
    expect((await read(post("x", "1001"), undefined)).status).toBe(413);
  });

  it("without a Content-Length, one byte over the limit is a 413", async () => {
    const chunked = (n: number) => new Request("http://localhost/api/x", { method: "POST", body: new Blob(["x".repeat(n)]).stream(), duplex: "half" } as RequestInit);
    expect((await readBytesLimited(chunked(1000), 1000)).length).toBe(1000);
    expect((await read(chunked(1001), undefined)).status).toBe(413);
  });
});

describe("route handlers outside the proxy (files and batches) apply its rules themselves", () => {
  it("a cross-site write, a rebound host and a form body are refused by the handler", async () => {
    const handler = route(() => Promise.resolve(Response.json({ reached: true })));
    const post = (headers: Record<string, string>) => handler(new Request("http://127.0.0.1:3000/api/import", { method: "POST", headers: { host: "127.0.0.1:3000", ...headers }, body: "{}" }), undefined);
    expect((await post({ origin: "https://evil.example", "content-type": "application/json" })).status).toBe(403);
    expect((await post({ host: "evil.example", "content-type": "application/json" })).status).toBe(403);
    expect((await post({ "content-type": "text/plain" })).status).toBe(415);
  });
});
