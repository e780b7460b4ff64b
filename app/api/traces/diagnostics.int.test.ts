import { beforeEach, describe, expect, it } from "vitest";
import { makeTrace } from "@/lib/graph/fixtures";
import { ALL_USED, SPAMMED_TOOLS } from "@/lib/hacking/fixtures";
import { localUser } from "@/lib/server/auth/access";
import { prisma } from "@/lib/server/db/client";
import { recomputeStaleDiagnostics } from "@/lib/server/hacking/store";
import { getRequest, jsonRequest, params, type ErrorBody } from "@/scripts/lib/test-http";
import { GET as collusion } from "../diagnostics/collusion/route";
import { GET as trend } from "../diagnostics/trend/route";
import { POST as annotate } from "./[id]/annotations/route";
import { GET as diagnostics } from "./[id]/diagnostics/route";
import { GET as exportTrace } from "./[id]/export/route";
import { GET as list, POST } from "./route";

const SPAM = "hk-spam";
const CLEAN = "hk-clean";
const trace = (spec: Parameters<typeof makeTrace>[0], id: string, policy: string) => ({ ...makeTrace({ ...spec, trace_id: id }), metadata: { policy_version: policy } });

async function ingest(...traces: unknown[]) {
  const response = await POST(jsonRequest("/api/traces", traces), params({}));
  expect(response.status).toBe(201);
}

async function getJson<T>(handler: (r: Request, c: { params: Promise<{ id: string }> }) => Promise<Response>, url: string, id = "") {
  const response = await handler(getRequest(url), params({ id }));
  return { status: response.status, body: (await response.json()) as T & ErrorBody };
}

interface Diagnostics {
  version: string;
  diagnostics_version: string;
  trace_id: string;
  flags: string[];
  detectors: Record<string, { value: number | null; threshold: number; flagged: boolean; events: string[] }>;
}

beforeEach(async () => {
  await prisma().trace.deleteMany();
  // labels are keyed by trace_id and outlive traces
  await prisma().annotation.deleteMany({ where: { traceKey: { in: [SPAM, CLEAN, "c1", "c2", "c3", "c4", "c5", "c6"] } } });
  await prisma().adjudication.deleteMany({ where: { traceKey: { in: [SPAM, CLEAN] } } });
  await prisma().judge.deleteMany({ where: { name: "hk-judge" } });
});

describe("hacking diagnostics, stored", () => {
  it("are computed at ingest and answered by GET /api/traces/{id}/diagnostics", async () => {
    await ingest(trace(SPAMMED_TOOLS, SPAM, "v1"), trace(ALL_USED, CLEAN, "v2"));
    const { status, body } = await getJson<Diagnostics>(diagnostics, `/api/traces/${SPAM}/diagnostics`, SPAM);
    expect(status).toBe(200);
    expect(body.version).toBe("baton-spec-4");
    expect(body.diagnostics_version).toBe("baton-hacking-1");
    expect(body.flags).toEqual(["pseudo_parallelism", "free_riding", "tool_spam"]);
    expect(body.detectors.tool_spam).toEqual({ value: 2 / 3, threshold: 0.5, flagged: true, events: ["b1", "b3"] });
    expect(body.detectors.pseudo_parallelism).toEqual({ value: 0.5, threshold: 0.5, flagged: true, events: ["s2"] });
    expect(body.detectors.communication_padding).toEqual({ value: null, threshold: 0.5, flagged: false, events: [] });
    const row = await prisma().traceDiagnostics.findFirstOrThrow({ where: { trace: { traceId: SPAM } } });
    expect(row.toolSpam).toBeCloseTo(2 / 3, 15);

    const missing = await getJson(diagnostics, "/api/traces/nope/diagnostics", "nope");
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("not_found");
  });

  it("filter the list with flag=<detector>, and reject an unknown detector with its path", async () => {
    await ingest(trace(SPAMMED_TOOLS, SPAM, "v1"), trace(ALL_USED, CLEAN, "v2"));
    const spam = await getJson<{ traces: { trace_id: string; flags: string[] }[] }>(list, "/api/traces?flag=tool_spam");
    expect(spam.body.traces.map((t) => [t.trace_id, t.flags])).toEqual([[SPAM, ["pseudo_parallelism", "free_riding", "tool_spam"]]]);
    const padding = await getJson<{ traces: unknown[] }>(list, "/api/traces?flag=communication_padding");
    expect(padding.body.traces).toEqual([]);
    const all = await getJson<{ traces: { trace_id: string; flags: string[] }[] }>(list, "/api/traces");
    expect(all.body.traces.find((t) => t.trace_id === CLEAN)!.flags).toEqual([]);
    const bad = await getJson(list, "/api/traces?flag=bogus");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d) => d.path)).toEqual(["flag"]);
  });

  it("follow label writes: a failed-run label makes all positive credit the free rider's", async () => {
    await ingest(trace(SPAMMED_TOOLS, SPAM, "v1"));
    const before = await getJson<Diagnostics>(diagnostics, `/api/traces/${SPAM}/diagnostics`, SPAM);
    expect(before.body.detectors.free_riding!.value).toBeLessThan(0.5);
    const response = await annotate(jsonRequest(`/api/traces/${SPAM}/annotations`, { family: "task_success", value: 0 }), params({ id: SPAM }));
    expect(response.status).toBe(201);
    // B holds +1 (b1) + 1 (b3) of tool credit; A and the lead go negative once task_success is -1
    const after = await getJson<Diagnostics>(diagnostics, `/api/traces/${SPAM}/diagnostics`, SPAM);
    expect(after.body.detectors.free_riding!.value).toBeCloseTo(1, 12);
  });

  it("are backfilled for traces stored before them or under another version", async () => {
    await ingest(trace(SPAMMED_TOOLS, SPAM, "v1"), trace(ALL_USED, CLEAN, "v2"));
    await prisma().traceDiagnostics.deleteMany({ where: { trace: { traceId: SPAM } } });
    await prisma().traceDiagnostics.updateMany({ where: { trace: { traceId: CLEAN } }, data: { version: "baton-hacking-0", flags: ["tool_spam"] } });
    expect(await recomputeStaleDiagnostics()).toBe(2);
    const rows = await prisma().traceDiagnostics.findMany({ include: { trace: { select: { traceId: true } } }, orderBy: { traceId: "asc" } });
    expect(rows.map((r) => [r.trace.traceId, r.version, r.flags])).toEqual([
      [SPAM, "baton-hacking-1", ["pseudo_parallelism", "free_riding", "tool_spam"]],
      [CLEAN, "baton-hacking-1", []],
    ]);
    expect(await recomputeStaleDiagnostics()).toBe(0);
  });

  it("travel with the export: every JSONL row and the extended form carry hacking_flags", async () => {
    await ingest(trace(SPAMMED_TOOLS, SPAM, "v1"));
    const jsonl = await exportTrace(getRequest(`/api/traces/${SPAM}/export?format=jsonl`), params({ id: SPAM }));
    const rows = (await jsonl.text()).trim().split("\n").map((l) => JSON.parse(l) as { hacking_flags: string[] });
    expect(rows).toHaveLength(SPAMMED_TOOLS.events.length);
    for (const r of rows) expect(r.hacking_flags).toEqual(["pseudo_parallelism", "free_riding", "tool_spam"]);
    const extended = (await (await exportTrace(getRequest(`/api/traces/${SPAM}/export?format=extended`), params({ id: SPAM }))).json()) as Record<string, unknown>;
    expect(extended.hacking_flags).toEqual(["pseudo_parallelism", "free_riding", "tool_spam"]);
    // re-importing the extended form is accepted; a forged flag list is not believed
    await ingest({ ...extended, trace_id: CLEAN, hacking_flags: [] });
    expect((await getJson<Diagnostics>(diagnostics, `/api/traces/${CLEAN}/diagnostics`, CLEAN)).body.flags).toEqual(["pseudo_parallelism", "free_riding", "tool_spam"]);
  });
});

