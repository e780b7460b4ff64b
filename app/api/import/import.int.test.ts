import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { prisma } from "@/lib/server/db/client";
import { params, type ErrorBody } from "@/scripts/lib/test-http";
import { POST } from "./route";

const whoWhen = readFileSync("../shared/data/who_and_when/Hand-Crafted/1.json", "utf8");
const example = readFileSync("../shared/trace-schema/example_trace.json", "utf8");

async function importText(text: string, query: string) {
  const response = await POST(new Request(`http://localhost/api/import?${query}`, { method: "POST", body: text, headers: { "content-type": "application/octet-stream" } }), params({}));
  return { status: response.status, body: (await response.json()) as { format: string; traces: { trace_id: string; events: number }[] } & ErrorBody };
}

beforeEach(async () => {
  await prisma().trace.deleteMany();
});

describe("POST /api/import (the upload page's door for every format)", () => {
  it("refuses the bodies a page on another site can post without a preflight (415), storing nothing", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const response = await POST(new Request("http://localhost/api/import?name=t.json", { method: "POST", body: example, headers: { "content-type": type } }), params({}));
      expect([type, response.status]).toEqual([type, 415]);
    }
    expect(await prisma().trace.count()).toBe(0);
  });

  it("detects a Who&When run and stores it through the adapter", async () => {
    const { status, body } = await importText(whoWhen, "format=auto&name=1.json");
    expect(status).toBe(201);
    expect(body.format).toBe("whowhen");
    expect(body.traces).toHaveLength(1);
    const row = await prisma().trace.findFirstOrThrow();
    expect(row.e1).toBe(0); // every Who&When run failed
    expect((row.metadata as { ground_truth?: unknown }).ground_truth).toBeDefined();
  });

  it("reads Baton JSONL by content, and refuses a file that is not the named format, storing nothing", async () => {
    const two = [JSON.stringify({ ...JSON.parse(example), trace_id: "i1" }), JSON.stringify({ ...JSON.parse(example), trace_id: "i2" })].join("\n");
    const ok = await importText(two, "name=traces.txt");
    expect([ok.status, ok.body.format, ok.body.traces.length]).toEqual([201, "baton", 2]);
    const wrong = await importText(example, "format=taubench&name=x.json");
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toContain("is not a tau-bench trajectory file");
    expect(await prisma().trace.count()).toBe(2);
    expect((await importText("{", "format=baton&name=y.json")).status).toBe(400);
    expect((await importText(example, "format=nonsense")).status).toBe(400);
  });
});
