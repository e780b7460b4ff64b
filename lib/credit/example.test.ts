import { describe, expect, it } from "vitest";
import { loadExampleTrace } from "../metrics/fixtures";
import { BUILTIN_PRESETS } from "../rewards/presets";
import { FAMILIES } from "../trace/types";
import { computeCredit, type CreditResponse } from "./index";

/*
 * The paper's example end to end under the uniform preset (weights 1, cost -1).
 *
 * Causal graph: e1 -> e2, e3 (spawns) -> e4 (message) -> e5 (tool_call)
 *   -> e6 (tool_result) -> e7 (return) -> e8 (aggregate, terminal). No tokens, no t_end.
 * R_f: task_success 1 (team), orchestration 0.3, tool 0.1 (channels);
 *   parallelism 1 - 7/8 = 0.125 (step_parallelism 8/7), communication 1 - 2 x 0 = 1,
 *   cost 12000 / 100000 = 0.12 (auto); step_quality, stop_decision absent.
 * r_f(a): task_success e8 1; orchestration e2, e3, e8 0.3/3 = 0.1; parallelism e2, e3 0.0625;
 *   communication e4 1; tool e5 0.1/1 (explicit beats the automatic +1); cost 0.12/8 = 0.015 each.
 * credit: task_success 0.7^d with d(e8..e1) = 0,1,2,3,4,5,5,6;
 *   orchestration e2, e3 0.1 each, e1 0.05 + 0.05 from them, e8 0.1 (e5..e7 within 3 hops take none).
 */
const TASK = { e1: 0.117649, e2: 0.16807, e3: 0.16807, e4: 0.2401, e5: 0.343, e6: 0.49, e7: 0.7, e8: 1 };
const ORCH = { e1: 0.1, e2: 0.1, e3: 0.1, e4: 0, e5: 0, e6: 0, e7: 0, e8: 0.1 };
const TOTAL = {
  e1: 0.117649 + 0.1 - 0.015, // 0.202649
  e2: 0.16807 + 0.1 + 0.0625 - 0.015, // 0.31557
  e3: 0.16807 + 0.1 + 0.0625 - 0.015,
  e4: 0.2401 + 1 - 0.015, // 1.2251
  e5: 0.343 + 0.1 - 0.015, // 0.428
  e6: 0.49 - 0.015,
  e7: 0.7 - 0.015,
  e8: 1 + 0.1 - 0.015, // 1.085
};

const byId = (res: CreditResponse, pick: (e: CreditResponse["events"][number]) => number) =>
  Object.fromEntries(res.events.map((e) => [e.id, pick(e)]));

function expectClose(actual: Record<string, number>, expected: Record<string, number>) {
  expect(Object.keys(actual)).toEqual(Object.keys(expected));
  for (const [id, v] of Object.entries(expected)) expect(actual[id], id).toBeCloseTo(v, 9);
}

describe("the paper's example trace, ccp under uniform", () => {
  const res = computeCredit(loadExampleTrace());

  it("states method, preset, weights and version", () => {
    expect(res).toMatchObject({ version: "baton-spec-4", method: "ccp", preset: "uniform", normalize: false });
    expect(res.weights).toEqual(BUILTIN_PRESETS.uniform.weights);
    expect(res.r_total).toBeCloseTo(2.405, 9); // 1 + 0.3 + 0.125 + 1 + 0.1 - 0.12
    expect(res.families.step_quality).toBeNull();
    expect(res.families.stop_decision).toBeNull();
    expect(res.families.parallelism_speedup).toBeCloseTo(0.125, 9);
  });

  it("assigns the hand-computed credit", () => {
    expectClose(byId(res, (e) => e.by_family.task_success!), TASK);
    expectClose(byId(res, (e) => e.by_family.orchestration!), ORCH);
    expectClose(byId(res, (e) => e.by_family.parallelism_speedup!), { e1: 0, e2: 0.0625, e3: 0.0625, e4: 0, e5: 0, e6: 0, e7: 0, e8: 0 });
    expectClose(byId(res, (e) => e.by_family.communication_efficiency!), { e1: 0, e2: 0, e3: 0, e4: 1, e5: 0, e6: 0, e7: 0, e8: 0 });
    expectClose(byId(res, (e) => e.by_family.tool_use_correctness!), { e1: 0, e2: 0, e3: 0, e4: 0, e5: 0.1, e6: 0, e7: 0, e8: 0 });
    for (const e of res.events) {
      expect(e.by_family.step_quality).toBe(0);
      expect(e.by_family.stop_decision).toBe(0);
      expect(e.by_family.cost).toBeCloseTo(0.015, 9);
    }
    expectClose(byId(res, (e) => e.total), TOTAL);
  });

  it("normalizes every family with an R_f to sum to it", () => {
    const norm = computeCredit(loadExampleTrace(), { normalize: true });
    expect(norm.normalize).toBe(true);
    // task_success credits sum to 3.226889 (1 + 0.7 + 0.49 + 0.343 + 0.2401 + 2 x 0.16807 + 0.117649); scaled to 1
    const s = 3.226889;
    expectClose(
      byId(norm, (e) => e.by_family.task_success!),
      Object.fromEntries(Object.entries(TASK).map(([id, v]) => [id, v / s])),
    );
    // orchestration sums to 0.4, scaled to 0.3: 0.075 each
    expectClose(byId(norm, (e) => e.by_family.orchestration!), { e1: 0.075, e2: 0.075, e3: 0.075, e4: 0, e5: 0, e6: 0, e7: 0, e8: 0.075 });
    for (const f of FAMILIES) {
      const r = norm.families[f];
      const sum = norm.events.reduce((acc, e) => acc + e.by_family[f]!, 0);
      // families with R_f sum to it; step_quality and stop_decision have no R_f and stay 0
      expect(sum, f).toBeCloseTo(r ?? 0, 9);
    }
    // e8: 1/3.226889 + 0.075 + 0 + ... - 0.015 = 0.3698960020006886
    expect(norm.events[7]!.total).toBeCloseTo(1 / s + 0.075 - 0.015, 9);
  });
});
