import { randomBytes } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { encodeTraceRequest } from "../lib/adapters/otlp-protobuf";
import { port } from "./lib/servers";

/**
 * Request bodies through the real server and its proxy (proxy.ts): every
 * body up to BATON_MAX_BODY_MB (100 MB here) arrives whole at its route, one
 * announced over it is refused at once, and a body that arrives shorter
 * than it said is never acknowledged. Bodies are two small runs with spaces
 * between them (JSON's own whitespace), so their size costs the server
 * reading, not storing: a body cut anywhere loses the second run.
 */

const MIB = 1024 * 1024;
/** Next's own default cut for bodies through a proxy: a body whose cut falls exactly here still parses. */
const TEN_MIB = 10 * MIB;

function trace(id: string) {
  return {
    trace_id: id, task_id: "body-limits", system: "e2e", topology: "centralized",
    events: [{ id: "e1", t: 0, type: "aggregate", agent: "orch", role: "orchestrator", tokens: 1, content: "done" }],
    edges: [], rewards: { task_success: 1 }, costs: { tokens: 1, wall_clock_s: 1 },
  };
}

/** JSONL of two runs, the second starting at byte `secondAt` (spaces pad the first line's end). */
function jsonl(first: string, second: string, secondAt: number): Buffer {
  const a = `${JSON.stringify(trace(first))}\n`;
  const b = `${JSON.stringify(trace(second))}\n`;
  const pad = secondAt - a.length - 1;
  return Buffer.concat([Buffer.from(a), Buffer.alloc(pad, 0x20), Buffer.from("\n"), Buffer.from(b)]);
}

async function deleteTraces(request: APIRequestContext, ids: string[]) {
  for (const id of ids) await request.delete(`/api/traces/${encodeURIComponent(id)}`);
}

async function stored(request: APIRequestContext, id: string): Promise<boolean> {
  return (await request.get(`/api/traces/${encodeURIComponent(id)}`)).status() === 200;
}

test.describe.configure({ timeout: 180_000 });

test("bodies of 9, 11, 50 and 99 MB arrive whole at POST /api/traces; of 11 and 99 MB at /api/import and the OTLP receiver", async ({ request }) => {
  for (const mb of [9, 11, 50, 99]) {
    const size = mb * MIB;
    const tag = `${mb}mb-${randomBytes(3).toString("hex")}`;
    const ids = [`bl-traces-a-${tag}`, `bl-traces-b-${tag}`, `bl-import-a-${tag}`, `bl-import-b-${tag}`];
    const everyRoute = mb === 11 || mb === 99;
    try {
      const viaTraces = await request.post("/api/traces", { data: jsonl(ids[0]!, ids[1]!, size - 300), headers: { "content-type": "application/x-ndjson" } });
      expect(viaTraces.status(), `${mb} MB to /api/traces`).toBe(201);
      expect(((await viaTraces.json()) as { traces: unknown[] }).traces).toHaveLength(2);
      for (const id of ids.slice(0, 2)) expect(await stored(request, id), id).toBe(true);
      if (!everyRoute) continue;

      const viaImport = await request.post("/api/import?name=runs.jsonl", { data: jsonl(ids[2]!, ids[3]!, size - 300), headers: { "content-type": "application/octet-stream" } });
      expect(viaImport.status(), `${mb} MB to /api/import`).toBe(201);
      expect(((await viaImport.json()) as { traces: unknown[] }).traces).toHaveLength(2);
      for (const id of ids.slice(2)) expect(await stored(request, id), id).toBe(true);

      const runs = [otlpRun(), otlpRun()];
      const viaOtlp = await request.post("/api/otel/v1/traces", { data: otlpJson(runs, size - 2000), headers: { "content-type": "application/json" } });
      expect(viaOtlp.status(), `${mb} MB to the OTLP receiver`).toBe(200);
      for (const run of runs) expect(await flushed(request, run.traceId), `OTLP trace ${run.traceId}`).toBe("stored");
    } finally {
      await deleteTraces(request, ids);
    }
  }
});

