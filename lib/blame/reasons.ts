/**
 * Why a suspect is one, in words a person reads: the signals that set it
 * apart from the run's typical event (the median of each signal over the
 * ranked events) in the direction that raises a score (a signal that goes
 * with lower scores, such as credit, counts when it is lower), not the
 * signals every event shares. Two suspects of one run get their own reasons.
 */
import type { RankedEvent } from "./types";

/** Signal names (lib/blame/features.ts and the heuristics) in words; others are spelled out from their name. */
const WORDS: Record<string, string> = {
  words: "what it says (its words)",
  text_length: "a long text",
  text_lines: "many lines",
  kind_worker_output: "a worker's output",
  kind_worker: "a worker's step",
  kind_coordinator: "a coordinator's step",
  kind_executor: "an executor's step",
  kind_first_of_kind: "the first step of its kind of agent",
  kind_after_executor: "right after code ran",
  agent_first_event: "its agent's first step",
  agent_second_event: "its agent's second step",
  first_reply: "its agent's first reply",
  second_reply: "its agent's second reply",
  agent_first_speaker: "the first agent to speak",
  run_first_return: "the run's first reply to the orchestrator",
  run_second_return: "the run's second reply to the orchestrator",
  run_third_return: "the run's third reply to the orchestrator",
  decision_after_reply: "a decision right after a reply",
  same_agent_as_previous: "the same agent again",
  pos_first_step: "the first step",
  pos_second_step: "the second step",
  pos_early: "an early step",
  pos_inverse: "early in the run",
  pos_last: "the last event",
  pos_last_step: "the last step",
  pos_relative: "late in the run",
  pos_step_relative: "late in the run",
  reaches_terminal: "it leads to the final event",
  is_terminal: "the final event",
  fan_in: "it draws on many steps",
  fan_out: "many steps follow from it",
  status_error: "it failed",
  next_fails: "the step after it failed",
  caused_error: "it caused an error",
  caused_first_error: "it caused the first error",
  before_first_error: "before the first error",
  after_first_error: "after the first error",
  answer_origin: "where the final answer came from",
  answer_before_origin: "just before the final answer's source",
  answer_carrier: "it carries the final answer",
  answer_stated: "it states the final answer",
  credit_ccp: "low credit",
  credit: "low credit",
  judge_all_at_once: "an LLM judge named it (whole run at once)",
  judge_binary_search: "an LLM judge named it (bisection)",
  judge_step_by_step: "an LLM judge named it (step by step)",
  judge_near: "next to the step an LLM judge named",
  judge_cleared: "an LLM judge cleared it",
  judge_named: "an LLM judge named it",
};

/** A signal's name in words. */
export function signalWords(name: string): string {
  return WORDS[name] ?? name.replace(/^(pos|kind|agent|run|role|text)_/, "").replace(/_/g, " ");
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length === 0 ? 0 : sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The event's own reasons, most telling first: signals above the run's median contribution, in words (at most `max`). */
export function suspectReasons(events: readonly RankedEvent[], id: string, max = 3): string[] {
  const suspect = events.find((e) => e.id === id);
  if (!suspect) return [];
  const names = new Set(events.flatMap((e) => Object.keys(e.signals)));
  const typical = new Map([...names].map((n) => [n, median(events.map((e) => e.signals[n] ?? 0))]));
  const meanScore = events.reduce((a, e) => a + e.score, 0) / events.length;
  /** +1 when a signal goes with higher scores over the run's events, -1 when with lower ones */
  const direction = (n: string) => {
    let covariance = 0;
    for (const e of events) covariance += ((e.signals[n] ?? 0) - typical.get(n)!) * (e.score - meanScore);
    return covariance < 0 ? -1 : 1;
  };
  const apart = Object.entries(suspect.signals)
    .filter(([, v]) => Number.isFinite(v))
    .map(([n, v]) => ({ n, by: direction(n) * (v - typical.get(n)!) }))
    .filter((s) => s.by > 1e-9)
    .sort((a, b) => b.by - a.by);
  const words: string[] = [];
  for (const { n } of apart) {
    const w = signalWords(n);
    if (!words.includes(w)) words.push(w);
    if (words.length === max) break;
  }
  return words;
}
