/**
 * A judge as an attribution method (the Who&When paper's methods with an
 * OpenAI-compatible model): `all_at_once` shows the whole timeline and asks
 * which step is the decisive error and why; `binary_search` runs the guided
 * mode with the judge answering "is the run still on track after step k?";
 * `step_by_step` shows the run one step more at a time and asks whether the
 * newest step is the decisive error, stopping at the first yes.
 * Prompts and the strict parsing of replies live here; the calls live in
 * lib/server/blame/judge.ts. A reply that is not exactly the asked JSON is
 * a failure, never guessed.
 */
import type { ChatMessage } from "../judges/prompt";
import { cut } from "../judges/prompt";
import { contextOf } from "./input";
import { isHuman, toRanking } from "./rank";
import type { BlameInput, BlameRanking, JudgeAnswer } from "./types";

export const JUDGE_MODES = ["all_at_once", "binary_search", "step_by_step"] as const;
export type JudgeMode = (typeof JUDGE_MODES)[number];

/** The method name of a judge's attributions: `judge:<name>:<mode>`. */
export const judgeMethodName = (judge: string, mode: JudgeMode) => `judge:${judge}:${mode}`;

const CHARS_PER_TOKEN = 4;

/** The run as numbered steps in event order, each step's text cut so that the whole fits `tokenBudget`. */
export function timeline(input: BlameInput, tokenBudget = 6000, upTo?: number): string {
  const { ordered } = contextOf(input);
  const steps = upTo === undefined ? ordered : ordered.slice(0, upTo + 1);
  const per = Math.max(80, Math.floor((tokenBudget * CHARS_PER_TOKEN) / Math.max(1, steps.length)) - 60);
  return steps
    .map((e, k) => `[step ${k}] ${e.agent} (${e.type}${e.tool ? `, tool ${e.tool}` : ""}${e.status ? `, status ${e.status}` : ""}):\n${cut((e.content ?? "").trim() || "(no content)", per)}`)
    .join("\n\n");
}

const SYSTEM_ALL = [
  "You find the decisive error of a failed multi-agent run: the step after which the run could no longer succeed.",
  'Read the numbered steps and answer with JSON only: {"step": <the step number>, "reason": "<one line>"}.',
].join(" ");

const SYSTEM_BISECT = [
  "You check a failed multi-agent run step by step.",
  'Given the run up to step k, answer with JSON only: {"on_track": true|false, "reason": "<one line>"}: true if the run can still succeed after step k, false if it has already gone wrong.',
].join(" ");

const SYSTEM_STEP = [
  "You check a failed multi-agent run one step at a time.",
  'Given the run up to step k, answer with JSON only: {"decisive": true|false, "reason": "<one line>"}: true if step k is the decisive error (the step after which the run could no longer succeed), false if it is not.',
].join(" ");

export function allAtOncePrompt(input: BlameInput, tokenBudget?: number): ChatMessage[] {
  return [
    { role: "system", content: SYSTEM_ALL },
    { role: "user", content: `${timeline(input, tokenBudget)}\n\nWhich step is the decisive error, and why?` },
  ];
}

export function onTrackPrompt(input: BlameInput, k: number, tokenBudget?: number): ChatMessage[] {
  return [
    { role: "system", content: SYSTEM_BISECT },
    { role: "user", content: `${timeline(input, tokenBudget, k)}\n\nIs the run still on track after step ${k}?` },
  ];
}

/** Step-by-step mode: the run up to step k, "is step k the decisive error?". */
export function decisiveStepPrompt(input: BlameInput, k: number, tokenBudget?: number): ChatMessage[] {
  return [
    { role: "system", content: SYSTEM_STEP },
    { role: "user", content: `${timeline(input, tokenBudget, k)}\n\nIs step ${k} the decisive error?` },
  ];
}

export type Parsed<T> = { ok: true; value: T; reason: string } | { ok: false; error: string };