test("a body whose 10 MiB cut would fall on a record boundary is stored whole (JSONL and OTLP protobuf)", async ({ request }) => {
  const ids = [`bl-edge-a-${randomBytes(3).toString("hex")}`, `bl-edge-b-${randomBytes(3).toString("hex")}`];
  try {
    const body = jsonl(ids[0]!, ids[1]!, TEN_MIB);
    expect(body.subarray(0, TEN_MIB).toString().trim().split("\n")).toHaveLength(1); // the cut alone would be one valid run
    const response = await request.post("/api/traces", { data: body, headers: { "content-type": "application/x-ndjson" } });
    expect(response.status()).toBe(201);
    expect(((await response.json()) as { traces: unknown[] }).traces).toHaveLength(2);
    for (const id of ids) expect(await stored(request, id)).toBe(true);
  } finally {
    await deleteTraces(request, ids);
  }

  // protobuf: request A, then an unknown field (skipped by every decoder) up to byte 10 MiB, then request B
  const [a, b] = [otlpRun(), otlpRun()];
  const first = encodeTraceRequest({ resourceSpans: a.resourceSpans });
  const second = encodeTraceRequest({ resourceSpans: b.resourceSpans });
  const proto = Buffer.concat([first, unknownField(TEN_MIB - first.length), second]);
  expect(proto.length).toBe(TEN_MIB + second.length);
  const sent = await request.post("/api/otel/v1/traces", { data: proto, headers: { "content-type": "application/x-protobuf" } });
  expect(sent.status()).toBe(200);
  expect(await flushed(request, a.traceId)).toBe("stored");
  expect(await flushed(request, b.traceId)).toBe("stored");
});

