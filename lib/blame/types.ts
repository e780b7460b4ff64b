/**
 * What every failure-attribution method returns (SPEC.md section 10): the
 * events and the agents of one trace ranked by blame, rank 1 first. Higher
 * score = more blame; tied items share a rank (competition ranking 1, 1, 3).
 */
import { z } from "zod";
import type { Trace } from "../trace/types";

export interface RankedEvent {
  id: string;
  agent: string;
  rank: number;
  score: number;
  /** The named signals or feature contributions behind the score, e.g. `{"credit_ccp": -0.34, "status_error": 1}`. */
  signals: Record<string, number>;
}

export interface RankedAgent {
  agent: string;
  rank: number;
  score: number;
}

/** A ranking's events and agents as stored (blame_rankings): read back through these, never cast. */
export const rankedEventSchema = z.object({ id: z.string(), agent: z.string(), rank: z.number().int().positive(), score: z.number(), signals: z.record(z.string(), z.number()) });
export const rankedAgentSchema = z.object({ agent: z.string(), rank: z.number().int().positive(), score: z.number() });

export interface BlameRanking {
  method: string;
  /** In rank order (ties in event order). */
  events: RankedEvent[];
  /** In rank order; agents whose names differ only in case or surrounding spaces are one agent. */
  agents: RankedAgent[];
}

/**
 * The only thing a method sees: a trace stripped of everything that can hold
 * a label (its `metadata`, every event's unknown extra properties), and the
 * other rollouts of its group stripped alike. Build it with `blameInput`.
 */
export interface BlameInput {
  readonly trace: Trace;
  /** Other rollouts sharing the trace's group_id (grpo, gigpo, divergence); absent or empty when there is no group. */
  readonly group: readonly Trace[];
  /**
   * What the project's LLM judges answered about this trace (lib/blame/judge.ts `withJudges`), absent when none did.
   * A judge saw only this input without it (never a label); only `learned_judged` reads it.
   */
  readonly judges?: readonly JudgeAnswer[];
}

/**
 * One judge's stored attribution of a trace in one mode: the event it named (null when its reply failed or it called
 * no step decisive) and the questions it answered on the way (`binary_search`: "still on track after this event?";
 * `step_by_step`: "is this event the decisive error?").
 */
export interface JudgeAnswer {
  /** `judge:<name>:<mode>` */
  readonly method: string;
  readonly mode: "all_at_once" | "binary_search" | "step_by_step";
  readonly event_id: string | null;
  readonly questions: readonly { readonly event_id: string; readonly on_track?: boolean; readonly decisive?: boolean }[];
}

/** A trace with a known decisive error (SPEC.md section 5), for scoring and training. */
export interface LabelledTrace {
  readonly input: BlameInput;
  readonly decisive_event_id: string;
  readonly decisive_agent: string;
}

/** Thrown by `rankTrace` when a method cannot rank this input (grpo/gigpo/divergence without a group). */
export class BlameNotApplicableError extends Error {
  constructor(
    readonly method: string,
    reason: string,
  ) {
    super(`${method} is not applicable: ${reason}`);
    this.name = "BlameNotApplicableError";
  }
}
