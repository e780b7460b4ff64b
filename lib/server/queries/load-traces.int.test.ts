import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as ingest } from "@/app/api/traces/route";
import { demoTraces } from "@/lib/demo";
import { jsonRequest, params } from "@/scripts/lib/test-http";
import { prisma } from "../db/client";
import { POST as annotate } from "@/app/api/traces/[id]/annotations/route";
import { pageFlags, pageLabels } from "../datasets/page-labels";
import { storedDiagnostics } from "../hacking/store";
import { humanLabels } from "./annotations";
import { loadTraceById, loadTracesById } from "./load-trace";

/** A page of traces loaded at once (dataset snapshots) is trace for trace what loading each gives. */
beforeAll(async () => {
  await prisma().trace.deleteMany();
  await prisma().annotation.deleteMany();
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

describe("pageLabels and pageFlags", () => {
  it("equal humanLabels and storedDiagnostics trace for trace", async () => {
    expect((await annotate(jsonRequest("/api/traces/calls-chain/annotations", { event_id: "r", family: "step_quality", value: 0.5 }), params({ id: "calls-chain" }))).status).toBe(201);
    expect((await annotate(jsonRequest("/api/traces/calls-chain/annotations", { family: "task_success", value: 1 }), params({ id: "calls-chain" }))).status).toBe(201);
    const rows = await prisma().trace.findMany({ select: { id: true, traceId: true } });
    const labels = await pageLabels(rows.map((r) => r.traceId), { kind: "none" });
    const flags = await pageFlags(rows.map((r) => r.id));
    for (const r of rows) {
      expect(labels.get(r.traceId)).toEqual(await humanLabels(r.traceId));
      expect(flags.get(r.id)).toEqual((await storedDiagnostics(r.id)).flags);
    }
    expect(labels.get("calls-chain")!.asOf).not.toBeNull();
    expect([...flags.values()].some((f) => f.length > 0)).toBe(true);
  });
});
