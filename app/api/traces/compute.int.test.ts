import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { BUILTIN_PRESETS } from "@/lib/rewards";
import { prisma } from "@/lib/server/db/client";
import { getRequest, jsonRequest, params, type ErrorBody } from "@/scripts/lib/test-http";
import { GET as aggregate } from "../metrics/route";
import { GET as getPresets, POST as postPreset } from "../presets/route";
import { GET as credit } from "./[id]/credit/route";
import { GET as metrics } from "./[id]/metrics/route";
import { POST } from "./route";

const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>;

async function ingest(...traces: Record<string, unknown>[]) {
  const response = await POST(jsonRequest("/api/traces", traces), params({}));
  expect(response.status).toBe(201);
}

async function getJson<T>(handler: (r: Request, c: { params: Promise<{ id: string }> }) => Promise<Response>, url: string, id = "") {
  const response = await handler(getRequest(url), params({ id }));
  return { status: response.status, body: (await response.json()) as T & ErrorBody };
}

interface CreditBody {
  version: string;
  method: string;
  preset: string;
  r_total: number;
  normalize: boolean;
  weights: Record<string, number>;
  families: Record<string, number | null>;
  events: { id: string; total: number; by_family: Record<string, number> }[];
}

beforeEach(async () => {
  await prisma().trace.deleteMany();
  await prisma().preset.deleteMany({ where: { builtin: false } });
});

describe("GET /api/traces/{id}/metrics", () => {
  it("gives the paper's example trace its hand-computed metrics, stored at ingest", async () => {
    await ingest(example);
    const { status, body } = await getJson(metrics, "/api/traces/demo-trace-001/metrics", "demo-trace-001");
    expect(status).toBe(200);
    // Causal chain e1->e2->e4->e5->e6->e7->e8 has 7 events; no durations; 6 of 8 events are coordination;
    // e6 (trusted: false) taints e7 and e8; no stop event, so ref = terminal e8 and nothing comes after it.
    expect(body).toEqual({
      version: "baton-spec-4",
      e1: 1, // metrics.task_success = 1
      e2: { critical_steps: 7, step_parallelism: 8 / 7, busy_time: 0, makespan: 7, speedup: null, max_concurrency: 0, efficiency: null, useful_agent_utilization: 1 },
      e3: { message_redundancy: 0, dead_message_rate: 0, aggregate_diversity: 1 },
      e4: { protocol_overhead: 0.75, error_amplification: 0, tainted_events: 3, terminal_tainted: true },
      stop: { stop_reason: null, stop_t: null, tail_events: 0, tail_tokens: 0, wasted_work_ratio: 0, verdict: "ok" },
      reported: { task_success: 1, protocol_overhead: 0.18, error_amplification: 0 },
    });
  });

  it("recomputes metrics stored under another spec version (or none) and writes them back", async () => {
    await ingest(example);
    await prisma().trace.update({ where: { traceId: "demo-trace-001" }, data: { metricsVersion: "baton-spec-1", e1: 0, criticalSteps: null } });
    const { body } = await getJson<{ e1: number; e2: { critical_steps: number } }>(metrics, "/api/traces/demo-trace-001/metrics", "demo-trace-001");
    expect(body.e1).toBe(1);
    expect(body.e2.critical_steps).toBe(7);
    const row = await prisma().trace.findUniqueOrThrow({ where: { traceId: "demo-trace-001" } });
    expect(row).toMatchObject({ metricsVersion: "baton-spec-4", e1: 1, criticalSteps: 7 });
  });

  it("404 for an unknown trace", async () => {
    const { status, body } = await getJson(metrics, "/api/traces/none/metrics", "none");
    expect(status).toBe(404);
    expect(body.error.code).toBe("not_found");
  });
});

