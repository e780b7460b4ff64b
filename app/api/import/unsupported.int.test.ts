import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { prisma } from "@/lib/server/db/client";
import { params, type ErrorBody } from "@/scripts/lib/test-http";
import { POST } from "./route";

const SUPPORTED = "(supported: JSON or JSONL traces in Baton's schema, Who&When, MultiAgentBench, tau-bench, ChatDev logs, AgentOps or OpenTelemetry (OTLP/JSON))";

async function importBytes(body: BodyInit, name: string, headers: Record<string, string> = {}) {
  const response = await POST(new Request(`http://localhost/api/import?name=${encodeURIComponent(name)}`, { method: "POST", body, headers: { "content-type": "application/octet-stream", ...headers }, duplex: "half" } as RequestInit), params({}));
  return { status: response.status, text: await response.text() };
}

beforeEach(async () => {
  await prisma().trace.deleteMany();
});
afterEach(() => {
  delete process.env.BATON_MAX_BODY_MB;
});

describe("POST /api/import: files that cannot hold traces are named for what they are", () => {
  it("an empty file: 400 'empty file', not 'malformed JSON'", async () => {
    for (const [body, message] of [["", "empty file: it holds no traces"], ["\n  \n", "empty file: it holds only whitespace, no traces"]] as const) {
      const { status, text } = await importBytes(body, "empty.json");
      expect(status).toBe(400);
      expect((JSON.parse(text) as ErrorBody).error).toEqual({ code: "unsupported_file", message, details: [{ path: "$", message }] });
    }
  });

  it("a CSV: 400 naming CSV and listing the supported formats", async () => {
    const csv = readFileSync("lib/ingest/fixtures/runs.csv");
    for (const name of ["runs.csv", "runs.json"]) {
      const { status, text } = await importBytes(csv, name);
      expect([name, status]).toEqual([name, 400]);
      expect((JSON.parse(text) as ErrorBody).error.message).toBe(`CSV is not a supported format ${SUPPORTED}`);
    }
  });

  it("a binary file: 400 without a byte of it in the answer", async () => {
    const icon = readFileSync("app/favicon.ico");
    const { status, text } = await importBytes(icon, "favicon.json");
    expect(status).toBe(400);
    expect((JSON.parse(text) as ErrorBody).error.message).toBe(`binary file (not text): not a supported format ${SUPPORTED}`);
    expect(text).toMatch(/^[\x20-\x7e]*$/);
    expect(await prisma().trace.count()).toBe(0);
  });

  it("a body over the limit: 413 pointing to npm run ingest, refused from its declared length before its bytes are read", async () => {
    process.env.BATON_MAX_BODY_MB = "1";
    let pulled = 0;
    // a body that would go on for 64 MB; the answer comes after at most the first chunk
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 64) controller.close();
        else controller.enqueue(new Uint8Array(1 << 20).fill(0x20));
      },
    });
    const { status, text } = await importBytes(body, "big.json", { "content-length": String(64 << 20) });
    expect(status).toBe(413);
    expect((JSON.parse(text) as ErrorBody).error.message).toBe("request body is over the limit of 1 MB (BATON_MAX_BODY_MB); load larger files with npm run ingest, which streams them");
    expect(pulled).toBeLessThanOrEqual(1);
  });
});
