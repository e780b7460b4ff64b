import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { prepareTrace } from "../credit";
import { BUILTIN_PRESETS } from "../rewards/presets";
import { validateTrace } from "../trace/validate";
import type { Trace } from "../trace/types";
import { exportRows } from "./rows";
import { transitionRows } from "./transitions";

/**
 * The hand-made chain d -> s -> r -> a (lib/export/fixtures/calls-trace.json)
 * with three model calls: c1 produced d and s, c2 produced r, c3 produced a.
 * Preset code_generation (task_success 1, step_quality 0.5, tool 0.3, cost -0.1).
 *
 * r_f by hand:
 *   task_success: R = -1 at the terminal aggregate a;
 *   step_quality: no trace value (absent from R_total); r and a carry their own 0.4 and 0.2;
 *   cost: R = min(1, 10000 / 100000) = 0.1, shared by tokens 100/0/300/600 of 1000:
 *         d 0.01, s 0, r 0.03, a 0.06.
 * reward(call) = sum over its events of sum_f w_f r_f:
 *   c1 = (-0.1 x 0.01) + (-0.1 x 0) = -0.001
 *   c2 = 0.5 x 0.4 - 0.1 x 0.03 = 0.197
 *   c3 = -1 + 0.5 x 0.2 - 0.1 x 0.06 = -0.906
 * C(v), ccp: task_success decays 0.7 per hop back from a (a -1, r -0.7, s -0.49, d -0.343), the rest local:
 *   C(d) = -0.343 - 0.001 = -0.344, C(s) = -0.49, C(r) = -0.7 + 0.2 - 0.003 = -0.503, C(a) = -0.906
 *   credit: c1 = -0.834, c2 = -0.503, c3 = -0.906
 * terminal: a gets R_total = -1 - 0.1 x 0.1 = -1.01, every other event 0.
 */

function fixture(): Trace {
  const result = validateTrace(JSON.parse(readFileSync("lib/export/fixtures/calls-trace.json", "utf8")));
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.trace;
}

const preset = BUILTIN_PRESETS.code_generation;
const options = { method: "terminal" as const, preset, normalize: false, annotationsAsOf: null, hackingFlags: ["tool_spam"] };

describe("transitionRows", () => {
  const trace = fixture();
  const prepared = prepareTrace(trace);
  const rows = [...transitionRows(prepared, trace.calls!, options)];

  it("has one row per call, in call order (by t, not by position in the file)", () => {
    expect(rows.map((r) => [r.step, r.call_id])).toEqual([[0, "c1"], [1, "c2"], [2, "c3"]]);
  });

  it("gives each call the reward, ccp credit and chosen advantage of its events, computed by hand", () => {
    const expected = [
      { reward: -0.001, credit: -0.834, advantage: 0 },
      { reward: 0.197, credit: -0.503, advantage: 0 },
      { reward: -0.906, credit: -0.906, advantage: -1.01 },
    ];
    rows.forEach((row, i) => {
      expect(row.reward).toBeCloseTo(expected[i]!.reward, 12);
      expect(row.credit).toBeCloseTo(expected[i]!.credit, 12);
      expect(row.advantage).toBeCloseTo(expected[i]!.advantage, 12);
    });
  });

  it("sums the event rows it covers", () => {
    const events = new Map([...exportRows(prepared, options)].map((r) => [r.event_id, r]));
    rows.forEach((row, i) => {
      const covered = trace.calls![i]!.events.map((id) => events.get(id)!);
      const sum = (pick: (r: (typeof covered)[number]) => number) => covered.reduce((s, r) => s + pick(r), 0);
      expect(row.credit).toBeCloseTo(sum((r) => r.credit), 12);
      expect(row.advantage).toBeCloseTo(sum((r) => r.advantage), 12);
      const weighted = (r: (typeof covered)[number]) => Object.entries(r.rewards).reduce((s, [f, v]) => s + preset.weights[f as keyof typeof preset.weights] * v, 0);
      expect(row.reward).toBeCloseTo(sum(weighted), 12);
    });
  });

  it("carries prompt, response, token ids, role, anchor and the caller's hacking flags", () => {
    expect(rows[0]).toMatchObject({
      uid: "brief-1", group_id: "g-calls", traj_uid: "calls-chain", agent: "orch", role: "orchestrator", model: "m-orch",
      prompt: [{ role: "user", content: "Write a brief." }], response: "spawn(w)",
      prompt_token_ids: [1, 2, 3], response_token_ids: [4, 5],
      anchor_obs: JSON.stringify(["orchestrator", "orchestrator_decision", ""]),
      hacking_flags: ["tool_spam"], method: "terminal", preset: "code_generation", annotations_as_of: null,
    });
    expect(rows[1]).toMatchObject({ agent: "w", role: null, model: null, prompt_token_ids: null, response_token_ids: null, anchor_obs: JSON.stringify(["w", "return", ""]) });
    expect(rows[2]!.response).toEqual({ role: "assistant", content: [{ type: "text", text: "Brief." }] });
  });

  it("with ccp, advantage is the credit", () => {
    for (const row of transitionRows(prepared, trace.calls!, { ...options, method: "ccp" })) expect(row.advantage).toBe(row.credit);
  });
});

describe("validateTrace with calls", () => {
  const raw = () => JSON.parse(readFileSync("lib/export/fixtures/calls-trace.json", "utf8")) as { calls: Record<string, unknown>[] };

  it("rejects unknown events, an event produced twice, duplicate ids, t_end before t and bad token ids, each with its path", () => {
    const bad = raw();
    bad.calls[0]!.events = ["a", "zz"];
    bad.calls[1]!.id = "c3";
    bad.calls[1]!.t_end = -1;
    bad.calls[2]!.events = ["r", "a"];
    const shape = validateTrace(bad);
    expect(shape.ok).toBe(false);
    expect(!shape.ok && shape.problems.map((p) => p.path)).toEqual(["$.calls[1].t_end"]);
    bad.calls[1]!.t_end = 0.5;
    bad.calls[1]!.prompt_token_ids = [1, 2.5];
    const ids = validateTrace(bad);
    expect(!ids.ok && ids.problems.map((p) => p.path)).toEqual(["$.calls[1].prompt_token_ids[1]"]);
    bad.calls[1]!.prompt_token_ids = [1, 2];
    const structural = validateTrace(bad);
    expect(!structural.ok && structural.problems).toEqual([
      { path: "$.calls[0].events[1]", message: 'no event has id "zz"' },
      { path: "$.calls[1].id", message: 'duplicate call id "c3" (first at calls[0])' },
      { path: "$.calls[2].events[1]", message: 'event "a" is already produced by calls[0]' },
    ]);
  });

  it("rejects unknown call fields", () => {
    const bad = raw();
    bad.calls[0]!.prompt = "x";
    const result = validateTrace(bad);
    expect(!result.ok && result.problems[0]!.path).toBe("$.calls[0]");
  });
});
