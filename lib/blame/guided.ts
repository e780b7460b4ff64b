/**
 * Guided attribution: a person answers "is the run still on track after
 * step k?" and the decisive step is the first after which it is not. The
 * run failed, so it is off track after its last step (never asked).
 *
 * Questions split the remaining candidates at the weighted median of a prior
 * ranking's blame (fewer questions when the prior is good), clamped so that
 * at most ceil(log2 N) + 1 answers are ever needed: after a question with b
 * answers left, either side has at most 2^(b-1) candidates. When the search
 * ends with answers to spare, one check re-asks the step just before the
 * decisive one, or the decisive step itself, never the question just
 * answered. Answers that break monotonicity (on track after k although
 * off track after some j <= k, or two answers to one step) are reported as
 * contradictions, never hidden; the newer answer wins.
 *
 * Usable one answer at a time (`startGuided`, `nextQuestion`, `answerQuestion`:
 * plain data, for a UI) or as a loop with an oracle (`runGuided`).
 */
import type { BlameRanking } from "./types";

export interface GuidedAnswer {
  /** Event order index of the step asked about. */
  k: number;
  event_id: string;
  on_track: boolean;
  purpose: "bisect" | "check";
}

export interface Contradiction {
  /** The earlier answer, now discarded, and the newer one it conflicts with. */
  earlier: GuidedAnswer;
  later: GuidedAnswer;
}

export interface GuidedState {
  /** Event ids in event order. */
  readonly events: readonly string[];
  /** Prior blame per event (event order), >= 0; all zero means plain bisection. */
  readonly weights: readonly number[];
  /** At most this many answers are asked for: ceil(log2 N) + 1. */
  readonly budget: number;
  readonly answers: readonly GuidedAnswer[];
}

export type GuidedStep =
  | { kind: "question"; k: number; event_id: string; purpose: "bisect" | "check" }
  | { kind: "done"; decisive_index: number; decisive_event_id: string; answers: readonly GuidedAnswer[]; contradictions: Contradiction[] };

/** Starts a guided search over the events (ids in event order), weighted by a prior ranking when given. */
export function startGuided(events: readonly string[], prior: BlameRanking | null = null): GuidedState {
  if (events.length === 0) throw new Error("a guided search needs at least one event");
  const score = new Map(prior?.events.map((e) => [e.id, e.score]) ?? []);
  const raw = events.map((id) => score.get(id) ?? Number.NaN);
  const finite = raw.filter(Number.isFinite);
  const min = finite.length > 0 ? Math.min(...finite) : 0;
  const weights = raw.map((s) => (Number.isFinite(s) ? s - min : 0));
  return { events, weights, budget: Math.ceil(Math.log2(events.length)) + 1, answers: [] };
}

const conflicts = (a: GuidedAnswer, b: GuidedAnswer) =>
  a.k === b.k ? a.on_track !== b.on_track : a.k < b.k ? !a.on_track && b.on_track : a.on_track && !b.on_track;

/** The consistent answers (newer wins) and the contradictions found on the way. */
function consistent(state: GuidedState): { kept: GuidedAnswer[]; contradictions: Contradiction[] } {
  const kept: GuidedAnswer[] = [];
  const contradictions: Contradiction[] = [];
  for (const later of state.answers) {
    for (let i = kept.length - 1; i >= 0; i--) {
      const earlier = kept[i]!;
      if (!conflicts(earlier, later)) continue;
      // The same answer repeated is a confirmation, not a contradiction.
      contradictions.push({ earlier, later });
      kept.splice(i, 1);
    }
    if (!kept.some((a) => a.k === later.k && a.on_track === later.on_track)) kept.push(later);
  }
  return { kept, contradictions };
}

/** Candidates left: the decisive step lies in [lo, hi]. */
function interval(state: GuidedState, kept: readonly GuidedAnswer[]): [number, number] {
  let lo = 0;
  let hi = state.events.length - 1;
  for (const a of kept) {
    if (a.on_track) lo = Math.max(lo, a.k + 1);
    else hi = Math.min(hi, a.k);
  }
  return [lo, Math.min(Math.max(lo, hi), state.events.length - 1)];
}

/** The split: the weighted median of blame over [lo, hi], clamped to what the budget allows. */
function split(state: GuidedState, lo: number, hi: number): number {
  const size = hi - lo + 1;
  const left = state.budget - state.answers.length;
  const limit = left >= 1 ? 2 ** (left - 1) : 0;
  let from = Math.max(lo, hi - limit);
  let to = Math.min(hi - 1, lo + limit - 1);
  if (from > to) [from, to] = [lo, hi - 1]; // budget already spent (answers given out of turn): any split
  const middle = Math.min(to, Math.max(from, lo + Math.ceil(size / 2) - 1));
  let total = 0;
  for (let k = lo; k <= hi; k++) total += state.weights[k]!;
  if (!(total > 0)) return middle;
  let mass = 0;
  for (let k = lo; k < hi; k++) {
    mass += state.weights[k]!;
    if (mass >= total / 2) return Math.min(to, Math.max(from, k));
  }
  return to;
}

/**
 * The one check, when answers are left: the step just before the decisive
 * one (on track), else the decisive one itself (off track, when a person
 * said so rather than the run's end), whichever was not the answer just
 * given: a question is never asked twice in a row.
 */
function checkStep(state: GuidedState, lo: number): number | null {
  if (state.answers.some((a) => a.purpose === "check") || state.answers.length >= state.budget) return null;
  const latest = state.answers.at(-1)?.k;
  const answered = (k: number) => state.answers.some((a) => a.k === k);
  for (const k of [lo - 1, lo]) if (k >= 0 && k < state.events.length - 1 && k !== latest && answered(k)) return k;
  return null;
}

/** The next question, or the result. */
export function nextQuestion(state: GuidedState): GuidedStep {
  const { kept, contradictions } = consistent(state);
  const [lo, hi] = interval(state, kept);
  if (lo < hi) {
    const k = split(state, lo, hi);
    return { kind: "question", k, event_id: state.events[k]!, purpose: "bisect" };
  }
  const check = checkStep(state, lo);
  if (check !== null) return { kind: "question", k: check, event_id: state.events[check]!, purpose: "check" };
  return { kind: "done", decisive_index: lo, decisive_event_id: state.events[lo]!, answers: state.answers, contradictions };
}

/** Records an answer about step k (any k: a UI may let people answer out of turn). */
export function answerQuestion(state: GuidedState, k: number, onTrack: boolean, purpose: GuidedAnswer["purpose"] = "bisect"): GuidedState {
  const last = state.events.length - 1;
  if (!Number.isInteger(k) || k < 0 || k > last) throw new RangeError(`step ${k} is not an event order index of this trace (0..${last})`);
  if (k === last && onTrack) throw new RangeError("the run failed: it cannot be on track after its last step");
  return { ...state, answers: [...state.answers, { k, event_id: state.events[k]!, on_track: onTrack, purpose }] };
}

/** The whole search with an oracle ("still on track after step k?"). */
export function runGuided(events: readonly string[], prior: BlameRanking | null, onTrackAfter: (k: number) => boolean): Extract<GuidedStep, { kind: "done" }> {
  let state = startGuided(events, prior);
  for (;;) {
    const step = nextQuestion(state);
    if (step.kind === "done") return step;
    state = answerQuestion(state, step.k, onTrackAfter(step.k), step.purpose);
  }
}
