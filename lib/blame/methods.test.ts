import { describe, expect, it } from "vitest";
import { makeTrace } from "../graph/fixtures";
import { FAILED_TOOL, failedTool } from "./fixtures";
import { blameInput } from "./input";
import { METHODS, methodByName } from "./registry";
import { BlameNotApplicableError, type BlameRanking } from "./types";
import type { HeuristicMethod } from "./methods";
import type { Trace } from "../trace/types";

const heuristic = (name: string) => methodByName(name) as HeuristicMethod;
const top = (r: BlameRanking) => r.events.filter((e) => e.rank === 1).map((e) => e.id);
const topAgents = (r: BlameRanking) => r.agents.filter((a) => a.rank === 1).map((a) => a.agent);
const input = (t: Trace = failedTool(), group: Trace[] = []) => blameInput(t, group);

describe("heuristic methods on a planted culprit", () => {
  it("errors: the step that caused the failed tool result first, then the failure itself", () => {
    const r = heuristic("errors").rank(input());
    expect(top(r)).toEqual(["code1"]);
    expect(r.events[1]!.id).toBe("out1");
    expect(r.events[0]!.signals).toEqual({ status_error: 0, caused_error: 1 });
    expect(topAgents(r)).toEqual(["coder"]);
  });

  it("errors, near miss: with no failed event every event ties (no evidence, no blame)", () => {
    const clean = makeTrace({ ...FAILED_TOOL, events: FAILED_TOOL.events.map(({ status: _s, ...e }) => e) });
    const r = heuristic("errors").rank(input(clean));
    expect(new Set(r.events.map((e) => e.rank))).toEqual(new Set([1]));
  });

  it("first_step: the first step after the task, never the task giver", () => {
    const r = heuristic("first_step").rank(input());
    expect(top(r)).toEqual(["plan"]);
    expect(r.events.at(-1)!.id).toBe("task");
    expect(topAgents(r)).toEqual(["planner"]);
  });

  it("last_event and most_active_agent", () => {
    expect(top(heuristic("last_event").rank(input()))).toEqual(["answer"]);
    const active = heuristic("most_active_agent").rank(input());
    // coder and terminal both speak twice out of six non-human steps: a tie at rank 1
    expect(topAgents(active)).toEqual(["coder", "terminal"]);
    expect(top(active)).toEqual(["code1", "out1", "code2", "out2"]);
  });

  it("neg_credit_ccp: events by ascending CCP credit, agents by ascending sum (competition ranks)", () => {
    const r = heuristic("neg_credit_ccp").rank(input());
    const credits = r.events.map((e) => e.signals.credit_ccp!);
    for (let i = 1; i < credits.length; i++) expect(credits[i]!).toBeGreaterThanOrEqual(credits[i - 1]!);
    // code1: task_success -1 x 0.7^4 (four hops to the answer) + tool_use_correctness -1 (its only result failed)
    expect(top(r)).toEqual(["code1"]);
    expect(r.events[0]!.signals.credit_ccp).toBeCloseTo(-1 - 0.7 ** 4, 12);
    // then the answer itself: task_success -1 at distance 0
    expect(r.events[1]).toMatchObject({ id: "answer", rank: 2, score: 1 });
    const sums = new Map<string, number>();
    for (const e of r.events) if (e.agent !== "human") sums.set(e.agent, (sums.get(e.agent) ?? 0) + e.signals.credit_ccp!);
    // people are never suspects: the task giver is left out of the agent ranking
    expect(r.agents.map((a) => a.agent)).not.toContain("human");
    expect(r.agents.map((a) => a.agent)).toEqual([...sums.entries()].sort((a, b) => a[1] - b[1]).map(([agent]) => agent));
    for (const a of r.agents) expect(a.score).toBeCloseTo(-sums.get(a.agent)!, 12);
  });

  it("grpo, gigpo and divergence are not applicable without a group", () => {
    for (const name of ["neg_credit_grpo", "neg_credit_gigpo", "divergence"]) expect(() => heuristic(name).rank(input()), name).toThrow(BlameNotApplicableError);
    expect(METHODS.filter((m) => m.needs_group).map((m) => m.name)).toEqual(["neg_credit_grpo", "neg_credit_gigpo", "divergence"]);
  });

  it("divergence: the failed rollout's event where a successful rollout of its group took another step", () => {
    const failed = makeTrace({ ...FAILED_TOOL, group_id: "g" });
    const ok = makeTrace({
      ...FAILED_TOOL,
      trace_id: "ok",
      group_id: "g",
      events: FAILED_TOOL.events.map((e) => (e.id === "code1" ? { ...e, type: "message" as const, tool: undefined } : e.id === "out1" ? { ...e, status: undefined } : e)),
      rewards: { task_success: 1 },
      metrics: { task_success: 1 },
    });
    const r = heuristic("divergence").rank(input({ ...failed, trace_id: "failed" }, [ok]));
    expect(top(r)).toEqual(["code1"]);
  });
});
