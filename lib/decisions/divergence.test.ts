import { describe, expect, it } from "vitest";
import { contrastChoices, traceChoices } from "./choices";
import { ENDED, groupDivergence, readableKey, type DivergenceRollout } from "./divergence";
import { orch, rollout } from "./fixtures";

const ev = (type: DivergenceRollout["events"][number]["type"], agent: string, extra: { role?: string; tool?: string; content_ref?: string } = {}, id: string = type) => ({ id, type, agent, ...extra });

describe("groupDivergence", () => {
  // step 0 and 1 agree on both sides; at step 2 the successes call sql.run, one failure answers, one calls sql.run too
  const plan = ev("orchestrator_decision", "orch", { role: "orchestrator" }, "d");
  const spawn = ev("spawn", "orch", { role: "orchestrator" }, "s");
  const s1: DivergenceRollout = { trace_id: "s1", e1: 1, events: [plan, spawn, ev("tool_call", "w", { role: "coder", tool: "sql.run" }, "c1")] };
  const s2: DivergenceRollout = { trace_id: "s2", e1: 1, events: [plan, spawn, ev("tool_call", "w", { role: "coder", tool: "sql.run" }, "c2"), ev("aggregate", "orch")] };
  const f1: DivergenceRollout = { trace_id: "f1", e1: 0, events: [plan, spawn, ev("aggregate", "orch", {}, "a1")] };
  const f2: DivergenceRollout = { trace_id: "f2", e1: 0, events: [plan, spawn, ev("tool_call", "w", { role: "coder", tool: "sql.run" }, "c3")] };
  const unlabelled: DivergenceRollout = { trace_id: "u", e1: null, events: [ev("message", "x")] };

  it("is the first step whose key sets differ, with each rollout's event there", () => {
    expect(groupDivergence([s1, s2, f1, f2, unlabelled])).toEqual({
      step: 2,
      success_keys: ["coder · tool_call · sql.run"],
      failure_keys: ["coder · tool_call · sql.run", "orch · aggregate"],
      marks: [
        { trace_id: "s1", side: "success", event_id: "c1", key: "coder · tool_call · sql.run", distinct: false },
        { trace_id: "s2", side: "success", event_id: "c2", key: "coder · tool_call · sql.run", distinct: false },
        { trace_id: "f1", side: "failure", event_id: "a1", key: "orch · aggregate", distinct: true },
        { trace_id: "f2", side: "failure", event_id: "c3", key: "coder · tool_call · sql.run", distinct: false },
      ],
    });
  });

  it("an ended rollout counts as the key (ended)", () => {
    const d = groupDivergence([s2, f2]);
    expect(d).toMatchObject({ step: 3, success_keys: ["orch · aggregate"], failure_keys: [ENDED] });
    expect(d?.marks[1]).toEqual({ trace_id: "f2", side: "failure", event_id: null, key: ENDED, distinct: true });
  });

  it("is null without both sides, or when the sides never differ", () => {
    expect(groupDivergence([s1, s2, unlabelled])).toBeNull();
    expect(groupDivergence([s1, { ...f2, trace_id: "f" }])).toBeNull();
    expect(groupDivergence([])).toBeNull();
  });

  it("shows keys as role · type · ref", () => {
    expect(readableKey("coder\u0000tool_call\u0000sql.run")).toBe("coder · tool_call · sql.run");
    expect(readableKey("orch\u0000aggregate\u0000")).toBe("orch · aggregate");
  });
});

describe("contrastChoices", () => {
  const delegating = rollout("a", true, [
    { type: "orchestrator_decision", ...orch, decision: "delegate", to: "lead" },
    { type: "spawn", ...orch, to: "lead" },
    { type: "message", agent: "lead", role: "sub_lead" },
    { type: "orchestrator_decision", ...orch, decision: "stop", reason: "quality_met" },
  ]);
  const spawning = rollout("b", false, [
    { type: "orchestrator_decision", ...orch, decision: "spawn" },
    { type: "spawn", ...orch, to: "w" },
    { type: "orchestrator_decision", ...orch, decision: "stop", reason: "quality_met" },
  ]);

  it("lists the choices of a trace", () => {
    expect(traceChoices(delegating)).toEqual(["decision delegate", "decision stop", "delegate → sub_lead", "spawn → sub_lead", "stop: quality_met"]);
    expect(traceChoices(spawning)).toEqual(["decision spawn", "decision stop", "spawn → w", "stop: quality_met"]);
  });

  it("keeps the choices only one side made, with how many rollouts made them", () => {
    const c = contrastChoices([
      { e1: 1, choices: traceChoices(delegating) },
      { e1: 1, choices: ["decision delegate"] },
      { e1: 0, choices: traceChoices(spawning) },
      { e1: null, choices: ["decision aggregate"] },
    ]);
    expect(c.success_only).toEqual([{ choice: "decision delegate", rollouts: 2 }, { choice: "delegate → sub_lead", rollouts: 1 }, { choice: "spawn → sub_lead", rollouts: 1 }]);
    expect(c.failure_only).toEqual([{ choice: "decision spawn", rollouts: 1 }, { choice: "spawn → w", rollouts: 1 }]);
  });
});
