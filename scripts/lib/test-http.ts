/** Helpers for integration tests that call route handlers with real Requests (no server, real database). */
export function jsonRequest(url: string, body: unknown, init: { contentType?: string; raw?: string } = {}): Request {
  return new Request(`http://localhost${url}`, {
    method: "POST",
    headers: { "content-type": init.contentType ?? "application/json" },
    body: init.raw ?? JSON.stringify(body),
  });
}

export function getRequest(url: string): Request {
  return new Request(`http://localhost${url}`);
}

export const params = <T extends Record<string, string>>(p: T) => ({ params: Promise.resolve(p) });

export interface ErrorBody {
  error: { code: string; message: string; details: { path: string; message: string }[] };
}