describe("GET /api/traces/{id}/credit", () => {
  it("computes CCP under the uniform preset by hand", async () => {
    await ingest(example);
    const { status, body } = await getJson<CreditBody>(credit, "/api/traces/demo-trace-001/credit", "demo-trace-001");
    expect(status).toBe(200);
    expect(body).toMatchObject({ version: "baton-spec-4", method: "ccp", preset: "uniform", normalize: false });
    // R: task_success 1 (team), orchestration 0.3, tool 0.1, parallelism 1 - 1/(8/7) = 0.125 (speedup null),
    // communication 1 - 2*0 = 1, cost min(1, 12000/100000) = 0.12; step_quality and stop_decision absent.
    expect(body.families).toEqual({ task_success: 1, step_quality: null, orchestration: 0.3, parallelism_speedup: 0.125, communication_efficiency: 1, tool_use_correctness: 0.1, stop_decision: null, cost: 0.12 });
    // R_total = 1 + 0.3 + 0.1 + 0.125 + 1 - 0.12
    expect(body.r_total).toBeCloseTo(2.405, 12);
    const ts = Object.fromEntries(body.events.map((e) => [e.id, e.by_family.task_success]));
    // 0.7^d to the terminal e8: d(e7)=1, d(e6)=2, d(e5)=3, d(e4)=4, d(e2)=d(e3)=5, d(e1)=6
    const expected = { e8: 1, e7: 0.7, e6: 0.49, e5: 0.343, e4: 0.2401, e2: 0.16807, e3: 0.16807, e1: 0.117649 };
    for (const [id, value] of Object.entries(expected)) expect(ts[id]).toBeCloseTo(value, 12);
    expect(body.events.map((e) => e.id)).toEqual(["e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8"]);
    expect(Object.keys(body.events[0]!.by_family).sort()).toHaveLength(8);
  });

  it("applies a preset and single weight overrides", async () => {
    await ingest(example);
    const { body } = await getJson<CreditBody>(credit, "/api/traces/demo-trace-001/credit?preset=code_generation&w.cost=0&method=terminal", "demo-trace-001");
    // code_generation with cost 0: 1*1 (task) + 0.3*0.1 (tool) = 1.03; terminal gives it all to e8
    expect(body.weights).toEqual({ ...BUILTIN_PRESETS.code_generation.weights, cost: 0 });
    expect(body.r_total).toBeCloseTo(1.03, 12);
    expect(body.events.find((e) => e.id === "e8")!.total).toBeCloseTo(1.03, 12);
    expect(body.events.find((e) => e.id === "e1")!.total).toBe(0);
    expect(body.events[0]!.by_family).toEqual({});
  });

  it("grpo over a group of two by hand; 422 without a group", async () => {
    const onlyTask = "w.step_quality=0&w.tool_use_correctness=0&w.orchestration=0&w.parallelism_speedup=0&w.communication_efficiency=0&w.stop_decision=0&w.cost=0";
    await ingest({ ...example, trace_id: "g-win", group_id: "g" }, { ...example, trace_id: "g-loss", group_id: "g", rewards: { team: 0 } }, { ...example, trace_id: "alone" });
    const { status, body } = await getJson<CreditBody>(credit, `/api/traces/g-win/credit?method=grpo&${onlyTask}`, "g-win");
    expect(status).toBe(200);
    // R_total 1 and 0: mean 0.5, population std 0.5, A = 0.5 / (0.5 + 1e-6) = 0.999998000004
    for (const e of body.events) expect(e.total).toBeCloseTo(0.999998000004, 12);
    const alone = await getJson(credit, "/api/traces/alone/credit?method=gigpo", "alone");
    expect(alone.status).toBe(422);
    expect(alone.body.error.code).toBe("group_too_small");
  });

  it("refuses unknown methods, presets, families and non-finite weights with the parameter as path", async () => {
    await ingest(example);
    const bad = await getJson(credit, "/api/traces/demo-trace-001/credit?method=shapley&w.charm=1&w.cost=abc&w.task_success=&normalize=2", "demo-trace-001");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d) => d.path).sort()).toEqual(["method", "normalize", "w.charm", "w.cost", "w.task_success"]);
    const preset = await getJson(credit, "/api/traces/demo-trace-001/credit?preset=nope", "demo-trace-001");
    expect(preset.status).toBe(400);
    expect(preset.body.error.details[0]!.path).toBe("preset");
    expect((await getJson(credit, "/api/traces/zzz/credit", "zzz")).status).toBe(404);
  });
});

