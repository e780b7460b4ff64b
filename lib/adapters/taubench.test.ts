import { beforeAll, describe, expect, it } from "vitest";
import { computeE1 } from "../metrics/e1";
import { NO_LABELS } from "../rewards/labels";
import { collect, countBy, data, edgeTypes, expectValid } from "./fixtures";
import type { AdaptedTrace } from "./types";

let traces: AdaptedTrace[] = [];

beforeAll(async () => {
  traces = await collect("taubench", data("tau_bench/gpt-4o-airline.json"));
});

describe("tau-bench adapter on gpt-4o-airline.json", () => {
  it("makes 200 valid traces without warnings", () => {
    expect(traces).toHaveLength(200);
    for (const t of traces) expect(expectValid(t)).toEqual([]);
  });

  it("takes task success from the reward: 84 of 200 runs succeed, as the dataset says", () => {
    expect(countBy(traces, (t) => String(computeE1(t, NO_LABELS)))).toEqual({ "1": 84, "0": 116 });
    expect(new Set(traces.map((t) => t.rewards.task_success))).toEqual(new Set([-1, 1]));
  });

  it("puts the 4 trials of each of the 50 tasks in one group", () => {
    const groups = countBy(traces, (t) => t.group_id!);
    expect(Object.keys(groups)).toHaveLength(50);
    expect(new Set(Object.values(groups))).toEqual(new Set([4]));
    for (const t of traces) expect(t.group_id).toBe(t.task_id);
    expect(traces[0]!.trace_id).toBe("taubench-gpt-4o-airline-task0-trial0");
  });

  it("pairs every tool call with its result by tool_call_id, with a return edge", () => {
    const all = traces.flatMap((t) => t.events);
    // in the file: 1164 tool calls, 1164 tool replies (48 of them to transfer_to_human_agents), 1490 user and 1290 assistant text turns
    expect(countBy(all, (e) => e.type)).toEqual({ message: 2780, tool_call: 1164, tool_result: 1116, human_intervention: 48 });
    for (const t of traces) {
      const byId = new Map(t.events.map((e) => [e.id, e]));
      const returns = t.edges.filter((e) => e.type === "return");
      expect(returns).toHaveLength(t.events.filter((e) => e.type === "tool_call").length);
      for (const edge of returns) expect(byId.get(edge.src)!.tool_call_id).toBe(byId.get(edge.dst)!.tool_call_id);
    }
  });

  it("hands over to a human on transfer_to_human_agents", () => {
    const handoffs = traces.flatMap((t) => t.events).filter((e) => e.type === "human_intervention");
    expect(new Set(handoffs.map((e) => `${e.agent} ${String(e.tool)} ${String(e.content)}`))).toEqual(new Set(["human_agent transfer_to_human_agents Transfer successful"]));
  });

  it("marks tool replies beginning Error: as errors, and the agent's last text turn as the answer", () => {
    const results = traces.flatMap((t) => t.events).filter((e) => e.type === "tool_result");
    const refused = results.filter((e) => String(e.content).startsWith("Error:"));
    // 73 replies in the file refuse the call (flight not available, payment not found, ...)
    expect(refused).toHaveLength(73);
    for (const e of results) expect(e.status === "error", String(e.content).slice(0, 40)).toBe(String(e.content).startsWith("Error:"));
    for (const t of traces) {
      const answers = t.events.filter((e) => e.final_answer === true);
      expect(answers, t.trace_id).toHaveLength(1);
      const lastAgentTurn = t.events.filter((e) => e.type === "message" && e.agent === "assistant" && String(e.content).trim() !== "").at(-1);
      expect(answers[0]).toBe(lastAgentTurn);
      expect(String(answers[0]!.content)).not.toContain("###STOP###");
    }
    expect(String(traces[0]!.events.find((e) => e.final_answer === true)!.content)).toContain("has been successfully booked");
  });

  it("maps the first run turn by turn", () => {
    const t = traces[0]!;
    expect(t.events.slice(0, 9).map((e) => `${e.type}:${e.agent}${e.tool ? `:${e.tool}` : ""}`)).toEqual([
      "message:user",
      "message:assistant",
      "message:user",
      "message:assistant",
      "message:user",
      "tool_call:assistant:get_user_details",
      "tool_result:assistant:get_user_details",
      "tool_call:assistant:search_direct_flight",
      "tool_result:assistant:search_direct_flight",
    ]);
    // 31 turns after the system prompt, which is not an event
    expect(t.events).toHaveLength(31);
    expect(t.metadata!.system_prompt_chars).toBeGreaterThan(1000);
    expect(edgeTypes(t).return).toBe(t.events.filter((e) => e.type === "tool_call").length);
    expect(t.metrics).toEqual({ task_success: 0 });
    expect((t.metadata!.labels as { task: { user_id: string } }).task.user_id).toBe("mia_li_3668");
  });
});
