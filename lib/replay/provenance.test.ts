import { describe, expect, it } from "vitest";
import { replayProvenance } from "./provenance";

const fork = {
  source: "gateway", run: "cf-ab-1",
  counterfactual: {
    of: "gw-base", call_id: "call-1", edit: { reply: { content: "City: Oslo" } }, group: "gw-base", intent: "correct", intervention: 7, sample: 2,
    origins: ["edit", "live", "live"], served: 1, forwarded: 2, divergence: null,
  },
};

describe("replayProvenance", () => {
  it("reads a fork's original, its changed call and how its calls were answered", () => {
    expect(replayProvenance(fork)).toEqual({
      of: "gw-base", callId: "call-1", replaced: "reply", intent: "correct", intervention: 7, sample: 2,
      answered: { record: 0, edit: 1, live: 2 }, diverged: null, origins: ["edit", "live", "live"],
    });
  });

  it("an unchanged replay, a tool result replaced, a run that left the record", () => {
    const unchanged = { counterfactual: { ...fork.counterfactual, call_id: null, edit: null, intent: null, intervention: null, sample: 1, origins: ["record", "record", "record"] } };
    expect(replayProvenance(unchanged)).toMatchObject({ callId: null, replaced: null, answered: { record: 3, edit: 0, live: 0 } });
    const tool = { counterfactual: { ...fork.counterfactual, edit: { tool_result: { content: "-4 C and snow" } } } };
    expect(replayProvenance(tool)?.replaced).toBe("tool_result");
    const diverged = { counterfactual: { ...fork.counterfactual, origins: ["record", "live"], divergence: { call_index: 1, expected_call_id: "call-2", agent: "writer" } } };
    expect(replayProvenance(diverged)?.diverged).toEqual({ request: 2, agent: "writer" });
  });

  it("is null for metadata that is no replay's", () => {
    for (const m of [null, "x", {}, { counterfactual: null }, { counterfactual: { ...fork.counterfactual, origins: ["guess"] } }, { counterfactual: { ...fork.counterfactual, of: "" } }]) {
      expect(replayProvenance(m)).toBeNull();
    }
  });
});