describe("presets", () => {
  it("stores the four built-in presets exactly as lib/rewards defines them, and user presets", async () => {
    const { body } = await getJson<{ presets: { name: string; weights: Record<string, number>; token_budget: number; builtin: boolean }[] }>(getPresets, "/api/presets");
    const builtins = body.presets.filter((p) => p.builtin);
    expect(Object.fromEntries(builtins.map((p) => [p.name, { name: p.name, weights: p.weights, token_budget: p.token_budget }]))).toEqual(JSON.parse(JSON.stringify(BUILTIN_PRESETS)));
    const weights = { ...BUILTIN_PRESETS.uniform.weights, cost: -0.5 };
    const created = await postPreset(jsonRequest("/api/presets", { name: "mine", weights, token_budget: 5000 }), params({}));
    expect(created.status).toBe(201);
    await ingest(example);
    const { body: c } = await getJson<CreditBody>(credit, "/api/traces/demo-trace-001/credit?preset=mine", "demo-trace-001");
    // cost R = min(1, 12000/5000) = 1 with weight -0.5: 1 + 0.3 + 0.1 + 0.125 + 1 - 0.5 = 2.025
    expect(c.r_total).toBeCloseTo(2.025, 12);
    const invalid = await postPreset(jsonRequest("/api/presets", { name: "uniform", weights: { task_success: "x" }, token_budget: -1 }), params({}));
    expect(invalid.status).toBe(400);
    const paths = ((await invalid.json()) as ErrorBody).error.details.map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(["$.name", "$.weights.task_success", "$.token_budget"]));
    expect((await postPreset(jsonRequest("/api/presets", { name: "mine", weights }), params({}))).status).toBe(409);
  });
});

describe("GET /api/metrics", () => {
  it("aggregates stored metrics: E1 rate with its Wilson interval, means, medians, verdicts", async () => {
    await ingest(
      { ...example, trace_id: "a", system: "s1" },
      { ...example, trace_id: "b", system: "s1", metrics: { task_success: 0 } },
      { ...example, trace_id: "c", system: "s2", rewards: {}, metrics: {} },
    );
    const { status, body } = await getJson<{ traces: number; e1: Record<string, number | null>; e2: Record<string, { mean: number | null; median: number | null }>; verdicts: Record<string, number> }>(aggregate, "/api/metrics?system=s1");
    expect(status).toBe(200);
    expect(body.traces).toBe(2);
    // 1 success of n = 2: Wilson with z = 1.959963984540054: centre 0.5, half-width 0.40546879426576926
    expect(body.e1.rate).toBe(0.5);
    expect(body.e1.n).toBe(2);
    expect(body.e1.low).toBeCloseTo(0.09453120573423074, 12);
    expect(body.e1.high).toBeCloseTo(0.9054687942657693, 12);
    expect(body.e2.critical_steps).toEqual({ mean: 7, median: 7 });
    expect(body.e2.speedup).toEqual({ mean: null, median: null });
    // a: E1 1, nothing after the terminal -> ok; b: E1 0 and spawned planner_1 never returns -> premature
    expect(body.verdicts).toEqual({ ok: 1, premature: 1, late: 0, unknown: 0 });
    const all = await getJson<{ traces: number; e1: { n: number }; verdicts: Record<string, number> }>(aggregate, "/api/metrics");
    expect(all.body.traces).toBe(3);
    expect(all.body.e1.n).toBe(2); // c has no E1
    expect(all.body.verdicts.unknown).toBe(1);
    const bad = await getJson(aggregate, "/api/metrics?topology=ring&colour=red");
    expect(bad.status).toBe(400);
  });
});
