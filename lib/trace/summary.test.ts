import { describe, expect, it } from "vitest";
import { eventSummary } from "./summary";

describe("eventSummary", () => {
  it("names a message's ends when it knows them, and says nothing it does not know", () => {
    expect(eventSummary({ type: "message", from: "planner", to: "coder" })).toBe("message planner → coder");
    expect(eventSummary({ type: "message", from: "planner" })).toBe("message from planner");
    expect(eventSummary({ type: "return", to: "orchestrator" })).toBe("return to orchestrator");
    expect(eventSummary({ type: "message", from: null, to: null })).toBe("message");
  });

  it("adds status, trust and the content reference", () => {
    expect(eventSummary({ type: "tool_call", tool: "search", status: "error", trusted: false, content_ref: "blob-1" })).toBe("call search · error · untrusted · blob-1");
    expect(eventSummary({ type: "tool_result" })).toBe("result of tool");
    expect(eventSummary({ type: "orchestrator_decision", decision: "stop", reason: "done" })).toBe("decide: stop (done)");
    expect(eventSummary({ type: "spawn", to: "coder" })).toBe("spawn coder");
  });
});
