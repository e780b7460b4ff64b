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

  it("makes each assistant turn a model call: the conversation so far as the agent's model was sent it, the turn as its output", () => {
    const all = traces.flatMap((t) => t.calls ?? []);
    // 2454 assistant turns in the file (1164 of them call a tool, 1074 with content null); every run has calls
    expect(all).toHaveLength(2454);
    expect(traces.every((t) => (t.calls ?? []).length > 0)).toBe(true);
    expect(all.filter((c) => typeof c.output !== "string" && c.output.content === null)).toHaveLength(1074);
    for (const t of traces) {
      const calls = t.calls!;
      const byId = new Map(t.events.map((e) => [e.id, e]));
      calls.forEach((c, i) => {
        expect(c.source).toBe("import");
        expect(c.tools).toBeUndefined(); // the file holds no tool definitions
        expect(c.input[0]!.role).toBe("system");
        // the prompt only grows: each call's input is the previous call's input, its output, and what came back
        const before = calls[i - 1];
        if (before) expect(before.input.every((m, j) => c.input[j] === m) && c.input[before.input.length] === before.output).toBe(true);
        for (const id of c.events) expect(byId.get(id)!.agent).toBe("assistant");
      });
    }
    const t = traces[0]!;
    expect(t.calls).toHaveLength(15);
    const sixth = t.calls![5]!;
    // traj[12] of task 0 trial 0: a second search after the user's answer
    expect(sixth.t).toBe(11);
    expect(sixth.input.map((m) => m.role)).toEqual(["system", "user", "assistant", "user", "assistant", "user", "assistant", "tool", "assistant", "tool", "assistant", "user"]);
    expect(sixth.input[0]!.content).toBe(t.metadata!.system_prompt);
    expect(sixth.input.filter((m) => m.role === "tool").map((m) => m.tool_call_id)).toEqual(["call_oIHazX6yQrB8hUwl4cRilFKj", "call_HGn16KZh9oNCruxsMJ4gYXan"]);
    expect(sixth.input[6]!.tool_calls).toEqual([{ id: "call_oIHazX6yQrB8hUwl4cRilFKj", name: "get_user_details", arguments: '{"user_id":"mia_li_3668"}' }]);
    expect(Object.keys(sixth.input[11]!)).toEqual(["role", "content"]);
    expect(sixth.output).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_HGn16KZh9oNCruxsMJ4gYXan", name: "search_onestop_flight", arguments: '{"origin":"JFK","destination":"SEA","date":"2024-05-20"}' }],
    });
    expect(sixth.events.map((id) => t.events.find((e) => e.id === id)!.type)).toEqual(["tool_call"]);
    const last = t.calls!.at(-1)!;
    expect(last.events).toEqual([t.events.find((e) => e.final_answer === true)!.id]);
    expect(Object.keys(last.output)).toEqual(["role", "content"]);
    expect(String((last.output as { content: string }).content)).toContain("has been successfully booked");
  });
});
