/** Small hand-built traces for the methods' tests: each plants one culprit. */
import { makeTrace, type TraceSpec } from "../graph/fixtures";
import type { Trace } from "../trace/types";
import { blameInput } from "./input";
import type { LabelledTrace } from "./types";

/**
 * A failed run: task -> planner -> coder writes code -> the terminal fails ->
 * coder apologises and retries -> the terminal succeeds -> writer answers.
 * The planted culprit is `code1` (its tool result fails).
 */
export const FAILED_TOOL: TraceSpec = {
  events: [
    { id: "task", t: 0, type: "message", agent: "human", role: "user", content: "Compute the answer." },
    { id: "plan", t: 1, type: "orchestrator_decision", agent: "planner", role: "orchestrator", content: "Plan: write code." },
    { id: "code1", t: 2, type: "tool_call", agent: "coder", role: "expert", tool: "code_execution", content: "```python\nprint(1/0)\n```" },
    { id: "out1", t: 3, type: "tool_result", agent: "terminal", role: "code_executor", tool: "code_execution", status: "error", content: "exitcode: 1 Traceback (most recent call last)" },
    { id: "code2", t: 4, type: "tool_call", agent: "coder", role: "expert", tool: "code_execution", content: "Sorry, fixed:\n```python\nprint(1)\n```" },
    { id: "out2", t: 5, type: "tool_result", agent: "terminal", role: "code_executor", tool: "code_execution", content: "exitcode: 0\n1" },
    { id: "answer", t: 6, type: "aggregate", agent: "writer", role: "expert", content: "The answer is 1. TERMINATE" },
  ],
  edges: [
    ["task", "plan"],
    ["plan", "code1"],
    ["code1", "out1", "tool_dependency"],
    ["out1", "code2"],
    ["code2", "out2", "tool_dependency"],
    ["out2", "answer", "aggregate"],
  ],
  rewards: { task_success: -1 },
  metrics: { task_success: 0 },
};

/**
 * A web search run: the surfer reads the wrong page and reports 1968, the
 * coordinator repeats it and states it as the final answer. The planted
 * culprit is `read2`, the first event that holds the answer.
 */
export const WRONG_PAGE: TraceSpec = {
  events: [
    { id: "task", t: 0, type: "message", agent: "human", role: "user", content: "In which year did the Apollo 8 crew first orbit the Moon? Answer with the year." },
    { id: "plan", t: 1, type: "orchestrator_decision", agent: "Orchestrator", role: "orchestrator", content: "Plan: ask WebSurfer to search for the Apollo 8 mission." },
    { id: "search", t: 2, type: "message", agent: "WebSurfer", role: "worker", content: "I typed 'Apollo 8 crew orbit Moon' into the search bar." },
    { id: "read2", t: 3, type: "message", agent: "WebSurfer", role: "worker", content: "I clicked 'Apollo program'. The page says the first crewed orbit happened in 1968, in December." },
    { id: "check", t: 4, type: "orchestrator_decision", agent: "Orchestrator", role: "orchestrator", content: "WebSurfer found December 1968. That answers the request." },
    { id: "final", t: 5, type: "aggregate", agent: "Orchestrator", role: "orchestrator", content: "FINAL ANSWER: 1968 (December)\nTERMINATE" },
  ],
  edges: [
    ["task", "plan"],
    ["plan", "search", "spawn"],
    ["search", "read2"],
    ["read2", "check", "return"],
    ["check", "final", "aggregate"],
  ],
  rewards: { task_success: -1 },
  metrics: { task_success: 0 },
};

/** The same run as the adapter of a labelled dataset writes it: the answer in metadata and on the event. */
export function withLabels(trace: Trace, eventId: string, agent: string): Trace {
  return {
    ...trace,
    metadata: { ground_truth: { mistake_event_id: eventId, mistake_agent: agent }, labels: { mistake_agent: agent, question: "Compute the answer." } },
    events: trace.events.map((e) => (e.id === eventId ? { ...e, extra: { mistake: true, mistake_agent: agent, mistake_reason: "divides by zero" } } : e)),
  };
}

export const failedTool = (): Trace => makeTrace(FAILED_TOOL);

/**
 * A labelled run in which a coder's code fails at a varying position (i % 4
 * steps that look the same come first): the decisive step is the failing
 * code turn (`bad`), or, with `culprit: "end"`, the final answer by `endAgent`.
 */
export function codeFailureRun(i: number, culprit: "bad" | "end" = "bad", endAgent = "writer"): LabelledTrace {
  const fillers = i % 4;
  const events = [
    { id: "task", t: 0, type: "message" as const, agent: "human", role: "user", content: "Task." },
    ...Array.from({ length: fillers }, (_, j) => ({ id: `ok${j}`, t: 1 + j, type: "tool_call" as const, agent: "coder", role: "expert", tool: "code_execution", content: "```python\nprint(2)\n```" })),
    { id: "bad", t: 1 + fillers, type: "tool_call" as const, agent: "coder", role: "expert", tool: "code_execution", content: "```python\nprint(1/0)\n```" },
    { id: "fail", t: 2 + fillers, type: "tool_result" as const, agent: "terminal", role: "code_executor", tool: "code_execution", status: "error", content: "exitcode: 1" },
    { id: "end", t: 3 + fillers, type: "aggregate" as const, agent: endAgent, role: "expert", content: "Done. TERMINATE" },
  ];
  const ids = events.map((e) => e.id);
  const trace = makeTrace({ ...FAILED_TOOL, trace_id: `run-${i}`, events, edges: ids.slice(1).map((id, j) => [ids[j]!, id] as [string, string]) });
  return { input: blameInput(trace), decisive_event_id: culprit, decisive_agent: culprit === "bad" ? "coder" : endAgent };
}
