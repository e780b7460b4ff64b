import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineEndpoint, endpointUrl, pathParams, queryString, type EndpointDefinition } from "./contract";

const ROOT = join(__dirname, "..", "..");
const API = join(ROOT, "app", "api");
const CONTRACTS = join(__dirname, "contracts");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/**
 * The handlers written without `endpoint(contract, ...)` (lib/server/endpoint.ts),
 * each with why: they speak another protocol than Baton's JSON API. The list
 * only shrinks: a handler that moves must leave it (the test says so).
 */
const OUTSIDE_ENDPOINT = new Map<string, string>([
  ["POST /api/llm/{...path}", "the recording gateway speaks the OpenAI-compatible API: any JSON object in, the upstream's reply (or stream) out, passed through"],
  ["POST /api/otel/v1/traces", "OTLP/HTTP: protobuf or JSON in, and every answer (errors too) in the request's encoding"],
]);
const NOT_YET_MOVED = new Set(OUTSIDE_ENDPOINT.keys());

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? routeFiles(join(dir, e.name)) : e.name === "route.ts" ? [join(dir, e.name)] : []));
}

/** app/api/traces/[id]/graph/route.ts -> /api/traces/{id}/graph; [...path] -> {...path}. */
function apiPath(file: string): string {
  const dir = relative(join(ROOT, "app"), file).replace(/\/route\.ts$/, "");
  return `/${dir.replace(/\[(\.\.\.)?(\w+)\]/g, (_, rest: string | undefined, name: string) => `{${rest ?? ""}${name}}`)}`;
}

/** The methods a route file exports, each with whether it is written with endpoint(). */
function handlers(source: string): { method: string; contract: boolean }[] {
  const found: { method: string; contract: boolean }[] = [];
  for (const m of source.matchAll(/^export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE)\b(.*)$/gm)) {
    found.push({ method: m[1]!, contract: /^\s*=\s*endpoint\(/.test(m[2]!) });
  }
  // `export { handler as GET, handler as POST }`
  for (const m of source.matchAll(/^export \{([^}]*)\}/gm)) {
    for (const name of m[1]!.split(",").map((s) => s.trim().split(/\s+as\s+/).pop()!)) {
      if ((METHODS as readonly string[]).includes(name)) found.push({ method: name, contract: false });
    }
  }
  return found;
}

async function allContracts(): Promise<EndpointDefinition[]> {
  const out: EndpointDefinition[] = [];
  for (const file of readdirSync(CONTRACTS).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
    const mod = (await import(join(CONTRACTS, file))) as Record<string, unknown>;
    for (const value of Object.values(mod)) {
      if (typeof value === "object" && value !== null && "method" in value && "path" in value && "output" in value) out.push(value as EndpointDefinition);
    }
  }
  return out;
}

describe("one contract per endpoint", () => {
  const files = routeFiles(API);

  it("finds the route files", () => {
    expect(files.length).toBe(69);
  });

  it("every exported handler is written with endpoint() and a contract of its method and path, except the listed ones", async () => {
    const contracts = new Set((await allContracts()).map((c) => `${c.method} ${c.path}`));
    const missing: string[] = [];
    const movedButListed: string[] = [];
    const noContract: string[] = [];
    const seen = new Set<string>();
    for (const file of files) {
      const path = apiPath(file);
      for (const h of handlers(readFileSync(file, "utf8"))) {
        const key = `${h.method} ${path}`;
        seen.add(key);
        if (h.contract) {
          if (NOT_YET_MOVED.has(key)) movedButListed.push(key);
          if (!contracts.has(key)) noContract.push(key);
        } else if (!NOT_YET_MOVED.has(key)) missing.push(key);
      }
    }
    expect(missing, "handlers without endpoint(contract, ...)").toEqual([]);
    expect(noContract, "endpoint() handlers whose method and path no contract in lib/api/contracts declares").toEqual([]);
    expect(movedButListed, "moved: take these out of NOT_YET_MOVED").toEqual([]);
    expect([...NOT_YET_MOVED].filter((k) => !seen.has(k)), "listed but no such handler").toEqual([]);
  });

  it("every contract names a route that exists, and declares params for each path parameter", async () => {
    const paths = new Set(files.map(apiPath));
    for (const c of await allContracts()) {
      expect(paths.has(c.path), c.path).toBe(true);
      for (const name of pathParams(c.path)) expect(c.params, `${c.method} ${c.path} {${name}}`).toBeDefined();
    }
  });
});

describe("endpointUrl", () => {
  const e = defineEndpoint({ method: "GET", path: "/api/traces/{id}/files/{...path}", params: z.object({ id: z.string(), path: z.array(z.string()) }), query: z.object({ a: z.string().optional() }), output: z.unknown(), errors: [] });

  it("fills and encodes path parameters (a catch-all segment by segment) and writes the query", () => {
    expect(endpointUrl(e, { params: { id: "a/b c", path: ["x y", "z.json"] }, query: { a: "1&2", skip: undefined, empty: "", on: true, off: false, n: 3, list: ["p", "q"] } })).toBe(
      "/api/traces/a%2Fb%20c/files/x%20y/z.json?a=1%262&on=1&off=0&n=3&list=p&list=q",
    );
  });

  it("refuses a call without a path parameter's value", () => {
    expect(() => endpointUrl(e, { params: { id: "t" } })).toThrow("no value for {path}");
  });

  it("writes no question mark without a query", () => {
    expect(queryString({})).toBe("");
    expect(endpointUrl(defineEndpoint({ method: "GET", path: "/api/status", output: z.unknown(), errors: [] }))).toBe("/api/status");
  });

  it("refuses a contract whose path names a parameter it does not declare", () => {
    expect(() => defineEndpoint({ method: "GET", path: "/api/queues/{id}", output: z.unknown(), errors: [] })).toThrow("the path names {id}");
  });
});
