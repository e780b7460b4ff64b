import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { localUser, type Actor } from "@/lib/server/auth/access";
import { recomputeAfterLabel, traceForRecompute } from "@/lib/server/compute/persist";
import { prisma } from "@/lib/server/db/client";
import { humanLabels, saveAnnotation, saveLabel } from "@/lib/server/queries/annotations";
import { loadTrace } from "@/lib/server/queries/load-trace";
import { computeMetrics } from "@/lib/metrics";
import { computeDiagnostics } from "@/lib/hacking";
import { decisionRecord } from "@/lib/decisions";
import { getRequest, jsonRequest, params, type ErrorBody } from "@/scripts/lib/test-http";
import { GET as exportDataset } from "../export/route";
import { DELETE as unlabel, GET as listAnnotations, POST as annotate } from "./[id]/annotations/route";
import { GET as credit } from "./[id]/credit/route";
import { GET as exportTrace } from "./[id]/export/route";
import { GET as metrics } from "./[id]/metrics/route";
import { POST as ingest } from "./route";

const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown> & { events: Record<string, unknown>[] };
const ID = "demo-trace-001";

async function post(body: unknown, query = "") {
  const response = await ingest(jsonRequest(`/api/traces${query}`, body), params({}));
  return { status: response.status, body: (await response.json()) as { traces: { warnings: { message: string }[] }[] } };
}
async function label(body: unknown, id = ID) {
  const response = await annotate(jsonRequest(`/api/traces/${id}/annotations`, body), params({ id }));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & ErrorBody };
}
async function json<T>(handler: (r: Request, c: { params: Promise<{ id: string }> }) => Promise<Response>, url: string, id = ID): Promise<T> {
  return (await (await handler(getRequest(url), params({ id }))).json()) as T;
}
type Credit = { r_total: number; families: Record<string, number | null>; events: { id: string; total: number; by_family: Record<string, number> }[] };
const byFamily = (c: Credit, family: string) => Object.fromEntries(c.events.map((e) => [e.id, e.by_family[family]]));

async function otherAnnotator(name: string): Promise<Actor> {
  const user = await prisma().user.create({ data: { email: `${name}@example.test`, name } });
  return { userId: user.id, email: user.email, name, via: "session" };
}

beforeEach(async () => {
  await prisma().trace.deleteMany();
  await prisma().annotation.deleteMany();
  // adjudications are keyed by trace_id and outlive their trace (an imported extended file brings some)
  await prisma().adjudication.deleteMany();
  await prisma().user.deleteMany({ where: { local: false } });
  expect((await post(example)).status).toBe(201);
});

describe("concurrent trace-level labels", () => {
  it("leave the stored E1 equal to the majority of the labels as they finally are (a recompute that read older labels never writes last)", async () => {
    const row = await prisma().trace.findUniqueOrThrow({ where: { traceId: ID } });
    const people = await Promise.all(["ann", "bo", "cy", "di", "ed"].map(otherAnnotator));
    // each round: everyone labels at once, as the route does (the trace loading while the label
    // is written, then a recompute with the trace-level labels the write returned)
    const ref = { id: row.id, traceId: ID };
    const round = (values: number[]) =>
      Promise.all(people.map(async (actor, i) => {
        const loading = traceForRecompute(ref, "metrics");
        const { traceLabels } = await saveLabel(ID, row.id, actor, { family: "task_success", value: values[i]! });
        await recomputeAfterLabel(ref, "metrics", { trace: loading, traceLabels });
      }));
    // in each round the labeller whose save comes last flips the majority, so a recompute that read the labels before it is stale
    const rounds = Array.from({ length: 12 }, (_, r) => (r % 2 === 0 ? [1, 1, 0, 0, 0] : [0, 0, 1, 1, 1]).map((v, i) => (i === 4 ? 1 - v : v)));
    for (const values of rounds) {
      await round(values);
      const expected = values.filter((v) => v === 1).length * 2 > values.length ? 1 : 0;
      expect((await prisma().trace.findUniqueOrThrow({ where: { traceId: ID } })).e1).toBe(expected);
    }
  });
});

