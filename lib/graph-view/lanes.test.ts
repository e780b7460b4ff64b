import { describe, expect, it } from "vitest";
import { assignLanes, type LaneEvent } from "./lanes";
import { exampleTrace } from "./fixtures";

const ev = (agent: string, t: number, extra: Partial<LaneEvent> = {}): LaneEvent => ({ agent, t, type: "message", ...extra });

describe("assignLanes", () => {
  it("orders the paper's example by spawn hierarchy, with roles and spans", () => {
    const { lanes, laneOf } = assignLanes(exampleTrace().events);
    expect(lanes.map((l) => l.agent)).toEqual(["orchestrator", "planner_1", "executor_1", "browser.search"]);
    expect(lanes.map((l) => l.parent)).toEqual([null, 0, 0, null]);
    expect(lanes.map((l) => l.depth)).toEqual([0, 1, 1, 0]);
    // orchestrator's events carry lead x2, planner, executor: the most frequent wins
    expect(lanes.map((l) => l.role)).toEqual(["lead", "planner", "executor", null]);
    expect(lanes.map((l) => l.events)).toEqual([4, 1, 2, 1]);
    expect(lanes.map((l) => [l.first_t, l.last_t])).toEqual([[0, 7], [3, 3], [4, 6], [5, 5]]);
    expect(Array.from(laneOf)).toEqual([0, 0, 0, 1, 2, 3, 2, 0]);
  });

  it("puts each sub-agent right under its parent, children in spawn order", () => {
    const { lanes } = assignLanes([
      ev("root", 0, { type: "spawn", to: "a" }),
      ev("root", 1, { type: "spawn", to: "c" }),
      ev("c", 2),
      ev("a", 3, { type: "spawn", to: "b" }),
      ev("b", 4),
      ev("a", 5),
    ]);
    expect(lanes.map((l) => `${l.agent}:${l.depth}:${l.parent}`)).toEqual(["root:0:null", "a:1:0", "b:2:1", "c:1:0"]);
  });

  it("puts roots that spawn before roots that do not", () => {
    const { lanes } = assignLanes([ev("tool", 0), ev("lead", 1, { type: "spawn", to: "w" }), ev("w", 2)]);
    expect(lanes.map((l) => l.agent)).toEqual(["lead", "w", "tool"]);
  });

  it("breaks a spawn cycle at the agent seen first", () => {
    const { lanes } = assignLanes([ev("a", 0, { type: "spawn", to: "b" }), ev("b", 1, { type: "spawn", to: "a" })]);
    expect(lanes.map((l) => [l.agent, l.parent, l.depth])).toEqual([["a", null, 0], ["b", 0, 1]]);
  });

  it("gives no lane to a spawned agent that never acts, and falls back to the spawn's role", () => {
    const { lanes } = assignLanes([
      ev("lead", 0, { type: "spawn", to: "ghost", role: "lead" }),
      ev("lead", 1, { type: "spawn", to: "w", role: "searcher" }),
      ev("w", 2),
    ]);
    expect(lanes.map((l) => [l.agent, l.role])).toEqual([["lead", "lead"], ["w", "searcher"]]);
  });

  it("uses t_end for the lane's end", () => {
    const { lanes } = assignLanes([ev("a", 1, { t_end: 9 }), ev("a", 2)]);
    expect([lanes[0]!.first_t, lanes[0]!.last_t]).toEqual([1, 9]);
  });
});
