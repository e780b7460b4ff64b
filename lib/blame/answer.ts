/**
 * Where a failed run's final answer came from. When a run ends with a
 * stated answer ("FINAL ANSWER: 1976") and that answer is wrong, the step
 * that first wrote it down, before anyone repeated it, is often the step
 * that went wrong: a worker read the wrong page, a coder printed the wrong
 * number, and the coordinator passed it on. This finds that step from the
 * trace alone: the answer's words that the task did not already contain,
 * and the first event that holds at least half of them.
 */
import { contextOf } from "./input";
import { isHuman } from "./priors";
import { toRanking } from "./rank";
import type { BlameInput, BlameRanking } from "./types";

/** The words of a stated answer: what follows the last "final answer" marker, on its line. */
const ANSWER = /final[ _]answer\W{0,5}([^\n]+)/gi;
/** Only the start of a long content is read (web pages, logs): answers are short. */
const READ_CHARS = 20_000;
const STOP = new Set(["the", "and", "for", "with", "that", "this", "are", "was", "from", "answer", "final", "terminate"]);

/** Lower-case words and numbers (a number may hold dots, dashes or commas: 1,024; 3.14; 2020-05). */
export function answerTokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const t of text.slice(0, READ_CHARS).toLowerCase().match(/[a-z0-9](?:[a-z0-9.,'-]*[a-z0-9])?/g) ?? []) {
    if (STOP.has(t) || (t.length < 3 && !/^\d+$/.test(t))) continue;
    out.add(t);
  }
  return out;
}

export interface AnswerOrigin {
  /** Position (in event order) of the event that states the final answer, or -1 when the run states none. */
  readonly stated: number;
  /** The answer's words that the task did not contain (empty when there is no usable answer). */
  readonly words: readonly string[];
  /** Per event in event order: 1 when it holds at least half of the answer's words (at or before `stated`). */
  readonly carries: readonly number[];
  /** Position of the first carrier, or -1. */
  readonly origin: number;
}

/** The final answer, its words and where they first appeared. O(content). */
export function answerOrigin(input: BlameInput): AnswerOrigin {
  const { ordered } = contextOf(input);
  const n = ordered.length;
  const none: AnswerOrigin = { stated: -1, words: [], carries: new Array<number>(n).fill(0), origin: -1 };
  let stated = -1;
  let answer = "";
  for (let k = n - 1; k >= 0 && stated < 0; k--) {
    const content = ordered[k]!.content ?? "";
    let last: string | null = null;
    for (const m of content.slice(-READ_CHARS).matchAll(ANSWER)) if (m[1]!.trim() !== "") last = m[1]!;
    if (last !== null) {
      stated = k;
      answer = last;
    }
  }
  if (stated < 0) return none;
  const task = new Set<string>();
  for (const e of ordered) if (isHuman(e)) for (const t of answerTokens(e.content ?? "")) task.add(t);
  const words = [...answerTokens(answer)].filter((t) => !task.has(t));
  if (words.length === 0) return { ...none, stated };
  const need = Math.max(1, Math.ceil(words.length / 2));
  const carries = ordered.map((e, k) => {
    if (k > stated || isHuman(e)) return 0;
    const held = answerTokens(e.content ?? "");
    let c = 0;
    for (const w of words) if (held.has(w)) c++;
    return c >= need ? 1 : 0;
  });
  return { stated, words, carries, origin: carries.indexOf(1) };
}

/**
 * `answer_origin`: the first event that wrote the final answer down first;
 * the steps just before it next (the wrong turn often came a step or two
 * earlier), halving with each step back; everything else ties last. A run
 * that states no answer ties throughout, as `random` does.
 */
export function rankAnswerOrigin(input: BlameInput): BlameRanking {
  const { ordered } = contextOf(input);
  const { origin, carries } = answerOrigin(input);
  let back = 0;
  const scores = new Array<number>(ordered.length).fill(0);
  if (origin >= 0) {
    scores[origin] = 1;
    for (let k = origin - 1; k >= 0; k--) if (!isHuman(ordered[k]!)) scores[k] = 0.5 ** ++back;
  }
  const scored = ordered.map((event, k) => ({
    event,
    score: isHuman(event) ? -1 : scores[k]!,
    signals: { answer_origin: k === origin ? 1 : 0, answer_carrier: carries[k]! },
  }));
  return toRanking("answer_origin", scored, "max");
}