describe("saveLabel: the trace-level labels a recompute reads, from the write itself", () => {
  it("are the labels as stored once written (its own new value in, its old one out); null for an event-level label or a write that changed nothing", async () => {
    const row = await prisma().trace.findUniqueOrThrow({ where: { traceId: ID } });
    const [ann, bo] = await Promise.all(["ann", "bo"].map(otherAnnotator));
    await saveLabel(ID, row.id, ann!, { family: "task_success", value: 1 });
    await saveLabel(ID, row.id, ann!, { family: "step_quality", value: 0.5 });
    const first = await saveLabel(ID, row.id, bo!, { family: "task_success", value: 0 });
    expect(first.traceLabels!.trace).toEqual((await humanLabels(ID)).labels.trace);
    // bo changes his mind: his 0 is replaced by 1, not kept beside it
    const changed = await saveLabel(ID, row.id, bo!, { family: "task_success", value: 1 });
    expect(changed.traceLabels!.trace).toEqual((await humanLabels(ID)).labels.trace);
    expect([...changed.traceLabels!.trace.task_success!.values]).toEqual([1, 1]);
    expect((await saveLabel(ID, row.id, bo!, { family: "task_success", value: 1 })).traceLabels).toBeNull();
    expect((await saveLabel(ID, row.id, bo!, { event_id: "e4", family: "step_quality", value: 1 })).traceLabels).toBeNull();
  });
});

