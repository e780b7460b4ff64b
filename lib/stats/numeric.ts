/**
 * PostgreSQL's exact mean of float8 values, in TypeScript: the mean that
 * `(trim_scale(sum(v::numeric)) / count(v))::text` gives, read as a double
 * (lib/server/queries/metrics.ts `safeMean`, the summaries' trends), without
 * a numeric conversion per value in the database.
 *
 * - `v::numeric` is the value printed with 15 significant digits (C's
 *   `%.15g`: the exact binary value rounded half to even), so a value is
 *   m·10^q with |m| < 10^15 (float8Numeric);
 * - sums of those are exact (NumericSum: per power of ten in safe integers,
 *   then BigInt);
 * - numeric division picks its scale as PostgreSQL's select_div_scale does
 *   (at least 16 significant digits, in base-10000 digit groups, never fewer
 *   digits than the dividend's scale after trim_scale) and rounds half away
 *   from zero; the decimal it prints is read as the nearest double.
 */

const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i); // exact up to 10^22
const SPLIT = 134217729; // 2^27 + 1: Veltkamp's split of a double into two halves of 26 bits

/** The exact error of the rounded product p = fl(a·b): a·b = p + e exactly (Dekker's two-product). */
function productError(a: number, b: number, p: number): number {
  let t = SPLIT * a;
  const ahi = t - (t - a);
  const alo = a - ahi;
  t = SPLIT * b;
  const bhi = t - (t - b);
  const blo = b - bhi;
  return ahi * bhi - p + ahi * blo + alo * bhi + alo * blo;
}

/** The last float8Numeric's power of ten (fastM returns the digits; no object per value). */
let lastQ = 0;

/**
 * The m of v::numeric = m·10^q, q left in lastQ. For 10^-8 ≤ |v| < 10^15
 * exactly, in doubles: |v|·10^k (k = 14 − ⌊log10 |v|⌋, so 15 digits before
 * the point) is p + e exactly (p rounded, e its error, productError), and
 * the digits are p's integer part, rounded by comparing its fraction plus e
 * with a half (a tie to even). Other values from the exact expansion.
 */
function fastM(v: number): number {
  if (v === 0) {
    lastQ = 0;
    return 0;
  }
  const a = Math.abs(v);
  const k = 14 - Math.floor(Math.log10(a));
  if (k >= 0 && k <= 22) {
    const scale = POW10[k]!;
    const p = a * scale;
    if (p >= 1e14 && p < 1e15) {
      const f = Math.floor(p);
      const e = productError(a, scale, p);
      const d = p - f - 0.5; // exact: p's fraction is a multiple of its ulp (1/64 at least)
      const up = d > -e || (d === -e && f % 2 === 1);
      lastQ = 0 - k;
      return v < 0 ? -(up ? f + 1 : f) : up ? f + 1 : f;
    }
  }
  const exact = exactFloat8Numeric(v);
  lastQ = exact.q;
  return exact.m;
}

/** v::numeric as m·10^q (m an integer, |m| ≤ 10^15): float8_numeric's `%.15g`, the exact value rounded half to even to 15 significant digits. Finite values only. */
export function float8Numeric(v: number): { m: number; q: number } {
  const m = fastM(v);
  return { m, q: lastQ };
}

const F64 = new Float64Array(1);
const U64 = new BigUint64Array(F64.buffer);

/** float8Numeric from the value's exact binary expansion (BigInt): the rare values the fast path leaves. */
export function exactFloat8Numeric(v: number): { m: number; q: number } {
  if (!Number.isFinite(v)) throw new RangeError(`not a finite value: ${v}`);
  if (v === 0) return { m: 0, q: 0 };
  F64[0] = Math.abs(v);
  const bits = U64[0]!;
  const biased = Number(bits >> 52n);
  const fraction = bits & ((1n << 52n) - 1n);
  // |v| = mant·2^exp exactly
  const mant = biased === 0 ? fraction : fraction | (1n << 52n);
  const exp = (biased === 0 ? 1 : biased) - 1075;
  // |v| = n·10^-scale exactly
  const [n, scale] = exp >= 0 ? [mant << BigInt(exp), 0] : [mant * 5n ** BigInt(-exp), -exp];
  const digits = n.toString().length;
  if (digits <= 15) return { m: Number(n) * Math.sign(v), q: 0 - scale };
  const drop = digits - 15;
  const div = 10n ** BigInt(drop);
  let m = n / div;
  const r = n % div;
  const half = div / 2n;
  if (r > half || (r === half && m % 2n === 1n)) m += 1n;
  return { m: Number(m) * Math.sign(v), q: drop - scale };
}

const POW10N: bigint[] = [1n];
/** 10^k as a BigInt (kept: the same few powers come back). */
function pow10n(k: number): bigint {
  for (let i = POW10N.length; i <= k; i++) POW10N.push(POW10N[i - 1]! * 10n);
  return POW10N[k]!;
}

/** An exact sum of m·10^q terms: per q (a metric's values have a few) a safe-integer partial sum, carried into BigInt before it could lose a digit. */
export class NumericSum {
  private readonly qs: number[] = [];
  private readonly partial: number[] = [];
  private carried: Map<number, bigint> | null = null;
  /** The sum of the non-finite values added, if any (numeric's NaN and ±Infinity add as floats do: ∞ − ∞ is NaN). */
  private special: number | null = null;