test("a body announced over the limit is refused at once, before the upload; one over it sent without a length gets the same 413", async ({ request }) => {
  // Content-Length says 150 MB and only the headers are sent: the answer comes without waiting for the body
  const answer = await rawRequest(`POST /api/traces HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-ndjson\r\nContent-Length: ${150 * MIB}\r\nConnection: close\r\n\r\n`, "");
  expect(answer).toMatch(/^HTTP\/1\.1 413/);
  expect(answer).toContain("request body is over the limit of 100 MB (BATON_MAX_BODY_MB); load larger files with npm run ingest, which streams them");
  for (const path of ["/api/import?name=x.jsonl", "/api/otel/v1/traces"]) {
    const other = await rawRequest(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${150 * MIB}\r\nConnection: close\r\n\r\n`, "");
    expect(other, path).toMatch(/^HTTP\/1\.1 413/);
  }
  // a small route's own limit (labels: 1 MB)
  const labels = await request.post("/api/traces/x/annotations", { data: Buffer.alloc(5 * MIB, 0x20), headers: { "content-type": "application/json" } });
  expect(labels.status()).toBe(413);
  expect(((await labels.json()) as { error: { message: string } }).error.message).toBe("request body is over this route's limit of 1 MB");

  // chunked, no length: read until one byte past the limit, then 413
  const id = `bl-over-${randomBytes(3).toString("hex")}`;
  const over = await request.post("/api/traces", { data: jsonl(id, `${id}-b`, 100 * MIB + 10), headers: { "content-type": "application/x-ndjson" } });
  expect(over.status()).toBe(413);
  expect(await stored(request, id)).toBe(false);
});

test("a Content-Length larger than the bytes sent is never acknowledged", async ({ request }) => {
  const id = `bl-short-${randomBytes(3).toString("hex")}`;
  const line = `${JSON.stringify(trace(id))}\n`;
  // the client announces 1,000 more bytes than it sends, then stops sending (half-close)
  const answer = await rawRequest(
    `POST /api/traces HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-ndjson\r\nContent-Length: ${Buffer.byteLength(line) + 1000}\r\nConnection: close\r\n\r\n`,
    line,
  );
  expect(answer).not.toMatch(/^HTTP\/1\.1 2/);
  expect(await stored(request, id)).toBe(false);
});

test("the upload page loads an 11 MB JSONL file whole", async ({ page, request }) => {
  const tag = randomBytes(3).toString("hex");
  const ids = [`bl-page-a-${tag}`, `bl-page-b-${tag}`];
  const file = path.join(tmpdir(), `baton-e2e-11mb-${tag}.jsonl`);
  writeFileSync(file, jsonl(ids[0]!, ids[1]!, 11 * MIB));
  try {
    await page.goto("/upload");
    await page.getByTestId("file-input").setInputFiles(file);
    const ok = page.getByTestId("upload-ok");
    await expect(ok).toContainText(ids[0]!, { timeout: 60_000 });
    await expect(ok).toContainText(ids[1]!);
  } finally {
    rmSync(file, { force: true });
    await deleteTraces(request, ids);
  }
});

interface Run {
  traceId: string;
  resourceSpans: { scopeSpans: { spans: { traceId: string }[] }[] }[];
}

/** A framework's real OTLP export (OpenAI Agents, a committed capture) under a fresh trace id. */
function otlpRun(): Run {
  const fixture = JSON.parse(readFileSync("lib/adapters/otlp/fixtures/openai-agents.json", "utf8")) as Omit<Run, "traceId">;
  const traceId = randomBytes(16).toString("hex");
  for (const rs of fixture.resourceSpans) for (const ss of rs.scopeSpans) for (const span of ss.spans) span.traceId = traceId;
  return { traceId, resourceSpans: fixture.resourceSpans };
}

/** OTLP JSON of these runs, padded with spaces between them to `size` bytes. */
function otlpJson(runs: Run[], size: number): Buffer {
  const head = `{"resourceSpans":[${runs[0]!.resourceSpans.map((r) => JSON.stringify(r)).join(",")},`;
  const tail = `${runs[1]!.resourceSpans.map((r) => JSON.stringify(r)).join(",")}]}`;
  return Buffer.concat([Buffer.from(head), Buffer.alloc(size - head.length - tail.length, 0x20), Buffer.from(tail)]);
}

/** A protobuf field no OTLP message defines (number 1000, length-delimited) of exactly `total` bytes. */
function unknownField(total: number): Buffer {
  const tag = varint((1000 << 3) | 2);
  for (let payload = total - tag.length - 1; payload > 0; payload--) {
    const length = varint(payload);
    if (tag.length + length.length + payload === total) return Buffer.concat([tag, length, Buffer.alloc(payload)]);
  }
  throw new Error(`no unknown field of ${total} bytes`);
}

function varint(n: number): Buffer {
  const bytes: number[] = [];
  while (n > 127) {
    bytes.push((n & 127) | 128);
    n = Math.floor(n / 128);
  }
  bytes.push(n);
  return Buffer.from(bytes);
}

async function flushed(request: APIRequestContext, traceId: string): Promise<string | undefined> {
  const response = await request.post("/api/otel/v1/flush", { data: { trace_id: traceId } });
  const body = (await response.json()) as { traces?: { status: string }[] };
  const status = body.traces?.[0]?.status;
  if (status === "stored") await request.delete(`/api/traces/${traceId}`);
  return status;
}

/** Sends raw bytes on one connection, half-closes it, and returns what the server answered (headers and body as text). */
function rawRequest(head: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(Buffer.concat(chunks).toString());
    }, 20_000);
    socket.on("connect", () => {
      socket.write(head);
      if (body) socket.end(body);
    });
    socket.on("data", (c: Buffer) => {
      chunks.push(c);
      const text = Buffer.concat(chunks).toString();
      // one whole answer: the headers and a body of the length they give
      const split = text.indexOf("\r\n\r\n");
      const length = /content-length: (\d+)/i.exec(text)?.[1];
      if (split !== -1 && length !== undefined && Buffer.byteLength(text.slice(split + 4)) >= Number(length)) {
        clearTimeout(timer);
        socket.destroy();
        resolve(text);
      }
    });
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString());
    });
    socket.on("error", reject);
  });
}
