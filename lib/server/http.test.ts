import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { parseJsonRequest, route } from "./http";

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