describe("POST /api/traces/{id}/annotations", () => {
  it("stores a label, lists it, and changes E1 and credit at once", async () => {
    const saved = await label({ family: "task_success", value: 0, comment: "wrong answer" });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ event_id: null, family: "task_success", value: 0, comment: "wrong answer", annotator: "local" });
    const { annotations } = await json<{ annotations: unknown[] }>(listAnnotations, `/api/traces/${ID}/annotations`);
    expect(annotations).toEqual([expect.objectContaining({ family: "task_success", value: 0, event_id: null })]);
    // human labels come first: E1 = majority of {0} = 0, although metrics.task_success reports 1
    expect((await json<{ e1: number; stop: { verdict: string } }>(metrics, `/api/traces/${ID}/metrics`)).e1).toBe(0);
    expect((await prisma().trace.findUniqueOrThrow({ where: { traceId: ID } })).e1).toBe(0);
    // R_task_success = 2 x mean - 1 = -1; at the terminal e8 (d = 0) credit -1, at e7 -0.7
    const c = await json<Credit>(credit, `/api/traces/${ID}/credit`);
    expect(c.families.task_success).toBe(-1);
    expect(byFamily(c, "task_success").e8).toBeCloseTo(-1, 12);
    expect(byFamily(c, "task_success").e7).toBeCloseTo(-0.7, 12);
  });

  it("an event label stores no recompute (credit is computed on read); a trace-level task_success label recomputes E1", async () => {
    const before = await prisma().trace.findUniqueOrThrow({ where: { traceId: ID } });
    const eventLabel = await annotate(jsonRequest(`/api/traces/${ID}/annotations`, { event_id: "e4", family: "step_quality", value: 1 }), params({ id: ID }));
    expect(eventLabel.status).toBe(201);
    expect(eventLabel.headers.get("server-timing")).toMatch(/^recompute;dur=0\.\d+$/);
    const afterEvent = await prisma().trace.findUniqueOrThrow({ where: { traceId: ID } });
    expect(afterEvent.updatedAt.getTime()).toBe(before.updatedAt.getTime());
    // ...yet the credit read sees it at once: step_quality +1 at e4
    expect(byFamily(await json<Credit>(credit, `/api/traces/${ID}/credit`), "step_quality").e4).toBe(1);
    expect(before.e1).toBe(1);
    expect((await label({ family: "task_success", value: 0 })).status).toBe(201);
    expect((await prisma().trace.findUniqueOrThrow({ where: { traceId: ID } })).e1).toBe(0);
  });

  it("a trace-level label rewrites only what it can change: another family the stored R_total alone; task_success also E1, the verdict and the diagnostics, each equal to a recompute from scratch", async () => {
    const row = await prisma().trace.findUniqueOrThrow({ where: { traceId: ID } });
    const stored = async () => ({
      trace: await prisma().trace.findUniqueOrThrow({ where: { id: row.id } }),
      decisions: await prisma().traceDecision.findUniqueOrThrow({ where: { traceId: row.id } }),
      diagnostics: await prisma().traceDiagnostics.findUniqueOrThrow({ where: { traceId: row.id } }),
    });
    const uniformRTotal = async () => (await json<Credit>(credit, `/api/traces/${ID}/credit?preset=uniform`)).r_total;
    const before = await stored();
    expect((await label({ family: "step_quality", value: 1 })).status).toBe(201);
    const afterQuality = await stored();
    expect(afterQuality.trace.updatedAt.getTime()).toBe(before.trace.updatedAt.getTime()); // metric columns untouched
    expect(afterQuality.diagnostics.computedAt.getTime()).toBe(before.diagnostics.computedAt.getTime());
    expect(afterQuality.decisions.rTotal).not.toBeCloseTo(before.decisions.rTotal, 6);
    expect(afterQuality.decisions.rTotal).toBeCloseTo(await uniformRTotal(), 12);

    expect((await label({ family: "task_success", value: 0 })).status).toBe(201);
    const afterSuccess = await stored();
    const trace = await loadTrace(ID);
    const { labels } = await humanLabels(ID);
    const fresh = computeMetrics(trace, labels);
    expect(afterSuccess.trace.e1).toBe(0);
    expect(fresh.e1).toBe(0);
    expect(afterSuccess.trace.verdict).toBe(fresh.stop.verdict);
    expect(afterSuccess.trace.updatedAt.getTime()).toBeGreaterThan(before.trace.updatedAt.getTime());
    const diagnostics = computeDiagnostics(trace, labels);
    expect(afterSuccess.diagnostics.flags).toEqual(diagnostics.flags);
    expect(afterSuccess.diagnostics.freeRiding).toBe(diagnostics.detectors.free_riding.value);
    expect(afterSuccess.decisions.rTotal).toBeCloseTo(decisionRecord(trace, labels).r_total, 12);
    expect(afterSuccess.decisions.rTotal).toBeCloseTo(await uniformRTotal(), 12);
  });

  it("DELETE removes the caller's own label (undo); E1 goes back to the reported value; a second DELETE is a 404", async () => {
    expect((await label({ family: "task_success", value: 0 })).status).toBe(201);
    expect((await prisma().trace.findUniqueOrThrow({ where: { traceId: ID } })).e1).toBe(0);
    const del = () => unlabel(new Request(`http://localhost/api/traces/${ID}/annotations?family=task_success`, { method: "DELETE" }), params({ id: ID }));
    expect((await del()).status).toBe(200);
    expect((await json<{ annotations: unknown[] }>(listAnnotations, `/api/traces/${ID}/annotations`)).annotations).toEqual([]);
    expect((await prisma().trace.findUniqueOrThrow({ where: { traceId: ID } })).e1).toBe(1); // metrics.task_success reports 1
    expect((await del()).status).toBe(404);
  });

  it("event labels move credit on anchors only, never R_total; labels on non-anchors are kept", async () => {
    const before = await json<Credit>(credit, `/api/traces/${ID}/credit`);
    expect((await label({ event_id: "e4", family: "step_quality", value: 0.5 })).status).toBe(201); // e4 is a message: an anchor
    expect((await label({ event_id: "e1", family: "step_quality", value: -1 })).status).toBe(201); // e1 is a decision: an anchor since baton-spec-4
    expect((await label({ event_id: "e6", family: "step_quality", value: -1 })).status).toBe(201); // e6 is a tool result: not an anchor
    const after = await json<Credit>(credit, `/api/traces/${ID}/credit`);
    expect(after.r_total).toBeCloseTo(before.r_total, 12);
    expect(byFamily(after, "step_quality")).toMatchObject({ e4: 0.5, e1: -1, e6: 0 });
    expect((await json<{ annotations: unknown[] }>(listAnnotations, `/api/traces/${ID}/annotations`)).annotations).toHaveLength(3);
  });

  it("refuses bad labels with paths and stores nothing", async () => {
    const bad = await label({ family: "charm", value: 2 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d) => d.path).sort()).toEqual(["$.family", "$.value"]);
    expect((await label({ family: "task_success", value: 0.5 })).body.error.details[0]!.path).toBe("$.value");
    expect((await label({ event_id: "ghost", family: "step_quality", value: 0 })).body.error.details[0]!.path).toBe("$.event_id");
    expect((await label({ family: "cost", value: 0 }, "nope")).status).toBe(404);
    expect(await prisma().annotation.count()).toBe(0);
  });

  it("keeps both values when two annotators label one event at once, and one value when one annotator submits twice", async () => {
    const [a, b, local] = [await otherAnnotator("ann"), await otherAnnotator("bob"), await localUser()];
    const row = await prisma().trace.findUniqueOrThrow({ where: { traceId: ID } });
    await Promise.all([
      saveAnnotation(ID, row.id, a, { event_id: "e7", family: "step_quality", value: 1 }),
      saveAnnotation(ID, row.id, b, { event_id: "e7", family: "step_quality", value: -1 }),
      ...Array.from({ length: 5 }, () => saveAnnotation(ID, row.id, local, { event_id: "e7", family: "step_quality", value: 0.5 })),
    ]);
    const rows = await prisma().annotation.findMany({ where: { traceKey: ID, eventId: "e7" }, include: { revisions: true } });
    expect(rows.map((r) => r.value).sort()).toEqual([-1, 0.5, 1]);
    const mine = rows.find((r) => r.annotatorId === local.userId)!;
    expect(mine.revisions).toHaveLength(1); // identical resubmissions are no edits
    await saveAnnotation(ID, row.id, local, { event_id: "e7", family: "step_quality", value: -0.5 });
    expect(await prisma().annotationRevision.count({ where: { annotationId: mine.id } })).toBe(2);
    // r(e7) = mean(1, -1, -0.5) = -1/6
    const c = await json<Credit>(credit, `/api/traces/${ID}/credit`);
    expect(byFamily(c, "step_quality").e7).toBeCloseTo(-1 / 6, 12);
  });

  it("re-ingest with upsert keeps labels on events that still exist and reports the others", async () => {
    await label({ event_id: "e4", family: "step_quality", value: 1 });
    await label({ event_id: "e8", family: "step_quality", value: -1 });
    await label({ family: "task_success", value: 0 });
    const shorter = { ...example, events: example.events.slice(0, 7), edges: (example.edges as { dst: string }[]).filter((e) => e.dst !== "e8") };
    const { status, body } = await post(shorter, "?upsert=1");
    expect(status).toBe(201);
    expect(body.traces[0]!.warnings.map((w) => w.message)).toEqual([expect.stringContaining('step_quality on event "e8"')]);
    const kept = await prisma().annotation.findMany({ where: { traceKey: ID }, orderBy: { eventId: "asc" } });
    expect(kept.map((a) => [a.eventId, a.family])).toEqual([["", "task_success"], ["e4", "step_quality"]]);
    expect((await prisma().trace.findUniqueOrThrow({ where: { traceId: ID } })).e1).toBe(0); // recomputed with the kept label
  });
});

