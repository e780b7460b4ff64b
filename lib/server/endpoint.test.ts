import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineEndpoint } from "@/lib/api/contract";
import { endpoint, reply } from "./endpoint";
import { ApiError } from "./errors";

const contract = defineEndpoint({
  method: "POST",
  path: "/api/things/{id}",
  params: z.object({ id: z.string().regex(/^\d+$/, "must be a number") }),
  query: z.object({ n: z.string().optional() }),
  body: z.strictObject({ name: z.string() }),
  output: z.object({ id: z.string(), name: z.string(), n: z.string().nullable() }),
  errors: [],
});

/** (under /api/auth/, whose writes carry no database position: no database here) */
const post = (body: string, { id = "7", query = "", type = "application/json" } = {}) =>
  handler(new Request(`http://localhost/api/auth/things/${id}${query}`, { method: "POST", headers: { "content-type": type }, body }), { params: Promise.resolve({ id }) });

const seen: string[] = [];
const handler = endpoint(contract, {
  access: (request, params) => {
    seen.push(`access ${params.id}`);
    if (request.headers.get("x-deny")) return Promise.reject(new ApiError(403, "forbidden", "no"));
    return Promise.resolve({ who: "ann" });
  },
  handle: ({ params, query, body, access }) => {
    seen.push(`handle ${access.who}`);
    return Promise.resolve(reply({ id: params.id, name: body.name, n: query.n ?? null }, { status: 201, headers: { "x-made": "1" } }));
  },
});

afterEach(() => {
  seen.length = 0;
  vi.restoreAllMocks();
});

describe("endpoint()", () => {
  it("parses params, checks access, parses query and body, and answers with the handler's status and headers", async () => {
    const response = await post('{"name":"a"}', { query: "?n=3" });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-made")).toBe("1");
    expect(await response.json()).toEqual({ id: "7", name: "a", n: "3" });
    expect(seen).toEqual(["access 7", "handle ann"]);
  });

  it("answers a refused body in the documented shape with the JSON path of each problem", async () => {
    const response = await post('{"name":1,"extra":true}');
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; details: { path: string }[] } };
    expect(body.error.code).toBe("invalid_input");
    expect(body.error.details.map((d) => d.path).sort()).toEqual(["$", "$.name"]);
  });

  it("takes the body through parseJsonRequest: 415 without JSON, 400 on too deep a body", async () => {
    expect((await post('{"name":"a"}', { type: "text/plain" })).status).toBe(415);
    const deep = `{"name":${"[".repeat(200)}${"]".repeat(200)}}`;
    const response = await post(deep);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe("JSON nested too deeply");
  });

  it("checks access before reading the body (403 for a bad body from a caller who may not)", async () => {
    const response = await handler(new Request("http://localhost/api/auth/things/7", { method: "POST", headers: { "content-type": "application/json", "x-deny": "1" }, body: "{" }), { params: Promise.resolve({ id: "7" }) });
    expect(response.status).toBe(403);
    expect(seen).toEqual(["access 7"]);
  });

  it("answers 400 invalid_parameter on a refused path parameter, before access", async () => {
    const response = await post('{"name":"a"}', { id: "x" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: "invalid_parameter", message: "invalid query parameter(s)", details: [{ path: "id", message: "must be a number" }] } });
    expect(seen).toEqual([]);
  });

  it("under test, an answer its output schema refuses is a 500 (logged), not a silent drift", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const wrong = endpoint(defineEndpoint({ method: "POST", path: "/api/status", output: z.object({ ok: z.boolean() }), errors: [] }), { handle: () => Promise.resolve({ ok: "yes" } as unknown as { ok: boolean }) });
    const response = await wrong(new Request("http://localhost/api/auth/status", { method: "POST" }), { params: Promise.resolve({}) });
    expect(response.status).toBe(500);
    expect(String(vi.mocked(console.error).mock.calls[0]?.[1])).toContain("POST /api/status: the answer does not match its contract ($.ok:");
  });

  it("leaves an optional body out when no Content-Type came", async () => {
    const optional = defineEndpoint({ method: "POST", path: "/api/status", body: z.strictObject({ reason: z.string().optional() }), bodyOptional: true, output: z.object({ reason: z.string().nullable() }), errors: [] });
    const h = endpoint(optional, { handle: ({ body }) => Promise.resolve({ reason: body?.reason ?? null }) });
    expect(await (await h(new Request("http://localhost/api/auth/status", { method: "POST" }), { params: Promise.resolve({}) })).json()).toEqual({ reason: null });
    const sent = new Request("http://localhost/api/auth/status", { method: "POST", headers: { "content-type": "application/json" }, body: '{"reason":"r"}' });
    expect(await (await h(sent, { params: Promise.resolve({}) })).json()).toEqual({ reason: "r" });
  });
});