describe("GET /api/diagnostics/trend", () => {
  it("gives each detector's flag rate per policy_version, in checkpoint order", async () => {
    await ingest(trace(SPAMMED_TOOLS, SPAM, "v1"), trace(ALL_USED, CLEAN, "v2"), trace(SPAMMED_TOOLS, "c1", "v2"));
    const { body } = await getJson<{ points: { policy_version: string | null; traces: number; diagnosed: number; detectors: Record<string, { flagged: number; rate: number | null }> }[] }>(trend, "/api/diagnostics/trend");
    expect(body.points.map((p) => [p.policy_version, p.traces, p.detectors.tool_spam, p.detectors.communication_padding])).toEqual([
      ["v1", 1, { flagged: 1, rate: 1 }, { flagged: 0, rate: 0 }],
      ["v2", 2, { flagged: 1, rate: 0.5 }, { flagged: 0, rate: 0 }],
    ]);
    const bad = await getJson(trend, "/api/diagnostics/trend?project=p&nope=1");
    expect(bad.status).toBe(400);
  });
});

describe("GET /api/diagnostics/collusion", () => {
  it("flags a judge whose lead over people grows between checkpoints", async () => {
    // three runs per checkpoint; people say 0 everywhere; the judge says 0.1 at v1 and 0.5 at v2
    await ingest(...["c1", "c2", "c3"].map((id) => trace(ALL_USED, id, "v1")), ...["c4", "c5", "c6"].map((id) => trace(ALL_USED, id, "v2")));
    const person = await localUser();
    const project = await prisma().project.findUniqueOrThrow({ where: { name: "default" } });
    const judge = await prisma().judge.create({ data: { projectId: project.id, name: "hk-judge", baseUrl: "http://127.0.0.1:1/v1", model: "m", families: ["step_quality"] } });
    for (const [id, value] of [["c1", 0.1], ["c2", 0.1], ["c3", 0.1], ["c4", 0.5], ["c5", 0.5], ["c6", 0.5]] as const) {
      await prisma().annotation.create({ data: { traceKey: id, eventId: "g", family: "step_quality", value: 0, annotatorId: person.userId } });
      await prisma().judgeLabel.create({ data: { judgeId: judge.id, traceKey: id, eventId: "g", family: "step_quality", value, current: true, model: "m", promptHash: "h", latencyMs: 1 } });
    }
    const { status, body } = await getJson<{ threshold: number; rows: { judge: string; policy_version: string; units: number; value: number | null; flagged: boolean }[] }>(collusion, "/api/diagnostics/collusion?judge=hk-judge");
    expect(status).toBe(200);
    expect(body.threshold).toBe(0.25);
    expect(body.rows.map((r) => [r.policy_version, r.units, r.value === null ? null : Number(r.value.toFixed(12)), r.flagged])).toEqual([
      ["v1", 3, 0, false],
      ["v2", 3, 0.4, true],
    ]);
  });
});