describe("export for training", () => {
  it("writes one JSONL row per event with rewards, credit and advantage", async () => {
    await label({ event_id: "e4", family: "step_quality", value: 0.5 });
    const response = await exportTrace(getRequest(`/api/traces/${ID}/export?format=jsonl&method=uniform`), params({ id: ID }));
    expect(response.headers.get("content-type")).toContain("application/x-ndjson");
    const rows = (await response.text()).trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows).toHaveLength(8);
    const ccp = await json<Credit>(credit, `/api/traces/${ID}/credit`);
    const e4 = rows.find((r) => r.event_id === "e4")!;
    expect(e4).toMatchObject({ uid: "demo-task-browser-research", group_id: null, traj_uid: ID, step: 3, agent: "planner_1", role: "planner", type: "message", t: 3, method: "uniform", preset: "uniform", version: "baton-spec-4" });
    expect(e4.annotations_as_of).toEqual(expect.any(String));
    expect((e4.rewards as Record<string, number>).step_quality).toBe(0.5);
    expect(e4.credit).toBeCloseTo(ccp.events.find((e) => e.id === "e4")!.total, 12);
    // uniform: every event gets R_total / N = 2.405 / 8
    for (const r of rows) expect(r.advantage).toBeCloseTo(2.405 / 8, 12);
  });

  it("round trip: extended export re-imported under a new trace_id gives identical metrics and credit", async () => {
    await label({ event_id: "e4", family: "step_quality", value: 0.5 });
    await label({ event_id: "e5", family: "tool_use_correctness", value: -1 });
    await label({ family: "orchestration", value: 0.8 });
    const extended = JSON.parse(await (await exportTrace(getRequest(`/api/traces/${ID}/export?format=extended`), params({ id: ID }))).text()) as Record<string, unknown>;
    expect(extended.annotations as unknown[]).toHaveLength(3);
    expect((await post({ ...extended, trace_id: "copy" })).status).toBe(201);
    const strip = (m: Record<string, unknown>) => ({ ...m });
    expect(strip(await json(metrics, "/api/traces/copy/metrics", "copy"))).toEqual(strip(await json(metrics, `/api/traces/${ID}/metrics`)));
    for (const q of ["", "?preset=code_generation&normalize=1", "?method=mc_return"]) {
      const original = await json<Credit>(credit, `/api/traces/${ID}/credit${q}`);
      const copy = await json<Credit>(credit, `/api/traces/copy/credit${q}`, "copy");
      expect(copy).toEqual(original);
    }
    const strict = JSON.parse(await (await exportTrace(getRequest(`/api/traces/${ID}/export?format=strict`), params({ id: ID }))).text()) as { rewards: Record<string, number>; events: Record<string, unknown>[] };
    expect(strict.rewards.orchestration).toBe(0.8);
    expect(Object.keys(strict)).not.toContain("metadata");
  });

  it("streams a dataset matching a filter", async () => {
    expect((await post([{ ...example, trace_id: "x1", system: "other" }, { ...example, trace_id: "x2", system: "other" }])).status).toBe(201);
    const response = await exportDataset(getRequest("/api/export?system=other&format=jsonl"), params({}));
    const rows = (await response.text()).trim().split("\n").map((l) => JSON.parse(l) as { traj_uid: string });
    expect(rows).toHaveLength(16);
    expect(new Set(rows.map((r) => r.traj_uid))).toEqual(new Set(["x1", "x2"]));
    const traces = (await (await exportDataset(getRequest("/api/export?format=strict"), params({}))).text()).trim().split("\n");
    expect(traces).toHaveLength(3);
  });
});
