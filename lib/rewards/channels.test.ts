import { describe, expect, it } from "vitest";
import { channelValue } from "./channels";

describe("channelValue", () => {
  it("maps the paper's channels onto families", () => {
    const rewards = { team: 1, process: 0.2, tool: -0.3, orchestration: 0.4, verifier: 0.9, agent: 0.1 };
    expect(channelValue(rewards, "task_success")).toBe(1);
    expect(channelValue(rewards, "step_quality")).toBe(0.2);
    expect(channelValue(rewards, "tool_use_correctness")).toBe(-0.3);
    expect(channelValue(rewards, "orchestration")).toBe(0.4);
    // verifier, agent, role, hybrid... never enter credit
    expect(channelValue(rewards, "stop_decision")).toBeNull();
    expect(channelValue(rewards, "cost")).toBeNull();
  });

  it("lets a family name win over its alias", () => {
    expect(channelValue({ team: 1, task_success: -1 }, "task_success")).toBe(-1);
    expect(channelValue({ process: 1, step_quality: 0 }, "step_quality")).toBe(0);
    expect(channelValue({ tool: 1, tool_use_correctness: 0.5 }, "tool_use_correctness")).toBe(0.5);
  });

  it("maps every family name to itself", () => {
    expect(channelValue({ cost: 0.7 }, "cost")).toBe(0.7);
    expect(channelValue({ parallelism_speedup: 0.1 }, "parallelism_speedup")).toBe(0.1);
  });

  it("ignores inherited properties and missing records", () => {
    expect(channelValue(Object.create({ team: 1 }) as Record<string, number>, "task_success")).toBeNull();
    expect(channelValue(undefined, "task_success")).toBeNull();
  });
});
