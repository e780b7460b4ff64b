/**
 * The group view's picture: one lane per rollout on one shared axis of time
 * since each rollout's own start (rollouts run at different wall-clock
 * times; what compares is how far into the run a step happened). Pure
 * geometry; components/decisions/group-lanes.tsx draws it.
 */
import type { Clock } from "../format";

export interface LaneEventInput {
  id: string;
  step: number;
  t: number;
  t_end: number | null;
  type: string;
  key: string;
}

export interface LaneInput {
  trace_id: string;
  start: number;
  events: readonly LaneEventInput[];
}

export interface LaneGlyph {
  id: string;
  step: number;
  type: string;
  key: string;
  /** Centre x of the glyph and, for events with a duration, the bar under it. */
  x: number;
  barEnd: number | null;
  /** Seconds since the rollout's start. */
  since: number;
}

export interface LaneLayout {
  width: number;
  left: number;
  /** Seconds the axis spans (at least 1). */
  span: number;
  ticks: { x: number; label: string }[];
  lanes: { trace_id: string; y: number; glyphs: LaneGlyph[] }[];
  height: number;
}

export const LANE_HEIGHT = 34;
const TOP = 8;
const AXIS = 26;

/** "Nice" tick step for a span: 1, 2 or 5 times a power of ten, about 6 ticks. */
export function tickStep(span: number): number {
  const raw = span / 6;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
}

export function laneLayout(lanes: readonly LaneInput[], width = 960, left = 220, clock: Clock = "seconds"): LaneLayout {
  const right = 16;
  const end = (e: LaneEventInput, start: number) => Math.max(e.t, e.t_end ?? e.t) - start;
  const span = Math.max(1, ...lanes.flatMap((l) => l.events.map((e) => end(e, l.start))));
  const x = (s: number) => left + (s / span) * (width - left - right);
  const step = tickStep(span);
  const ticks = [];
  for (let s = 0; s <= span + 1e-9; s += step) ticks.push({ x: x(s), label: clock === "steps" ? `${Number(s.toPrecision(6))}` : `${Number(s.toPrecision(6))} s` });
  return {
    width,
    left,
    span,
    ticks,
    lanes: lanes.map((l, i) => ({
      trace_id: l.trace_id,
      y: TOP + i * LANE_HEIGHT + LANE_HEIGHT / 2,
      glyphs: l.events.map((e) => ({
        id: e.id, step: e.step, type: e.type, key: e.key, since: e.t - l.start,
        x: x(e.t - l.start), barEnd: e.t_end !== null && e.t_end > e.t ? x(e.t_end - l.start) : null,
      })),
    })),
    height: TOP + lanes.length * LANE_HEIGHT + AXIS,
  };
}
