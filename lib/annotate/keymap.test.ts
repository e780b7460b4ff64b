import { EVENT_TYPES } from "../trace/types";
import { describe, expect, it } from "vitest";
import { labelFamilies } from "./families";
import { keyAction, keyHelp } from "./keymap";

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
  it("lists exactly the families an event anchors (SPEC.md section 2, baton-spec-3)", () => {
    expect(labelFamilies({ type: "message" }, { stopAnchor: false })).toEqual(["step_quality", "communication_efficiency", "cost"]);
    expect(labelFamilies({ type: "aggregate" }, { stopAnchor: false })).toEqual(["step_quality", "orchestration", "cost"]);
    // an orchestrator's plan or decision is a step that can be graded (baton-spec-3)
    expect(labelFamilies({ type: "orchestrator_decision" }, { stopAnchor: false })).toEqual(["step_quality", "cost"]);
    expect(labelFamilies({ type: "orchestrator_decision" }, { stopAnchor: true })).toEqual(["step_quality", "stop_decision", "cost"]);
    expect(labelFamilies({ type: "tool_call" }, { stopAnchor: false })).toEqual(["tool_use_correctness", "cost"]);
    expect(labelFamilies({ type: "tool_result" }, { stopAnchor: false })).toEqual(["cost"]);
    expect(labelFamilies({ type: "human_intervention" }, { stopAnchor: false })).toEqual(["cost"]);
  });

  it("never offers task_success on an event: it is labelled on the whole trace", () => {
    for (const type of EVENT_TYPES) for (const stopAnchor of [false, true]) expect(labelFamilies({ type }, { stopAnchor })).not.toContain("task_success");
  });
});

describe("keyHelp", () => {
  it("says what u and x do where they are pressed: the label page saves nothing on x, a queue asks the reason", () => {
    const label = Object.fromEntries(keyHelp("label"));
    const queue = Object.fromEntries(keyHelp("queue"));
    expect(label.x).toBe("go to the next item without labelling this one (nothing is saved; a queue asks why)");
    expect(queue.x).toBe("skip this item, with a reason (1-4 or typed)");
    expect(label.u).toBe("undo your last saved label");
    expect(queue.u).toBe("clear the selected field's choice");
    // the queue page has no item navigation, trace keys or decisive error
    expect(Object.keys(queue)).not.toContain("← →");
    expect(Object.keys(queue)).not.toContain("w");
    expect(Object.keys(label)).toContain("w");
  });
});