function json(raw: string): Record<string, unknown> | null {
  const text = raw.trim().replace(/^```(?:json)?\s*|\s*```$/g, "");
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const reasonOf = (o: Record<string, unknown>) => (typeof o.reason === "string" ? o.reason.slice(0, 1000) : "");

/** `{"step": k, "reason"}` with k an integer step of the run (0 .. steps - 1). */
export function parseStep(raw: string, steps: number): Parsed<number> {
  const o = json(raw);
  if (!o) return { ok: false, error: "the reply is not a JSON object" };
  const k = o.step;
  if (typeof k !== "number" || !Number.isInteger(k)) return { ok: false, error: "`step` is not an integer" };
  if (k < 0 || k >= steps) return { ok: false, error: `step ${k} is not a step of this run (0..${steps - 1})` };
  return { ok: true, value: k, reason: reasonOf(o) };
}

/** `{"on_track": true|false, "reason"}`. */
export function parseOnTrack(raw: string): Parsed<boolean> {
  const o = json(raw);
  if (!o) return { ok: false, error: "the reply is not a JSON object" };
  if (typeof o.on_track !== "boolean") return { ok: false, error: "`on_track` is not true or false" };
  return { ok: true, value: o.on_track, reason: reasonOf(o) };
}

/** `{"decisive": true|false, "reason"}`. */
export function parseDecisive(raw: string): Parsed<boolean> {
  const o = json(raw);
  if (!o) return { ok: false, error: "the reply is not a JSON object" };
  if (typeof o.decisive !== "boolean") return { ok: false, error: "`decisive` is not true or false" };
  return { ok: true, value: o.decisive, reason: reasonOf(o) };
}

/** The judge's answer as a ranking: its step first, every other event tied behind it; agents by the max (its step's agent first). */
export function judgeRanking(method: string, input: BlameInput, step: number, reason = ""): BlameRanking {
  const { ordered } = contextOf(input);
  const named: Record<string, number> = { judge_named: 1, reason_chars: reason.length };
  const none: Record<string, number> = {};
  return toRanking(method, ordered.map((event, k) => ({ event, score: k === step ? 1 : 0, signals: k === step ? named : none })), "max");
}

/**
 * The input with the judges' answers about it (none: the input itself, unchanged). The judges saw the input without
 * them (lib/server/blame/judge.ts ranks from blameInput alone): an answer holds no label.
 */
export function withJudges(input: BlameInput, answers: readonly JudgeAnswer[]): BlameInput {
  if (answers.length === 0) return input;
  return Object.freeze({ trace: input.trace, group: input.group, judges: Object.freeze([...answers]) });
}

/** Whether some judge answered about this input. */
export const hasJudges = (input: BlameInput) => (input.judges?.length ?? 0) > 0;

/** The named features a judge's answers add (every name starts with this). */
export const JUDGE_FEATURE_PREFIX = "judge_";

/**
 * What the judges said of each event, as features of the event model (`learned_judged`), in event order; null when no
 * judge answered. Each value is a share of the trace's answers (several judges or modes average):
 * - `judge_<mode>`: the answers of that mode that named this event (present when one of that mode named an event);
 * - `judge_near`: the answers that named the non-human step just before or just after this one (a judge a step off);
 * - `judge_cleared`: the answers whose questions cleared this event (`binary_search`: on track after it or after a
 *   later event, or off track already before it; `step_by_step`: "not the decisive error").
 */
export function judgeFeatures(input: BlameInput): Record<string, number>[] | null {
  const answers = input.judges ?? [];
  if (answers.length === 0) return null;
  const { ordered } = contextOf(input);
  const n = ordered.length;
  const index = new Map(ordered.map((e, k) => [e.id, k]));
  const out: Record<string, number>[] = ordered.map(() => ({}));
  const add = (name: string, k: number, x: number) => {
    out[k]![name] = (out[k]![name] ?? 0) + x;
  };
  const zero = (name: string) => {
    for (const f of out) f[name] ??= 0;
  };
  const naming = answers.filter((a) => a.event_id !== null && index.has(a.event_id));
  for (const mode of ["all_at_once", "binary_search", "step_by_step"] as const) {
    const of = naming.filter((a) => a.mode === mode);
    if (of.length === 0) continue;
    zero(`judge_${mode}`);
    for (const a of of) add(`judge_${mode}`, index.get(a.event_id!)!, 1 / of.length);
  }
  if (naming.length > 0) {
    zero("judge_near");
    const step = (from: number, by: number) => {
      for (let k = from + by; k >= 0 && k < n; k += by) if (!isHuman(ordered[k]!)) return k;
      return -1;
    };
    for (const a of naming) {
      const k = index.get(a.event_id!)!;
      for (const near of new Set([step(k, -1), step(k, 1)])) if (near >= 0) add("judge_near", near, 1 / naming.length);
    }
  }
  const asking = answers.filter((a) => a.questions.some((q) => index.has(q.event_id)));
  if (asking.length > 0) {
    zero("judge_cleared");
    for (const a of asking) {
      const cleared = new Uint8Array(n);
      for (const q of a.questions) {
        const j = index.get(q.event_id);
        if (j === undefined) continue;
        if (q.decisive === false) cleared[j] = 1;
        if (q.on_track === true) cleared.fill(1, 0, j + 1);
        if (q.on_track === false) cleared.fill(1, j + 1);
      }
      cleared.forEach((c, k) => {
        if (c) add("judge_cleared", k, 1 / asking.length);
      });
    }
  }
  return out;
}
