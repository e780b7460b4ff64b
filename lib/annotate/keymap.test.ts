import { describe, expect, it } from "vitest";
import { labelFamilies } from "./families";
import { keyAction } from "./keymap";

describe("keyAction", () => {
  it("maps 1-5 onto the five label values", () => {
    expect(["1", "2", "3", "4", "5"].map((key) => keyAction({ key }))).toEqual([-1, -0.5, 0, 0.5, 1].map((value) => ({ kind: "value", value })));
  });
  it("maps s / f to trace-level success / failure and the navigation keys", () => {
    expect(keyAction({ key: "s" })).toEqual({ kind: "task", value: 1 });
    expect(keyAction({ key: "f" })).toEqual({ kind: "task", value: 0 });
    expect(keyAction({ key: "ArrowRight" })).toEqual({ kind: "move", by: 1 });
    expect(keyAction({ key: "ArrowLeft" })).toEqual({ kind: "move", by: -1 });
    expect(keyAction({ key: "ArrowDown" })).toEqual({ kind: "family", by: 1 });
    expect(keyAction({ key: "Enter" })).toEqual({ kind: "save" });
    expect(keyAction({ key: "?" })).toEqual({ kind: "help" });
    expect(keyAction({ key: "r" })).toEqual({ kind: "retry" });
    expect(keyAction({ key: "x" })).toEqual({ kind: "skip" });
  });
  it("ignores other keys and keys with modifiers (browser shortcuts stay intact)", () => {
    expect(keyAction({ key: "y" })).toBeNull();
    expect(keyAction({ key: "6" })).toBeNull();
    expect(keyAction({ key: "r", ctrlKey: true })).toBeNull();
    expect(keyAction({ key: "1", metaKey: true })).toBeNull();
  });
});

describe("labelFamilies", () => {
  it("lists the families an event anchors, per SPEC.md section 2", () => {
    expect(labelFamilies({ type: "message" }, { terminal: false, stopAnchor: false })).toEqual(["step_quality", "communication_efficiency", "cost"]);
    expect(labelFamilies({ type: "aggregate" }, { terminal: true, stopAnchor: false })).toEqual(["step_quality", "orchestration", "task_success", "cost"]);
    expect(labelFamilies({ type: "orchestrator_decision", decision: "stop" }, { terminal: false, stopAnchor: true })).toEqual(["stop_decision", "cost"]);
    expect(labelFamilies({ type: "tool_result" }, { terminal: false, stopAnchor: false })).toEqual(["cost"]);
  });
});
