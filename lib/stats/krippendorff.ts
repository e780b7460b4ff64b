/**
 * Krippendorff's alpha with the interval metric (SPEC.md section 5):
 * agreement between annotators per family, 1 - observed / expected
 * disagreement, over units that have at least 2 values.
 */

/**
 * Alpha over `units`, each the values of one unit (one per annotator).
 * Units with fewer than 2 values are not pairable and are skipped. Null
 * when fewer than 2 units are pairable or when all pairable values are
 * equal (no expected disagreement). O(total values).
 */
export function krippendorffAlpha(units: Iterable<readonly number[]>): number | null {
  const pairable: (readonly number[])[] = [];
  for (const unit of units) if (unit.length >= 2) pairable.push(unit);
  if (pairable.length < 2) return null;

  let n = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const unit of pairable) {
    n += unit.length;
    for (const v of unit) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  // Compared exactly, so that rounding in a mean cannot invent disagreement.
  if (min === max) return null;

  // Over ordered pairs i != j: sum (v_i - v_j)^2 = 2 m sum (v_i - mean)^2.
  let observed = 0;
  for (const unit of pairable) observed += pairSquares(unit) / (unit.length - 1);
  observed /= n;
  const expected = pairSquares(pairable.flat()) / (n * (n - 1));
  return 1 - observed / expected;
}

/** Sum of (v_i - v_j)^2 over ordered pairs i != j. */
function pairSquares(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / values.length;
  let squares = 0;
  for (const v of values) squares += (v - mean) * (v - mean);
  return 2 * values.length * squares;
}
