import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import type { HeatmapModel } from "@/lib/heatmap";
import { NO_JUDGES } from "@/lib/judges";
import { resolvePreset } from "@/lib/rewards";
import { FAMILIES } from "@/lib/trace/types";
import { POST as annotate } from "@/app/api/traces/[id]/annotations/route";
import { POST as ingest } from "@/app/api/traces/route";
import { localUser } from "../auth/access";
import { pool, prisma } from "../db/client";
import { userPresets } from "../queries/presets";
import { getRequest, jsonRequest, params } from "@/scripts/lib/test-http";
import type { CreditQuery } from "./credit";
import { roleFamilyHeatmap } from "./heatmap";
import { keepsRoleSums, roleSumsOfTraces } from "./role-sums";

/*
 * Role sums kept per trace and credit setting: read back while the trace's
 * labels and the preset's weights are what they were computed from, computed
 * again when either changes, and always equal to the sums computed per
 * request (the same setting with its weights given as overrides, which is
 * never kept).
 */
const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>;
const IDS = ["rs-a", "rs-b", "rs-c"];
const CCP: CreditQuery = { method: "ccp", preset: "uniform", normalize: false, overrides: {}, judges: NO_JUDGES };

async function store(traces: Record<string, unknown>[], upsert = false) {
  const response = await ingest(jsonRequest(`/api/traces${upsert ? "?upsert=1" : ""}`, traces), params({}));
  expect(response.status).toBe(201);
}

async function traceRows() {
  return (await pool().query<{ id: number; trace_id: string }>("SELECT id, trace_id FROM traces WHERE trace_id = ANY($1) ORDER BY created_at, id", [IDS])).rows;
}

async function read(query: CreditQuery) {
  const preset = resolvePreset(query.preset, query.overrides, await userPresets())!;
  return roleSumsOfTraces(await traceRows(), query, preset);
}

/** The same setting computed per request: its weights given as overrides (never kept). */
async function computed(query: CreditQuery): Promise<HeatmapModel> {
  const { weights } = resolvePreset(query.preset, {}, await userPresets())!;
  const withWeights = { ...query, overrides: Object.fromEntries(FAMILIES.map((f) => [f, weights[f]])) };
  expect(keepsRoleSums(withWeights)).toBe(false);
  return roleFamilyHeatmap({ group_id: "rs-g" }, { kind: "role-family", max_traces: 200 }, withWeights);
}

async function kept(query: CreditQuery): Promise<HeatmapModel> {
  expect(keepsRoleSums(query)).toBe(true);
  return roleFamilyHeatmap({ group_id: "rs-g" }, { kind: "role-family", max_traces: 200 }, query);
}

const grid = (m: HeatmapModel) => ({ rows: m.rows, columns: m.columns, cells: m.cells, domain: m.domain, notes: m.notes });

beforeEach(async () => {
  await prisma().trace.deleteMany();
  await prisma().preset.deleteMany({ where: { builtin: false } });
  const traceKey = { in: IDS };
  await Promise.all([prisma().annotation.deleteMany({ where: { traceKey } }), prisma().adjudication.deleteMany({ where: { traceKey } })]);
  await store([
    { ...example, trace_id: "rs-a", group_id: "rs-g" },
    { ...example, trace_id: "rs-b", group_id: "rs-g", rewards: { team: 1 } },
    { ...example, trace_id: "rs-c", group_id: "rs-g", rewards: { team: 0, orchestration: -0.5 } },
  ]);
});

