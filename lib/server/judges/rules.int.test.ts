import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { prisma } from "@/lib/server/db/client";
import { getRequest, jsonRequest, params } from "@/scripts/lib/test-http";
import { POST as ingest } from "@/app/api/traces/route";
import { GET as credit } from "@/app/api/traces/[id]/credit/route";
import { GET as agreementRoute } from "@/app/api/judges/agreement/route";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { GET as dashboardRoute } from "@/app/api/dashboard/route";
import { POST as annotate } from "@/app/api/traces/[id]/annotations/route";
import { localUser } from "../auth/access";

/** judges= against hand-computed credit, and agreement against hand-computed alpha (SPEC.md section 5). */
const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>;
const ID = "demo-trace-001";

async function judge(name: string, project = "default") {
  const p = await prisma().project.upsert({ where: { name: project }, create: { name: project }, update: {} });
  return prisma().judge.create({ data: { projectId: p.id, name, baseUrl: "http://127.0.0.1:1/v1", model: "m", families: ["step_quality", "task_success"] } });
}

async function value(judgeId: number, eventId: string, family: string, v: number, current = true, traceKey = ID) {
  await prisma().judgeLabel.create({ data: { judgeId, traceKey, eventId, family, value: v, reason: "r", current, model: "m", promptHash: "h", latencyMs: 1 } });
}

async function creditOf(judges: string | null) {
  const q = judges === null ? "" : `&judges=${judges}`;
  const res = await credit(getRequest(`/api/traces/${ID}/credit?preset=uniform${q}`), params({ id: ID }));
  expect(res.status).toBe(200);
  const body = (await res.json()) as { judges: string; families: Record<string, number>; events: { id: string; by_family: Record<string, number> }[] };
  const by = (id: string, f: string) => body.events.find((e) => e.id === id)!.by_family[f];
  return { body, by };
}

beforeEach(async () => {
  await prisma().judge.deleteMany();
  await prisma().trace.deleteMany();
  await prisma().annotation.deleteMany();
  await prisma().adjudication.deleteMany();
  expect((await ingest(jsonRequest("/api/traces", example), params({}))).status).toBe(201);
  const project = await prisma().trace.findUniqueOrThrow({ where: { traceId: ID }, select: { project: { select: { name: true } } } });
  expect(project.project.name).toBe("default");
});

describe("judges= on credit", () => {
  it("judge values fill only units without human labels or adjudication; judges are averaged; default none", async () => {
    const me = await localUser();
    await prisma().annotation.create({ data: { traceKey: ID, eventId: "e4", family: "step_quality", value: 0.5, annotatorId: me.userId } });
    await prisma().adjudication.create({ data: { traceKey: ID, eventId: "e8", family: "step_quality", value: -0.5, adjudicatorId: me.userId } });
    const a = await judge("alpha");
    const b = await judge("beta");
    await value(a.id, "e4", "step_quality", -1); // loses to the person's 0.5
    await value(a.id, "e7", "step_quality", 0.4);
    await value(b.id, "e7", "step_quality", 0.8);
    await value(a.id, "e8", "step_quality", 1); // loses to the adjudication
    await value(b.id, "e7", "step_quality", -1, false); // history, not current: never used
    await value(a.id, "", "task_success", 0); // trace-level: 0 = failure

    // step_quality is local: credit = r(a) at each anchor (e4, e7, e8)
    const none = await creditOf(null);
    expect(none.body.judges).toBe("none");
    expect([none.by("e4", "step_quality"), none.by("e7", "step_quality"), none.by("e8", "step_quality")]).toEqual([0.5, 0, -0.5]);
    // task_success from the team channel (1.0) at the terminal e8, back with 0.7 per hop: e7 0.7
    expect(none.by("e8", "task_success")).toBe(1);

    const all = await creditOf("all");
    expect(all.by("e4", "step_quality")).toBe(0.5);
    expect(all.by("e7", "step_quality")).toBeCloseTo((0.4 + 0.8) / 2, 12);
    expect(all.by("e8", "step_quality")).toBe(-0.5);
    // alpha's trace-level 0 is an annotation-level value: R = 2 x 0 - 1 = -1, beating the team channel
    expect(all.body.families.task_success).toBe(-1);
    expect(all.by("e8", "task_success")).toBe(-1);
    expect(all.by("e7", "task_success")).toBeCloseTo(-0.7, 12);

    expect((await creditOf("beta")).by("e7", "step_quality")).toBe(0.8);
    expect((await creditOf("beta")).body.families.task_success).toBe(1);
    expect((await creditOf("alpha")).by("e7", "step_quality")).toBe(0.4);
    expect((await creditOf("gamma")).by("e7", "step_quality")).toBe(0); // unknown name: no judge
  });

  it("judges of another project never enter", async () => {
    const other = await judge("alpha", "elsewhere");
    await value(other.id, "e7", "step_quality", 1);
    expect((await creditOf("all")).by("e7", "step_quality")).toBe(0);
  });

  it("a bad judges= is a 400 naming the parameter", async () => {
    const res = await credit(getRequest(`/api/traces/${ID}/credit?judges=a,,b`), params({ id: ID }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { details: { path: string }[] } }).error.details[0]!.path).toBe("judges");
  });
});

