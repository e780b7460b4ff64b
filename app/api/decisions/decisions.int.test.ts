import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { DECISIONS, decisionRecord, decisionReport, tallyRows, type DecisionReport, type DecisionRow } from "@/lib/decisions";
import { orch, rollout } from "@/lib/decisions/fixtures";
import { sqlRolloutGroup, SQL_GROUP_ID } from "@/lib/demo/scenarios/sql-rollout-group";
import { computeMetrics } from "@/lib/metrics";
import { humanLabels } from "@/lib/server/queries/annotations";
import { loadTrace } from "@/lib/server/queries/load-trace";
import { prisma } from "@/lib/server/db/client";
import { setSummaries } from "@/lib/server/summaries/read";
import { getRequest, jsonRequest, params, type ErrorBody } from "@/scripts/lib/test-http";
import type { GroupView } from "@/lib/decisions/view";
import { foldDecisionSummaries, pendingRows } from "@/lib/server/summaries/fold";
import { GET as credit } from "../traces/[id]/credit/route";
import { POST as annotate } from "../traces/[id]/annotations/route";
import { POST } from "../traces/route";
import { GET as group } from "../groups/[group_id]/route";
import { GET as decisions } from "./route";

/*
 * Group "dg" (task-1), by hand: s1 and s2 succeed: plan, spawn a coder, the coder runs sql, returns,
 * aggregate, stop (complete). f1 fails the same way except that the coder sends a message instead of
 * running sql and the stop is budget_exhausted; f2 fails without spawning: plan, aggregate, stop (max_turns).
 */
const succeed = (id: string, group = "dg", policy = "ckpt-1") => rollout(id, true, [
  { type: "orchestrator_decision", ...orch, decision: "spawn" },
  { type: "spawn", ...orch, to: "w1" },
  { type: "tool_call", agent: "w1", role: "coder", tool: "sql" },
  { type: "return", agent: "w1", role: "coder", from: "w1", to: "orch" },
  { type: "aggregate", ...orch },
  { type: "orchestrator_decision", ...orch, decision: "stop", reason: "complete" },
], { group, policy });
const hand = [
  succeed("dg-s1"),
  succeed("dg-s2"),
  rollout("dg-f1", false, [
    { type: "orchestrator_decision", ...orch, decision: "spawn" },
    { type: "spawn", ...orch, to: "w1" },
    { type: "message", agent: "w1", role: "coder" },
    { type: "aggregate", ...orch },
    { type: "orchestrator_decision", ...orch, decision: "stop", reason: "budget_exhausted" },
  ], { group: "dg", policy: "ckpt-1" }),
  rollout("dg-f2", false, [
    { type: "orchestrator_decision", ...orch, decision: "continue" },
    { type: "aggregate", ...orch },
    { type: "orchestrator_decision", ...orch, decision: "stop", reason: "max_turns" },
  ], { group: "dg", policy: "ckpt-2" }),
  // group "dc", both rollouts in one cell (ckpt-3): one spawns and succeeds, one does not and fails
  succeed("dc-s", "dc", "ckpt-3"),
  rollout("dc-f", false, [
    { type: "orchestrator_decision", ...orch, decision: "continue" },
    { type: "aggregate", ...orch },
    { type: "orchestrator_decision", ...orch, decision: "stop", reason: "max_turns" },
  ], { group: "dc", policy: "ckpt-3" }),
];

async function get<T>(handler: (r: Request, c: { params: Promise<never> }) => Promise<Response>, url: string, p: Record<string, string> = {}) {
  const response = await handler(getRequest(url), params(p) as { params: Promise<never> });
  return { status: response.status, body: (await response.json()) as T & ErrorBody };
}

/** Numbers rounded to 1e-9 (SQL and JS add in different orders), for a deep comparison. */
const rounded = (x: unknown) => JSON.parse(JSON.stringify(x, (_k, v: unknown) => (typeof v === "number" ? Math.round(v * 1e9) / 1e9 : v))) as unknown;

beforeAll(async () => {
  await prisma().trace.deleteMany();
  await prisma().annotation.deleteMany({ where: { traceKey: { in: hand.map((t) => t.trace_id) } } });
  expect((await POST(jsonRequest("/api/traces", [...hand, ...sqlRolloutGroup()]), params({}))).status).toBe(201);
});

