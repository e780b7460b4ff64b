import { cleanFloat } from "../format";

/**
 * Equal-width time buckets over a trace's event start times. An event falls
 * in bucket k when start + k * width <= t < start + (k + 1) * width; the last
 * bucket also holds its upper bound (the latest event). A tolerance of 1e-9
 * buckets keeps an event that sits exactly on an edge from slipping into the
 * bucket below through rounding.
 */
export interface TimeBuckets {
  start: number;
  end: number;
  /** How many buckets there are: the requested count, or 1 when every event has the same t. */
  count: number;
  /** Bucket k spans [edges[k], edges[k + 1]]. */
  edges: number[];
  /** The bucket of a time in [start, end]. */
  indexOf(t: number): number;
}

export const MIN_BUCKETS = 1;
export const MAX_BUCKETS = 200;
export const DEFAULT_BUCKETS = 12;

/** Buckets over the range of `times` (which must not be empty). */
export function timeBuckets(times: readonly number[], requested: number): TimeBuckets {
  if (times.length === 0) throw new Error("timeBuckets needs at least one time");
  if (!Number.isInteger(requested) || requested < MIN_BUCKETS || requested > MAX_BUCKETS) throw new Error(`bucket count must be an integer in [${MIN_BUCKETS}, ${MAX_BUCKETS}]`);
  let start = Infinity;
  let end = -Infinity;
  for (const t of times) {
    start = Math.min(start, t);
    end = Math.max(end, t);
  }
  const span = end - start;
  const count = span > 0 ? requested : 1;
  const edges = Array.from({ length: count + 1 }, (_, k) => (k === count ? end : start + (span * k) / count));
  return {
    start,
    end,
    count,
    edges,
    indexOf: (t) => (span > 0 ? Math.max(0, Math.min(count - 1, Math.floor(((t - start) * count) / span + 1e-9))) : 0),
  };
}

/** A bound printed short: at most 4 significant digits, no trailing zeros. */
export function formatBound(x: number): string {
  return String(Number(cleanFloat(x).toPrecision(4)));
}
