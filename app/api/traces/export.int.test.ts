import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { localUser } from "@/lib/server/auth/access";
import { prisma } from "@/lib/server/db/client";
import { saveAnnotation } from "@/lib/server/queries/annotations";
import { adjudicate } from "@/lib/server/queues/adjudicate";
import { getRequest, jsonRequest, params, type ErrorBody } from "@/scripts/lib/test-http";
import { GET as exportDataset } from "../export/route";
import { GET as credit } from "./[id]/credit/route";
import { GET as exportTrace } from "./[id]/export/route";
import { GET as metrics } from "./[id]/metrics/route";
import { POST as ingest } from "./route";

/** SPEC.md section 6 on real PostgreSQL: rows with tokens and content, the extended round trip, validation before streaming, error lines. */
const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown> & { events: Record<string, unknown>[] };
const ID = "demo-trace-001";

async function post(body: unknown) {
  return (await ingest(jsonRequest("/api/traces", body), params({}))).status;
}
async function exported(id: string, query: string): Promise<string> {
  const response = await exportTrace(getRequest(`/api/traces/${id}/export?${query}`), params({ id }));
  expect(response.status).toBe(200);
  return response.text();
}
async function json<T>(handler: (r: Request, c: { params: Promise<{ id: string }> }) => Promise<Response>, url: string, id: string): Promise<T> {
  return (await (await handler(getRequest(url), params({ id }))).json()) as T;
}
async function person(name: string) {
  const user = await prisma().user.create({ data: { email: `${name}@example.test`, name } });
  return { userId: user.id, email: user.email, name, via: "session" as const };
}
async function wipe() {
  await prisma().trace.deleteMany();
  await prisma().annotation.deleteMany();
  await prisma().adjudication.deleteMany();
  await prisma().user.deleteMany({ where: { local: false } });
}

beforeEach(async () => {
  await wipe();
  expect(await post(example)).toBe(201);
});

describe("JSONL rows", () => {
  it("carry tokens (or null), and the event text only with content=1", async () => {
    const rows = (await exported(ID, "format=jsonl")).trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    const byId = new Map(rows.map((r) => [r.event_id, r]));
    const events = example.events as { id: string; tokens?: number; content?: string }[];
    for (const e of events) {
      expect(byId.get(e.id)!.tokens).toBe(e.tokens ?? null);
      expect(byId.get(e.id)).not.toHaveProperty("content");
    }
    const withText = (await exported(ID, "format=jsonl&content=1")).trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const e of events) expect(withText.find((r) => r.event_id === e.id)!.content).toBe(e.content ?? null);
  });
});