describe("GET /api/groups/{group_id}", () => {
  it("gives each rollout's E1, R_total and the grpo advantage of the credit API", async () => {
    const { status, body } = await get<GroupView>(group, "/api/groups/dg", { group_id: "dg" });
    expect(status).toBe(200);
    expect(body.version).toBe("baton-spec-4");
    expect(Object.fromEntries(body.rollouts.map((r) => [r.trace_id, r.e1]))).toEqual({ "dg-s1": 1, "dg-s2": 1, "dg-f1": 0, "dg-f2": 0 });
    expect(body.rollouts.slice(0, 2).map((r) => r.trace_id)).toEqual(["dg-s1", "dg-s2"]); // successes first
    for (const r of body.rollouts) {
      const c = await get<{ r_total: number; events: { total: number }[] }>(credit, `/api/traces/${r.trace_id}/credit?method=grpo`, { id: r.trace_id });
      expect(r.r_total).toBeCloseTo(c.body.r_total, 12);
      expect(r.advantage).toBeCloseTo(c.body.events[0]!.total, 12);
    }
    expect(body.e1).toMatchObject({ rate: 0.5, n: 4 });
  });

  it("marks where the rollouts part ways and the choices only one side made", async () => {
    const { body } = await get<GroupView>(group, "/api/groups/dg", { group_id: "dg" });
    // step 0: every rollout plans (orchestrator_decision); step 1: the successes spawn, f1 spawns too, f2 aggregates
    expect(body.divergence).toEqual({
      step: 1,
      success_keys: ["orchestrator · spawn"],
      failure_keys: ["orchestrator · aggregate", "orchestrator · spawn"],
      marks: [
        { trace_id: "dg-s1", side: "success", event_id: "e2", key: "orchestrator · spawn", distinct: false },
        { trace_id: "dg-s2", side: "success", event_id: "e2", key: "orchestrator · spawn", distinct: false },
        { trace_id: "dg-f1", side: "failure", event_id: "e2", key: "orchestrator · spawn", distinct: false },
        { trace_id: "dg-f2", side: "failure", event_id: "e2", key: "orchestrator · aggregate", distinct: true },
      ],
    });
    expect(body.decisions).toEqual({
      success_only: [{ choice: "stop: complete", rollouts: 2 }],
      failure_only: [{ choice: "decision continue", rollouts: 1 }, { choice: "stop: budget_exhausted", rollouts: 1 }, { choice: "stop: max_turns", rollouts: 1 }],
    });
    const lane = body.rollouts.find((r) => r.trace_id === "dg-f2")!;
    expect(lane.events.map((e) => [e.step, e.key])).toEqual([[0, "orchestrator · orchestrator_decision"], [1, "orchestrator · aggregate"], [2, "orchestrator · orchestrator_decision"]]);
  });

  it("the demo group parts ways and shows its checkpoint", async () => {
    const { status, body } = await get<GroupView>(group, `/api/groups/${SQL_GROUP_ID}`, { group_id: SQL_GROUP_ID });
    expect(status).toBe(200);
    expect(body.rollouts).toHaveLength(4);
    expect(body.rollouts.every((r) => r.policy_version === "ckpt-1840")).toBe(true);
    expect(body.divergence).not.toBeNull();
  });

  it("answers 404 for an unknown group and 400 for an empty id", async () => {
    const missing = await get(group, "/api/groups/nope", { group_id: "nope" });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("not_found");
    const empty = await get(group, "/api/groups/%20", { group_id: " " });
    expect(empty.status).toBe(400);
    expect(empty.body.error.details[0]!.path).toBe("group_id");
  });
});

