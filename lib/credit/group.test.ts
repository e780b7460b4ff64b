import { describe, expect, it } from "vitest";
import { makeTrace } from "../graph/fixtures";
import { rollout, SUCCESS_ONLY } from "./fixtures";
import { computeCredit, GroupTooSmallError, type GroupMember } from "./index";

const member = (id: string, r: number, extra = false, groupId = "g1"): GroupMember => ({
  trace: makeTrace(rollout(id, r, extra, groupId)),
});
const T1 = member("t1", 1, true); // d, g, x
const T2 = member("t2", 0);
const T3 = member("t3", -1);
const OUTSIDER = member("t4", 1, false, "other");

const credit = (target: GroupMember, method: "grpo" | "gigpo", group: GroupMember[]) =>
  Object.fromEntries(
    computeCredit(target.trace, { method, preset: SUCCESS_ONLY, group }).events.map((e) => [e.id, e.total]),
  );

// R_total (task_success only): t1 1, t2 0, t3 -1; mean 0, population std sqrt(2/3) = 0.816496580927726
const STD3 = 0.816496580927726;

describe("grpo", () => {
  it("gives (R - mean) / (std + 1e-6) to every event", () => {
    const a = 1 / (STD3 + 1e-6); // 1.2247433713934262
    const res = credit(T1, "grpo", [T1, T2, T3, OUTSIDER]);
    expect(Object.keys(res)).toEqual(["d", "g", "x"]);
    for (const v of Object.values(res)) expect(v).toBeCloseTo(a, 9);
    for (const v of Object.values(credit(T2, "grpo", [T1, T2, T3]))) expect(v).toBeCloseTo(0, 9);
  });

  it("works on a group of two, with the target given or not", () => {
    // R 1 and -1: mean 0, std 1
    for (const v of Object.values(credit(T1, "grpo", [T3]))) expect(v).toBeCloseTo(1 / (1 + 1e-6), 9);
    for (const v of Object.values(credit(T3, "grpo", [T1, T3]))) expect(v).toBeCloseTo(-1 / (1 + 1e-6), 9);
  });

  it("throws a typed error below 2 traces sharing the group", () => {
    expect(() => credit(T1, "grpo", [T1, OUTSIDER])).toThrow(GroupTooSmallError);
    const noGroup = makeTrace({ ...rollout("t9", 1), group_id: undefined });
    expect(() => computeCredit(noGroup, { method: "gigpo", group: [T1, T2] })).toThrow(GroupTooSmallError);
    let error: unknown;
    try {
      credit(T1, "gigpo", []);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GroupTooSmallError);
    expect(error).toMatchObject({ code: "group_too_small", groupId: "g1", size: 1 });
  });
});

describe("gigpo", () => {
  it("adds the step advantage within each (role or agent, type, content_ref or tool) group", () => {
    // mc returns (only g has a reward, i_g = R): t1 d 0.95, g 1, x 0; t2 all 0; t3 d -0.95, g -1.
    // key (lead, orchestrator_decision, plan): 0.95, 0, -0.95 -> mean 0, std 0.95 x STD3
    // key (lead, aggregate, final): 1, 0, -1 -> mean 0, std STD3
    // key (A, tool_call, calc): x alone -> A_S = 0
    const aGrpo = 1 / (STD3 + 1e-6);
    const res = credit(T1, "gigpo", [T1, T2, T3]);
    expect(res.d).toBeCloseTo(aGrpo + 0.95 / (0.95 * STD3 + 1e-6), 9); // 1.2247433713934262 + 1.224743292446256
    expect(res.g).toBeCloseTo(aGrpo + 1 / (STD3 + 1e-6), 9);
    expect(res.x).toBeCloseTo(aGrpo, 9);
    // t2 sits at every mean: 0 everywhere
    for (const v of Object.values(credit(T2, "gigpo", [T1, T2, T3]))) expect(v).toBeCloseTo(0, 9);
  });

  it("works on a group of two", () => {
    // R 1, -1: A_grpo = 1 / (1 + 1e-6); plan key: 0.95, -0.95 (std 0.95); final key: 1, -1 (std 1)
    const res = credit(T1, "gigpo", [T3]);
    expect(res.d).toBeCloseTo(1 / (1 + 1e-6) + 0.95 / (0.95 + 1e-6), 9);
    expect(res.g).toBeCloseTo(2 / (1 + 1e-6), 9);
    expect(res.x).toBeCloseTo(1 / (1 + 1e-6), 9);
  });
});