describe("role sums kept per trace and setting", () => {
  it("are computed once, then read back, and equal the sums computed per request", async () => {
    expect(await read(CCP)).toMatchObject({ kept: 0, computed: 3 });
    expect(await read(CCP)).toMatchObject({ kept: 3, computed: 0 });
    const count = await prisma().roleCreditSums.count();
    expect(count).toBe(3);
    const fromKept = await kept(CCP);
    expect(grid(fromKept)).toEqual(grid(await computed(CCP)));
    // the example's hand-computed cell: the executor's tool use is 0.1 in rs-a, 1 in rs-b (an automatic +1) and 1 in rs-c
    expect(fromKept.cells[2]![5]!.value).toBeCloseTo((0.1 + 1 + 1) / 3, 9);
    // another method, preset or normalize is another setting, kept beside the first
    await kept({ ...CCP, method: "uniform" });
    await kept({ ...CCP, normalize: true });
    expect(await prisma().roleCreditSums.count()).toBe(9);
    expect(grid(await kept({ ...CCP, method: "uniform" }))).toEqual(grid(await computed({ ...CCP, method: "uniform" })));
  });

  it("are computed again for a trace whose labels changed (a label, then an adjudication), and only for it", async () => {
    const before = await kept(CCP);
    const lead = await annotate(jsonRequest("/api/traces/rs-b/annotations", { family: "step_quality", event_id: "e1", value: -1 }), params({ id: "rs-b" }));
    expect(lead.status).toBe(201);
    expect(await read(CCP)).toMatchObject({ kept: 2, computed: 1 });
    const afterLabel = await kept(CCP);
    expect(grid(afterLabel)).toEqual(grid(await computed(CCP)));
    // step quality was absent from every trace; the lead's e1 now has it in rs-b
    expect(before.cells[0]![1]!.value).toBeNull();
    expect(afterLabel.cells[0]![1]!.value).toBeLessThan(0);

    const me = await localUser();
    await prisma().adjudication.create({ data: { traceKey: "rs-c", eventId: "e4", family: "step_quality", value: 0.5, adjudicatorId: me.userId } });
    expect(await read(CCP)).toMatchObject({ kept: 2, computed: 1 });
    expect(grid(await kept(CCP))).toEqual(grid(await computed(CCP)));
    expect(await read(CCP)).toMatchObject({ kept: 3, computed: 0 });
  });

  it("are computed again when a preset's weights are edited", async () => {
    const weights = Object.fromEntries(FAMILIES.map((f) => [f, 1]));
    await prisma().preset.create({ data: { name: "rs-team", weights, tokenBudget: 1000 } });
    const team = { ...CCP, preset: "rs-team" };
    await kept(team);
    expect(await read(team)).toMatchObject({ kept: 3, computed: 0 });
    await prisma().preset.update({ where: { name: "rs-team" }, data: { weights: { ...weights, orchestration: 2 } } });
    expect(await read(team)).toMatchObject({ kept: 0, computed: 3 });
    expect(grid(await kept(team))).toEqual(grid(await computed(team)));
  });

  it("go with their trace when it is replaced (re-ingest) or deleted", async () => {
    await kept(CCP);
    const before = (await traceRows()).find((r) => r.trace_id === "rs-a")!.id;
    await store([{ ...example, trace_id: "rs-a", group_id: "rs-g", rewards: { team: 0 } }], true);
    expect(await prisma().roleCreditSums.count({ where: { traceId: before } })).toBe(0);
    expect(await read(CCP)).toMatchObject({ kept: 2, computed: 1 });
    expect(grid(await kept(CCP))).toEqual(grid(await computed(CCP)));
    await prisma().trace.deleteMany({ where: { traceId: "rs-b" } });
    expect(await prisma().roleCreditSums.count()).toBe(2);
  });

  it("serve the route: the same heatmap kept and computed, through GET /api/heatmap", async () => {
    const { GET } = await import("@/app/api/heatmap/route");
    const first = (await (await GET(getRequest("/api/heatmap?kind=role-family&group_id=rs-g"), params({}))).json()) as HeatmapModel;
    const second = (await (await GET(getRequest("/api/heatmap?kind=role-family&group_id=rs-g"), params({}))).json()) as HeatmapModel;
    expect(second).toEqual(first);
    const overridden = (await (await GET(getRequest("/api/heatmap?kind=role-family&group_id=rs-g&w.cost=-1"), params({}))).json()) as HeatmapModel;
    expect(grid(overridden)).toEqual(grid(first));
  });
});
