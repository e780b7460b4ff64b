import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as ingest } from "@/app/api/traces/route";
import { demoTraces } from "@/lib/demo";
import { jsonRequest, params } from "@/scripts/lib/test-http";
import { prisma } from "../db/client";
import { loadTraceById, loadTracesById } from "./load-trace";

/** A page of traces loaded at once (dataset snapshots) is trace for trace what loading each gives. */
beforeAll(async () => {
  await prisma().trace.deleteMany();
  const traces = [...demoTraces(), JSON.parse(readFileSync("lib/export/fixtures/calls-trace.json", "utf8")) as unknown];
  expect((await ingest(jsonRequest("/api/traces", traces), params({}))).status).toBe(201);
});

describe("loadTracesById", () => {
  it("equals loadTraceById (message content only) for every trace, and leaves out ids that are not stored", async () => {
    const ids = (await prisma().trace.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((t) => t.id);
    const many = await loadTracesById([...ids, 999_999]);
    expect([...many.keys()].sort((a, b) => a - b)).toEqual(ids);
    for (const id of ids) expect(many.get(id)).toEqual(await loadTraceById(id));
  });
});
