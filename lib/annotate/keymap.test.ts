import { describe, expect, it } from "vitest";
import { labelFamilies } from "./families";
import { keyAction } from "./keymap";

describe("keyAction", () => {
  it("maps 1-9 onto the field's options", () => {
    expect(["1", "5", "9"].map((key) => keyAction({ key }))).toEqual(["1", "5", "9"].map((key) => ({ kind: "option", key })));
    expect(keyAction({ key: "0" })).toBeNull();
  });
  it("Enter commits, Ctrl/Cmd+Enter completes, Esc escapes (with or without modifiers)", () => {
    expect(keyAction({ key: "Enter" })).toEqual({ kind: "commit" });
    expect(keyAction({ key: "Enter", ctrlKey: true })).toEqual({ kind: "complete" });
    expect(keyAction({ key: "Enter", metaKey: true })).toEqual({ kind: "complete" });
    expect(keyAction({ key: "Escape" })).toEqual({ kind: "escape" });
  });
  it("maps the navigation and Baton's own keys", () => {
    expect(keyAction({ key: "s" })).toEqual({ kind: "task", value: 1 });
    expect(keyAction({ key: "f" })).toEqual({ kind: "task", value: 0 });
    expect(keyAction({ key: "ArrowRight" })).toEqual({ kind: "move", by: 1 });
    expect(keyAction({ key: "ArrowLeft" })).toEqual({ kind: "move", by: -1 });
    expect(keyAction({ key: "ArrowDown" })).toEqual({ kind: "field", by: 1 });
    expect(keyAction({ key: "ArrowUp" })).toEqual({ kind: "field", by: -1 });
    expect(keyAction({ key: "?" })).toEqual({ kind: "help" });
    expect(keyAction({ key: "r" })).toEqual({ kind: "retry" });
    expect(keyAction({ key: "x" })).toEqual({ kind: "skip" });
    expect(keyAction({ key: "u" })).toEqual({ kind: "undo" });
    expect(keyAction({ key: "c" })).toEqual({ kind: "comment" });
  });
  it("ignores other keys and keys with modifiers (browser shortcuts stay intact)", () => {
    expect(keyAction({ key: "y" })).toBeNull();
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