describe("GET /api/decisions", () => {
  it("over group dg: taken vs not, buckets and the within-group difference, by hand", async () => {
    const { status, body } = await get<DecisionReport>(decisions, "/api/decisions?group_id=dg");
    expect(status).toBe(200);
    expect(body.traces).toBe(4);
    const spawn = body.decisions.find((d) => d.key === "spawn")!;
    expect(spawn.taken.e1).toMatchObject({ rate: 2 / 3, n: 3 });
    expect(spawn.not_taken.e1).toMatchObject({ rate: 0, n: 1 });
    // one stratum: with 2/3, without 0/1; RD = 2/3, Var = 2/3*1/3/3 + 0 = 2/27
    expect(spawn.within_group.estimate).toBeCloseTo(2 / 3, 12);
    expect(spawn.within_group.low).toBeCloseTo(2 / 3 - 1.959963984540054 * Math.sqrt(2 / 27), 12);
    expect(spawn.within_group).toMatchObject({ groups: 1, with: 3, without: 1, high: 1 });
    expect(spawn.buckets[0]!.rows.map((r) => [r.bucket, r.traces])).toEqual([["0", 1], ["1", 3]]);
    const stop = body.decisions.find((d) => d.key === "stop")!;
    expect(stop.buckets[0]!.rows.map((r) => [r.bucket, r.traces, r.e1.rate])).toEqual([["budget_exhausted", 1, 0], ["complete", 2, 1], ["max_turns", 1, 0]]);
    // every rollout stops: no mixed group, no estimate
    expect(stop.within_group).toMatchObject({ estimate: null, low: null, high: null, groups: 0 });
    expect(body.checkpoints.map((c) => [c.policy_version, c.traces, c.taken.spawn])).toEqual([["ckpt-1", 3, 3], ["ckpt-2", 1, 0]]);
    expect(body.caveat).toMatch(/^Observational/);
  });

  it("SQL over the stored columns equals the same report computed in JS from the traces", async () => {
    const { body } = await get<DecisionReport>(decisions, "/api/decisions");
    const rows: DecisionRow[] = [];
    for (const t of [...hand, ...sqlRolloutGroup()]) {
      const trace = await loadTrace(t.trace_id);
      const { labels } = await humanLabels(t.trace_id);
      const m = computeMetrics(trace, labels);
      const r = decisionRecord(trace, labels);
      rows.push({
        group_id: trace.group_id ?? null, e1: m.e1, r_total: r.r_total, policy_version: r.features.policy_version, stop_reason: m.stop.stop_reason, verdict: m.stop.verdict,
        taken: { spawn: r.features.spawn_taken, delegate: r.features.delegate_taken, communicate: r.features.communicate_taken, aggregate: r.features.aggregate_taken, stop: r.features.stop_taken },
        buckets: r.buckets,
      });
    }
    expect(rounded(body)).toEqual(rounded(decisionReport(tallyRows(rows))));
    expect(body.decisions.map((d) => d.key)).toEqual(DECISIONS.map((d) => d.key));
  });

  it("from the decision summaries (a checkpoint is a grain): ckpt-1 by hand, group dg split between two cells, group dc in one, equal to the scan", async () => {
    // ckpt-1 holds dg-s1, dg-s2 (succeed) and dg-f1 (fails): all three spawn, so no group has both arms of spawn
    const { body } = await get<DecisionReport>(decisions, "/api/decisions?policy_version=ckpt-1");
    expect(body.traces).toBe(3);
    const spawn = body.decisions.find((d) => d.key === "spawn")!;
    expect(spawn.taken.e1).toMatchObject({ rate: 2 / 3, n: 3 });
    expect(spawn.not_taken).toMatchObject({ traces: 0, mean_r_total: null, e1: { n: 0 } });
    expect(spawn.within_group).toMatchObject({ estimate: null, groups: 0, with: 0, without: 0 });
    const stop = body.decisions.find((d) => d.key === "stop")!;
    expect(stop.buckets[0]!.rows.map((r) => [r.bucket, r.traces, r.e1.rate])).toEqual([["budget_exhausted", 1, 0], ["complete", 2, 1]]);
    expect(body.checkpoints.map((c) => [c.policy_version, c.traces, c.taken.spawn])).toEqual([["ckpt-1", 3, 3]]);
    // over all traces, dg's rows lie in the cells of ckpt-1 and ckpt-2: its counts add up again, so spawn's difference is the group_id=dg one
    const all = (await get<DecisionReport>(decisions, "/api/decisions")).body;
    const byGroup = (await get<DecisionReport>(decisions, "/api/decisions?group_id=dg")).body;
    const demo = (await get<DecisionReport>(decisions, "/api/decisions?policy_version=ckpt-1840")).body;
    const within = (r: DecisionReport) => r.decisions.find((d) => d.key === "spawn")!.within_group;
    // group dc lies in one cell: its terms come from the cell's stored sums. One stratum, with 1/1, without 0/1:
    // numerator (1·1 − 0·1)/2 = 1/2, weight 1·1/2 = 1/2, so the estimate 1; variance (1·0·1 + 0·1·1)/(1·1·4) = 0
    const contained = (await get<DecisionReport>(decisions, "/api/decisions?policy_version=ckpt-3")).body;
    expect(within(contained)).toMatchObject({ estimate: 1, low: 1, high: 1, groups: 1, with: 1, without: 1 });
    expect(within(all).groups).toBe(within(byGroup).groups + within(demo).groups + within(contained).groups);
    expect(within(all).with).toBe(within(byGroup).with + within(demo).with + within(contained).with);
    for (const query of ["", "policy_version=ckpt-1", "policy_version=ckpt-2", "policy_version=ckpt-3", "policy_version=nope", "from=2020-01-01&to=2020-01-02"]) {
      const summary = (await get<DecisionReport>(decisions, `/api/decisions?${query}`)).body;
      setSummaries(false);
      try {
        expect(rounded(summary), query).toEqual(rounded((await get<DecisionReport>(decisions, `/api/decisions?${query}`)).body));
      } finally {
        setSummaries(true);
      }
    }
  });

  it("filters by checkpoint; validates every parameter", async () => {
    expect((await get<DecisionReport>(decisions, "/api/decisions?policy_version=ckpt-1840")).body.traces).toBe(4);
    expect((await get<DecisionReport>(decisions, "/api/decisions?group_id=dg&policy_version=ckpt-2")).body.traces).toBe(1);
    const bad = await get(decisions, `/api/decisions?from=2026-02-01&to=2026-01-01&policy_version=${"x".repeat(513)}&colour=red`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d) => d.path)).toEqual(expect.arrayContaining(["$", "policy_version"]));
    expect((await get(decisions, "/api/decisions?from=2026-02-01&to=2026-01-01")).body.error.details.map((d) => d.path)).toEqual(["to"]);
  });

  it("a trace-level label changes the stored R_total", async () => {
    const before = (await get<DecisionReport>(decisions, "/api/decisions?group_id=dg&policy_version=ckpt-2")).body.overall.mean_r_total!;
    const response = await annotate(jsonRequest("/api/traces/dg-f2/annotations", { family: "step_quality", value: 1 }), params({ id: "dg-f2" }));
    expect(response.status).toBe(201);
    const after = (await get<DecisionReport>(decisions, "/api/decisions?group_id=dg&policy_version=ckpt-2")).body.overall.mean_r_total!;
    // step_quality had no value (no automatic one, no reward channel): the label makes R = 1, weight 1 under uniform
    expect(after - before).toBeCloseTo(1, 12);
  });

  it("a task_success label on a rollout of a group in one cell: read while pending and once folded into the cell's stored sums, by hand", async () => {
    // dc-s (spawns, succeeds) labelled a failure: dc's one stratum now has with 0/1, without 0/1: numerator (0·1 − 0·1)/2 = 0,
    // weight 1/2, so the estimate 0; variance 0. The trace's E1 changes value (not whether it has one): the triggers' values-only path,
    // which appends the change to decision_pending; the read adds it to the cell's stored sums
    const response = await annotate(jsonRequest("/api/traces/dc-s/annotations", { family: "task_success", value: 0 }), params({ id: "dc-s" }));
    expect(response.status).toBe(201);
    expect(await pendingRows()).toBeGreaterThan(0);
    const contained = (await get<DecisionReport>(decisions, "/api/decisions?policy_version=ckpt-3")).body;
    const spawn = contained.decisions.find((d) => d.key === "spawn")!;
    expect(spawn.within_group).toMatchObject({ estimate: 0, low: 0, high: 0, groups: 1, with: 1, without: 1 });
    expect(spawn.taken.e1).toMatchObject({ rate: 0, n: 1 });
    expect(contained.overall.e1).toMatchObject({ rate: 0, n: 2 });
    setSummaries(false);
    try {
      expect(rounded(contained)).toEqual(rounded((await get<DecisionReport>(decisions, "/api/decisions?policy_version=ckpt-3")).body));
    } finally {
      setSummaries(true);
    }
    // folded in: the cell's sums moved in place, the same answer
    await foldDecisionSummaries();
    expect(await pendingRows()).toBe(0);
    expect(rounded((await get<DecisionReport>(decisions, "/api/decisions?policy_version=ckpt-3")).body)).toEqual(rounded(contained));
  });

  it("one statement that flips E1 and moves R_total of rollouts in two cells: the cells' stored sums, by hand, equal to the scan", async () => {
    // several traces in one statement, each changing values only (the set-based values-only path); dc-s is at E1 0 (above)
    const flip = (ids: string[]) => prisma().$executeRaw`WITH t AS (UPDATE traces SET e1 = 1 - e1 WHERE trace_id = ANY(${ids}) RETURNING id)
      UPDATE trace_decisions d SET r_total = d.r_total + 0.25 FROM t WHERE d.trace_id = t.id`;
    // while pending, and once folded in
    const check = async (estimate: number) => {
      await checkOnce(estimate);
      await foldDecisionSummaries();
      await checkOnce(estimate);
    };
    const checkOnce = async (estimate: number) => {
      const summary = (await get<DecisionReport>(decisions, "/api/decisions")).body;
      const contained = (await get<DecisionReport>(decisions, "/api/decisions?policy_version=ckpt-3")).body;
      expect(contained.decisions.find((d) => d.key === "spawn")!.within_group).toMatchObject({ estimate, groups: 1, with: 1, without: 1 });
      setSummaries(false);
      try {
        expect(rounded(summary)).toEqual(rounded((await get<DecisionReport>(decisions, "/api/decisions")).body));
        expect(rounded(contained)).toEqual(rounded((await get<DecisionReport>(decisions, "/api/decisions?policy_version=ckpt-3")).body));
      } finally {
        setSummaries(true);
      }
    };
    // dc-s back to 1: with 1/1, without 0/1, numerator 1/2, weight 1/2: the estimate 1
    await flip(["dc-s", "dg-s1"]);
    await check(1);
    // and to 0 again: the cell's sums lose the terms they gained (the numerator back to 0: the estimate 0)
    await flip(["dc-s", "dg-s1"]);
    await check(0);
  });

  it("a role twice in a trace's delegated roles counts twice, also when its E1 then changes alone", async () => {
    // written by hand (the recorder writes each role once): the tallies count the role's row twice, as the scan does;
    // then E1 alone changes (values only, one trace): its row moves by twice the difference (the set-based path: a key twice)
    await prisma().$executeRaw`UPDATE trace_decisions d SET delegate_role_buckets = ARRAY['coder', 'coder'] FROM traces t WHERE d.trace_id = t.id AND t.trace_id = 'dc-s'`;
    const coder = async () => {
      const report = (await get<DecisionReport>(decisions, "/api/decisions?policy_version=ckpt-3")).body;
      setSummaries(false);
      try {
        expect(rounded(report)).toEqual(rounded((await get<DecisionReport>(decisions, "/api/decisions?policy_version=ckpt-3")).body));
      } finally {
        setSummaries(true);
      }
      return report.decisions.find((d) => d.key === "delegate")!.buckets.flatMap((b) => b.rows).find((r) => r.bucket === "coder")!;
    };
    expect(await coder()).toMatchObject({ traces: 2, e1: { n: 2, rate: 0 } });
    await prisma().$executeRaw`UPDATE traces SET e1 = 1 - e1 WHERE trace_id = 'dc-s'`;
    expect(await coder()).toMatchObject({ traces: 2, e1: { n: 2, rate: 1 } });
  });
});

describe("any query answers 200 or a 4xx with the error shape, never a 500", () => {
  const key = fc.constantFrom("project", "system", "task_id", "group_id", "topology", "policy_version", "from", "to", "x");
  it("GET /api/decisions and GET /api/groups/{group_id}", async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.tuple(key, fc.string({ unit: "binary", maxLength: 20 })), { maxLength: 4 }), fc.string({ unit: "binary", maxLength: 30 }), async (pairs, groupId) => {
      const q = new URLSearchParams(pairs).toString();
      const d = await decisions(getRequest(`/api/decisions?${q}`), params({}));
      const g = await group(getRequest(`/api/groups/${encodeURIComponent(groupId)}`), params({ group_id: groupId }));
      for (const r of [d, g]) {
        expect([200, 400, 404]).toContain(r.status);
        const body = (await r.json()) as Partial<ErrorBody> & { version?: string };
        if (r.status === 200) expect(body.version).toBe("baton-spec-4");
        else expect(body.error!.details).toBeInstanceOf(Array);
      }
    }), { numRuns: 60 });
  });
});
