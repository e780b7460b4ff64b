import { describe, expect, it } from "vitest";
import type { ModelCall } from "../trace/calls";
import { pairCalls, replyText } from "./compare";

const call = (id: string, agent: string, output: ModelCall["output"]): ModelCall => ({ id, agent, t: 0, input: [], output, events: [] });

describe("pairCalls", () => {
  it("lines up each agent's k-th calls, in call order, with how the replay answered them", () => {
    const original = [
      call("call-1", "planner", { role: "assistant", content: "City: Paris" }),
      call("call-2", "researcher", { role: "assistant", content: null, tool_calls: [{ id: "t1", name: "get_weather", arguments: "{\"city\":\"Paris\"}" }] }),
      call("call-3", "writer", { role: "assistant", content: "Sunglasses." }),
    ];
    // the fork: the planner's reply edited; the writer ran before the researcher this time, and called twice
    const fork = [
      call("call-1", "planner", { role: "assistant", content: "City: Oslo" }),
      call("call-2", "writer", { role: "assistant", content: "A coat." }),
      call("call-3", "researcher", { role: "assistant", content: null, tool_calls: [{ id: "t9", name: "get_weather", arguments: { city: "Oslo" } }] }),
      call("call-4", "writer", { role: "assistant", content: "Gloves." }),
    ];
    const pairs = pairCalls(original, fork, ["edit", "live", "live", "live"]);
    expect(pairs.map((p) => [p.agent, p.k, p.a?.id ?? null, p.b?.id ?? null, p.same, p.origin])).toEqual([
      ["planner", 1, "call-1", "call-1", false, "edit"],
      ["researcher", 1, "call-2", "call-3", false, "live"],
      ["writer", 1, "call-3", "call-2", false, "live"],
      ["writer", 2, null, "call-4", false, "live"],
    ]);
    expect(pairs[1]!.b!.reply).toBe('get_weather({"city":"Oslo"})');
  });

  it("an unchanged replay: every pair the same, answered from the record; no origins for a run that is no replay", () => {
    const runs = [call("c1", "a", { role: "assistant", content: "x" }), call("c2", "a", "y")];
    expect(pairCalls(runs, runs, ["record", "record"]).map((p) => [p.same, p.origin])).toEqual([[true, "record"], [true, "record"]]);
    expect(pairCalls(runs, []).map((p) => [p.a?.id, p.b, p.same, p.origin])).toEqual([["c1", null, false, null], ["c2", null, false, null]]);
  });

  it("a reply as text: its text, then its tool calls; nothing for an empty reply", () => {
    expect(replyText({ role: "assistant", content: "Let me look.", tool_calls: [{ name: "search", arguments: "{}" }] })).toBe("Let me look. · search({})");
    expect(replyText({ role: "assistant", content: null })).toBe("");
  });
});