describe("the extended round trip", () => {
  it("export -> import -> export is identical, with annotators kept by name, E1 ties and credit equal", async () => {
    const [ann, bob] = [await person("ann"), await person("bob")];
    const trace = await prisma().trace.findUniqueOrThrow({ where: { traceId: ID } });
    // a tie on task_success (E1 null even though the trace reports task_success), event labels of two people, an adjudication
    await saveAnnotation(ID, trace.id, ann, { family: "task_success", value: 1 });
    await saveAnnotation(ID, trace.id, bob, { family: "task_success", value: 0, comment: "missed a source" });
    await saveAnnotation(ID, trace.id, ann, { event_id: "e4", family: "step_quality", value: 0.5 });
    await saveAnnotation(ID, trace.id, bob, { event_id: "e4", family: "step_quality", value: -0.25 });
    await saveAnnotation(ID, trace.id, await localUser(), { family: "orchestration", value: 0.8 });
    await adjudicate(await localUser(), { trace_id: ID, event_id: "e5", family: "tool_use_correctness", value: -1 });
    const { recomputeMetrics } = await import("@/lib/server/compute/persist");
    await recomputeMetrics(trace.id);

    const first = await exported(ID, "format=extended");
    const doc = JSON.parse(first) as { annotations: { annotator: string }[]; adjudications: unknown[]; metrics?: Record<string, number> };
    expect(doc.annotations.map((a) => a.annotator).sort()).toEqual(["ann", "ann", "bob", "bob", "local"]);
    expect(doc.adjudications).toHaveLength(1);
    const queries = ["", "?preset=code_generation&normalize=1", "?method=mc_return", "?method=terminal", "?preset=customer_support&w.cost=0"];
    const before = {
      metrics: await json<Record<string, unknown>>(metrics, `/api/traces/${ID}/metrics`, ID),
      credit: await Promise.all(queries.map((q) => json(credit, `/api/traces/${ID}/credit${q}`, ID))),
    };
    expect((before.metrics as { e1: unknown }).e1).toBeNull();

    // a fresh database: nobody of these people has an account here
    await wipe();
    expect(await post(JSON.parse(first))).toBe(201);
    expect(await exported(ID, "format=extended")).toBe(first);
    expect(await json(metrics, `/api/traces/${ID}/metrics`, ID)).toEqual(before.metrics);
    expect(await Promise.all(queries.map((q) => json(credit, `/api/traces/${ID}/credit${q}`, ID)))).toEqual(before.credit);
    const stored = await prisma().trace.findUniqueOrThrow({ where: { traceId: ID } });
    expect(stored.e1).toBeNull();

    // each annotator distinct by name, as an imported person (no password: no sign-in), even "local", the name of this
    // instance's local user: an import never labels in an account's name
    const users = await prisma().user.findMany({ where: { local: false }, orderBy: { name: "asc" } });
    expect(users.map((u) => [u.name, u.imported, u.passwordHash])).toEqual([["ann", true, null], ["bob", true, null], ["local", true, null]]);
    // a second import of the same file keeps one record per name
    expect(await post({ ...JSON.parse(first), trace_id: "copy" })).toBe(201);
    expect(await prisma().user.count({ where: { local: false } })).toBe(3);
  });

  it("does not let the reported metrics.task_success hide a human label after re-import", async () => {
    expect(await post({ ...example, trace_id: "reported", metrics: { task_success: 0 } })).toBe(201);
    const trace = await prisma().trace.findUniqueOrThrow({ where: { traceId: "reported" } });
    await saveAnnotation("reported", trace.id, await person("ann"), { family: "task_success", value: 1 });
    const { recomputeMetrics } = await import("@/lib/server/compute/persist");
    expect((await recomputeMetrics(trace.id)).e1).toBe(1);
    const extended = JSON.parse(await exported("reported", "format=extended")) as Record<string, unknown>;
    const strict = JSON.parse(await exported("reported", "format=strict")) as { metrics: Record<string, number> };
    // the strict form writes the human E1 where E1 reads first
    expect(strict.metrics.task_success).toBe(1);
    await wipe();
    expect(await post(extended)).toBe(201);
    expect((await json<{ e1: number; stop: { verdict: string } }>(metrics, "/api/traces/reported/metrics", "reported")).e1).toBe(1);
    expect(await post({ ...strict, trace_id: "strict-copy" })).toBe(201);
    expect((await json<{ e1: number }>(metrics, "/api/traces/strict-copy/metrics", "strict-copy")).e1).toBe(1);
  });

  it("refuses labels on missing events and trace-level task_success outside 0/1, storing nothing", async () => {
    const doc = JSON.parse(await exported(ID, "format=extended")) as Record<string, unknown>;
    await wipe();
    const label = { event_id: null, family: "task_success", value: 0.3, comment: null, annotator: "ann", updated_at: "2026-01-01T00:00:00.000Z" };
    const response = await ingest(jsonRequest("/api/traces", { ...doc, annotations: [label, { ...label, event_id: "nope", family: "step_quality" }] }), params({}));
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorBody).error.details.map((d) => d.path)).toEqual(["$.annotations[0].value", "$.annotations[1].event_id"]);
    expect(await prisma().trace.count()).toBe(0);
    expect(await prisma().user.count({ where: { local: false } })).toBe(0);
  });
});

describe("streaming and validation", () => {
  it("checks every parameter before streaming: 400 JSON", async () => {
    for (const url of ["/api/export?preset=nope", "/api/export?format=xml", "/api/export?content=2", "/api/export?method=best"]) {
      const response = await exportDataset(getRequest(url), params({}));
      expect(response.status, url).toBe(400);
      expect(response.headers.get("content-type")).toContain("application/json");
      expect(((await response.json()) as ErrorBody).error.details.length, url).toBeGreaterThan(0);
    }
    const one = await exportTrace(getRequest(`/api/traces/${ID}/export?preset=nope`), params({ id: ID }));
    expect(one.status).toBe(400);
    expect(((await one.json()) as ErrorBody).error.details).toEqual([{ path: "preset", message: 'unknown preset "nope"' }]);
  });

  it("streams strict and extended text equal to the whole document", async () => {
    const strict = await exported(ID, "format=strict");
    expect(JSON.stringify(JSON.parse(strict))).toBe(strict);
  });

  it("ends a dataset stream that fails part-way with a last line {\"error\": ...}", async () => {
    // a first trace each of whose rows fills a read of its own (the stream pulls 64 KB at a time, one read ahead),
    // so the second trace is exported only after the reads below, whatever the machine's speed
    const big = structuredClone(example);
    big.trace_id = "a-big";
    for (const e of big.events) e.content = "x".repeat(100_000);
    expect(await post(big)).toBe(201);
    const response = await exportDataset(getRequest("/api/export?format=jsonl&content=1"), params({}));
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);
    // the other trace disappears while the export runs
    await prisma().trace.deleteMany({ where: { traceId: { not: "a-big" } } });
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value);
    const lines = text.trimEnd().split("\n");
    const last = JSON.parse(lines.at(-1)!) as ErrorBody;
    expect(typeof last.error.code).toBe("string");
    expect(last.error.message.length).toBeGreaterThan(0);
    expect(lines.slice(0, -1).map((l) => (JSON.parse(l) as { traj_uid: string }).traj_uid)).toEqual(Array(8).fill("a-big"));
  });
});
