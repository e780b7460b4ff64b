/**
 * Histogram bins for one metric, from the range of its non-null values.
 * A value v falls in bin i when edges[i] <= v < edges[i + 1]; the last bin
 * also holds its upper edge. The same rule is SQL's
 * `LEAST(width_bucket(v, <lower edges>), <bins>)`, so counts made in the
 * database and the traces listed behind a bar agree.
 *
 * - unit values (ratios in [0, 1]): ten bins of 0.1 over [0, 1];
 * - counts: one bin per integer when at most 20 values are possible, else
 *   about 20 bins of a "nice" integer width (1, 2, 5 x 10^k);
 * - booleans (0/1): "no" and "yes";
 * - other reals: about 10 bins of a nice width covering [min, max];
 * - a single distinct value: one bin [v, v]; no value at all: no bins.
 */
import type { MetricKind } from "./metrics";

export interface Bins {
  /** bins + 1 edges, ascending. */
  edges: number[];
  labels: string[];
  /** the edges cover the 2nd-98th percentiles only (binRange); values outside are counted apart */
  clipped?: boolean;
}

export interface Range {
  min: number;
  max: number;
}

const round12 = (x: number) => Number(x.toPrecision(12));

/** The smallest 1, 2 or 5 x 10^k at least `raw`. */
export function niceStep(raw: number): number {
  if (!(raw > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  // below ~1e-323 the power of ten underflows to 0: whole multiples of the smallest double instead
  if (!(power > 0)) return Number.MIN_VALUE * Math.ceil(raw / Number.MIN_VALUE);
  for (const m of [1, 2, 5, 10]) if (m * power >= raw * (1 - 1e-12)) return round12(m * power);
  return round12(10 * power);
}

const atMost = (edge: number, v: number, step: number) => (edge <= v ? edge : Math.min(v, edge - step));
const atLeast = (edge: number, v: number, step: number) => (edge >= v ? edge : Math.max(v, edge + step));

const short = (x: number) => String(Number(x.toPrecision(4)));

/** Values near ±1e308 (stored before SPEC's 1e15 limit): nice edges would pass the float8 limit, so one bin holds them all. */
const MAX_BINNABLE = 1e300;

/**
 * The bins of a metric's range. Pure, and the same ranges come back request
 * after request (a view refreshed, the same filter), so the last BINS_KEPT
 * are kept; each call gets its own copy.
 */
export function binEdges(kind: MetricKind, range: Range | null): Bins {
  if (range === null) return { edges: [], labels: [] };
  const key = `${kind} ${keyOf(range.min)} ${keyOf(range.max)}`;
  let bins = binsKept.get(key);
  if (bins === undefined) {
    bins = edgesOf(kind, range);
    if (binsKept.size >= BINS_KEPT) binsKept.clear();
    binsKept.set(key, bins);
  }
  return { edges: [...bins.edges], labels: [...bins.labels] };
}

const binsKept = new Map<string, Bins>();
const BINS_KEPT = 1024;
/** A number's key: String(x) is exact for every double but -0, which it writes as 0. */
const keyOf = (x: number) => (Object.is(x, -0) ? "-0" : String(x));

function edgesOf(kind: MetricKind, range: Range): Bins {
  if (range.min !== range.max && Math.max(Math.abs(range.min), Math.abs(range.max)) > MAX_BINNABLE) {
    return { edges: [range.min, range.max], labels: [`${short(range.min)}…${short(range.max)}`] };
  }
  const { min, max } = range;
  if (kind === "boolean") return { edges: [0, 1, 2], labels: ["no", "yes"] };
  if (kind === "unit" && min >= 0 && max <= 1) return { edges: [...UNIT.edges], labels: [...UNIT.labels] };
  if (min === max) return { edges: [min, max], labels: [short(min)] };
  if (kind === "count") {
    const step = Math.max(1, Math.ceil(niceStep((max - min + 1) / 20)));
    const lo = atMost(Math.floor(min / step) * step, min, step);
    const n = Math.floor((max - lo) / step) + 1;
    const edges = Array.from({ length: n + 1 }, (_, i) => lo + i * step);
    return { edges, labels: edges.slice(0, -1).map((e) => (step === 1 ? String(e) : `${e}-${e + step - 1}`)) };
  }
  const step = niceStep((max - min) / 10);
  // min / step rounds to 0 for a tiny min (1e-323 / 5), round12 drops digits of a 15-digit one: the edges still cover [min, max]
  // round12 keeps an edge short only where it moves it by less than half a step (a 15-digit edge it would move by dozens of steps)
  const snap = (x: number) => {
    const r = round12(x);
    return Math.abs(r - x) < step / 2 ? r : x;
  };
  const lo = atMost(snap(Math.floor(min / step) * step), min, step);
  const hi = atLeast(snap(Math.ceil(max / step) * step), max, step);
  const n = Math.max(1, Math.round((hi - lo) / step));
  // round12 keeps labels short; the first and last edges are exact, and no rounded edge falls below the one before
  const edges = [lo];
  for (let i = 1; i < n; i++) edges.push(Math.min(hi, Math.max(edges[i - 1]!, round12(lo + i * step))));
  edges.push(hi);
  return { edges, labels: rangeLabels(edges) };
}

/** "lo-hi" per bin, each edge written once (short). */
function rangeLabels(edges: readonly number[]): string[] {
  const written = edges.map(short);
  return written.slice(0, -1).map((e, i) => `${e}-${written[i + 1]!}`);
}

/** The unit bins (ten of 0.1 over [0, 1]), the same for every range inside [0, 1]: made once, copied per call. */
const UNIT: Bins = (() => {
  const edges = Array.from({ length: 11 }, (_, i) => round12(i / 10));
  return { edges, labels: rangeLabels(edges) };
})();

/** The bin of a value (as SQL's width_bucket rule above); -1 outside [first edge, last edge]. */
export function binIndex(edges: readonly number[], v: number): number {
  const bins = edges.length - 1;
  if (bins < 1 || v < edges[0]! || v > edges[bins]!) return -1;
  let i = 0;
  while (i + 1 < bins && v >= edges[i + 1]!) i++;
  return i;
}

/**
 * The range to bin: [min, max], unless a few outliers would squash every
 * other value into one bin: when the full range is more than 4 times the
 * 2nd-98th percentile range, the bins cover the percentiles and the values
 * outside are counted apart ("clipped"), never dropped silently.
 */
export function binRange(full: Range, p02: number | null, p98: number | null): { range: Range; clipped: boolean } {
  if (p02 === null || p98 === null || !(p98 > p02)) return { range: full, clipped: false };
  if (full.max - full.min <= 4 * (p98 - p02)) return { range: full, clipped: false };
  return { range: { min: p02, max: p98 }, clipped: true };
}

/**
 * PostgreSQL's percentile_cont(p) over the values `vs` (ascending, each
 * `ns[k]` times, `n` in all), in the same float8 arithmetic: the rows
 * floor and ceil of p·(n − 1) (0-based), interpolated as lo + (p·(n − 1) −
 * floor)·(hi − lo). Null without values.
 */
export function percentileOf(vs: readonly number[], ns: readonly number[], n: number, p: number): number | null {
  if (n === 0) return null;
  const at = p * (n - 1);
  const first = Math.floor(at);
  const second = Math.ceil(at);
  const nth = (row: number) => {
    let seen = 0;
    for (let k = 0; k < vs.length; k++) {
      seen += ns[k]!;
      if (row < seen) return vs[k]!;
    }
    return vs.at(-1)!;
  };
  const lo = nth(first);
  if (second === first) return lo;
  return lo + (at - first) * (nth(second) - lo);
}