  /** Adds m·10^q (|m| at most 2^53 − 1). */
  add(m: number, q: number): void {
    if (m === 0) return;
    const qs = this.qs;
    for (let i = 0; i < qs.length; i++) {
      if (qs[i] !== q) continue;
      const p = this.partial[i]!;
      const s = p + m;
      if (Math.abs(s) <= Number.MAX_SAFE_INTEGER) this.partial[i] = s;
      else {
        this.carry(q, BigInt(p));
        this.partial[i] = m;
      }
      return;
    }
    qs.push(q);
    this.partial.push(m);
  }

  private carry(q: number, b: bigint): void {
    this.carried ??= new Map();
    this.carried.set(q, (this.carried.get(q) ?? 0n) + b);
  }

  /** Adds a float8 value as v::numeric. */
  addFloat(v: number): void {
    if (!Number.isFinite(v)) {
      this.special = (this.special ?? 0) + v;
      return;
    }
    const m = fastM(v);
    this.add(m, lastQ);
  }

  /** Adds every term of `other`. */
  addAll(other: NumericSum): void {
    for (let i = 0; i < other.qs.length; i++) this.add(other.partial[i]!, other.qs[i]!);
    if (other.carried) for (const [q, b] of other.carried) this.carry(q, b);
    if (other.special !== null) this.special = (this.special ?? 0) + other.special;
  }

  /** The sum as n·10^-scale, scale ≥ 0 (not yet the least: trimmed, below, where it matters). */
  private exact(): { n: bigint; scale: number } {
    let low = 0;
    for (const q of this.qs) low = Math.min(low, q);
    if (this.carried) for (const q of this.carried.keys()) low = Math.min(low, q);
    let n = 0n;
    for (let i = 0; i < this.qs.length; i++) if (this.partial[i] !== 0) n += BigInt(this.partial[i]!) * pow10n(this.qs[i]! - low);
    if (this.carried) for (const [q, b] of this.carried) n += b * pow10n(q - low);
    return { n, scale: 0 - low };
  }

  /** The sum as n·10^-scale, scale ≥ 0 the least that holds it (trim_scale). */
  value(): { n: bigint; scale: number } {
    return trim(this.exact());
  }

  /** `(trim_scale(sum)::numeric / count)::text` read as a double; null without values (count 0). */
  mean(count: number): number | null {
    if (count === 0) return null;
    if (this.special !== null) return this.special;
    return numericQuotient(this.exact(), count);
  }

  /** That text itself (finite sums). */
  meanText(count: number): string | null {
    if (count === 0) return null;
    if (this.special !== null) return String(this.special);
    return numericQuotientText(this.exact(), count);
  }
}

/** n·10^-scale with its trailing zeros dropped (scale ≥ 0). */
function trim(x: { n: bigint; scale: number }): { n: bigint; scale: number } {
  let { n, scale } = x;
  if (n === 0n) return { n, scale: 0 };
  while (scale > 0 && n % 10n === 0n) {
    n /= 10n;
    scale--;
  }
  return { n, scale };
}

/** The weight and first digit of |x|·10^-scale in base 10000 (select_div_scale's); 0 and 0 for zero. */
function leading(x: bigint, scale: number): { weight: number; first: bigint } {
  if (x === 0n) return { weight: 0, first: 0n };
  const a = x < 0n ? -x : x;
  const top = a.toString().length - 1 - scale; // 10^top ≤ |x| < 10^(top + 1)
  const weight = Math.floor(top / 4);
  const shift = 4 * weight + scale;
  const first = shift >= 0 ? a / pow10n(shift) : a * pow10n(-shift);
  return { weight, first };
}

/**
 * numeric division of n·10^-scale by a positive integer count, as
 * numeric_out prints it: PostgreSQL's result scale, rounded half away from
 * zero. The dividend's scale counts after trim_scale, and only where it
 * passes the scale the significant digits ask (else trimming would change
 * nothing).
 */
export function numericQuotientText(sum: { n: bigint; scale: number }, count: number): string {
  const d = BigInt(count);
  const a = leading(sum.n, sum.scale);
  const b = leading(d, 0);
  let qweight = a.weight - b.weight;
  if (a.first <= b.first) qweight--;
  const wanted = Math.max(16 - qweight * 4, 0);
  const x = sum.scale > wanted ? trim(sum) : sum;
  const rscale = Math.min(1000, Math.max(wanted, x.scale));
  const num = x.n * pow10n(rscale - x.scale);
  let q = num / d;
  const r = num % d;
  if (2n * (r < 0n ? -r : r) >= d) q += num < 0n ? -1n : 1n;
  const digits = (q < 0n ? -q : q).toString().padStart(rscale + 1, "0");
  const whole = digits.slice(0, digits.length - rscale);
  return `${q < 0n ? "-" : ""}${whole}${rscale > 0 ? `.${digits.slice(whole.length)}` : ""}`;
}

/** numericQuotientText read as a double (the nearest). */
export function numericQuotient(sum: { n: bigint; scale: number }, count: number): number {
  return Number(numericQuotientText(sum, count));
}