describe("agreement with people", () => {
  it("alpha per judge and family over units both labelled, by hand", async () => {
    const me = await localUser();
    const other = await prisma().user.create({ data: { email: "o@j.test", name: "o" } });
    const a = await judge("alpha");
    // units (judge, people): e4 (1, [1, 0]) -> mean 0.5; e7 (0, [0]); e8 (-1, adjudicated -0.5 over a person's 1); e2 judge only
    await prisma().annotation.createMany({ data: [
      { traceKey: ID, eventId: "e4", family: "step_quality", value: 1, annotatorId: me.userId },
      { traceKey: ID, eventId: "e4", family: "step_quality", value: 0, annotatorId: other.id },
      { traceKey: ID, eventId: "e7", family: "step_quality", value: 0, annotatorId: me.userId },
      { traceKey: ID, eventId: "e8", family: "step_quality", value: 1, annotatorId: me.userId },
    ] });
    await prisma().adjudication.create({ data: { traceKey: ID, eventId: "e8", family: "step_quality", value: -0.5, adjudicatorId: me.userId } });
    await value(a.id, "e4", "step_quality", 1);
    await value(a.id, "e7", "step_quality", 0);
    await value(a.id, "e8", "step_quality", -1);
    await value(a.id, "e2", "step_quality", 1);
    const res = await agreementRoute(getRequest("/api/judges/agreement?project=default"), params({}));
    expect(res.status).toBe(200);
    const [g] = ((await res.json()) as { agreement: { judge: string; family: string; units: number; alpha: number; mean_signed_difference: number }[] }).agreement;
    // pairs (1, 0.5), (0, 0), (-1, -0.5): alpha = 5/6 (see lib/judges/agreement.test.ts), signed difference 0
    expect(g).toMatchObject({ judge: "alpha", family: "step_quality", units: 3 });
    expect(g!.alpha).toBeCloseTo(5 / 6, 12);
    expect(g!.mean_signed_difference).toBeCloseTo(0, 12);
  });
});

describe("judges= on GET /api/metrics (E1)", () => {
  async function e1(judges: string) {
    const res = await metricsRoute(getRequest(`/api/metrics?project=default${judges === "" ? "" : `&judges=${judges}`}`), params({}));
    expect(res.status).toBe(200);
    return ((await res.json()) as { traces: number; e1: { rate: number | null; n: number } }).e1;
  }

  it("judge task_success decides E1 only where no person labelled the trace; a judge tie is null; other projects' judges never count", async () => {
    // three runs that all report task_success 1: A (judged only), B (a person says 0), C (two judges disagree)
    for (const id of ["judged-b", "judged-c"]) expect((await ingest(jsonRequest("/api/traces", { ...example, trace_id: id }), params({}))).status).toBe(201);
    const labelled = await annotate(jsonRequest("/api/traces/judged-b/annotations", { family: "task_success", value: 0 }), params({ id: "judged-b" }));
    expect(labelled.status).toBe(201);
    const alpha = await judge("alpha");
    const beta = await judge("beta");
    const gamma = await judge("gamma", "other");
    await value(alpha.id, "", "task_success", 0); // A: failure by alpha
    await value(gamma.id, "", "task_success", 1); // another project's judge: ignored
    await value(alpha.id, "", "task_success", 1, true, "judged-b"); // B: loses to the person's 0
    await value(alpha.id, "", "task_success", 1, true, "judged-c"); // C: alpha 1, beta 0: a tie
    await value(beta.id, "", "task_success", 0, true, "judged-c");
    await value(beta.id, "", "task_success", 1, false); // history: never used

    // people only: A 1 (reported), B 0 (the person), C 1 (reported)
    expect(await e1("")).toMatchObject({ n: 3, rate: 2 / 3 });
    expect(await e1("none")).toMatchObject({ n: 3, rate: 2 / 3 });
    // all judges: A 0 (alpha), B 0 (the person wins), C null (tie): 0 of 2
    expect(await e1("all")).toMatchObject({ n: 2, rate: 0 });
    // beta only: A 1 (no beta value: reported), B 0, C 0 (beta): 1 of 3
    expect((await e1("beta")).n).toBe(3);
    expect((await e1("beta")).rate).toBeCloseTo(1 / 3, 12);
    // the dashboard's E1 (and its trend points) the same way
    const dashboard = async (judges: string) => {
      const res = await dashboardRoute(getRequest(`/api/dashboard?project=default${judges}`), params({}));
      expect(res.status).toBe(200);
      return (await res.json()) as { e1: { rate: number | null; n: number; successes: number }; trends: { day: { points: { e1: { n: number } }[] } } };
    };
    expect((await dashboard("")).e1).toMatchObject({ n: 3, successes: 2 });
    const judgedDashboard = await dashboard("&judges=all");
    expect(judgedDashboard.e1).toMatchObject({ n: 2, successes: 0, rate: 0 });
    expect(judgedDashboard.trends.day.points.reduce((sum, p) => sum + p.e1.n, 0)).toBe(2);
    expect((await dashboardRoute(getRequest("/api/dashboard?judges=,"), params({}))).status).toBe(400);
    const bad = await metricsRoute(getRequest("/api/metrics?judges=a,,b"), params({}));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { details: { path: string }[] } }).error.details[0]!.path).toBe("judges");
    await prisma().annotation.deleteMany({ where: { traceKey: "judged-b" } });
  });
});
