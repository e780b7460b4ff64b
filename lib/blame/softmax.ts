/**
 * A conditional logit ("which one of these is the decisive one"): a linear
 * score w·x per candidate, softmax over the candidates of one set (the
 * events or the agents of one trace), trained by full-batch Adam on the
 * mean negative log-likelihood plus an L2 penalty. Deterministic: weights
 * start at zero and there is no sampling.
 *
 * Hand-written because the maintained npm logistic regressions
 * (ml-logistic-regression) fit independent binary or one-vs-rest models,
 * not a softmax over a varying set of candidates per example.
 */

/** Sparse feature vector: indices and values. */
export interface SparseRow {
  readonly idx: readonly number[];
  readonly val: readonly number[];
}

export interface ChoiceSet {
  readonly rows: readonly SparseRow[];
  /** Index of the decisive candidate in rows. */
  readonly chosen: number;
}

export interface LogitOptions {
  /** L2 penalty on the weights (default 0.01). */
  readonly l2?: number;
  /** Adam steps (default 300). */
  readonly iterations?: number;
  /** Adam step size (default 0.05). */
  readonly rate?: number;
}

export function dot(w: ArrayLike<number>, row: SparseRow): number {
  let s = 0;
  for (let i = 0; i < row.idx.length; i++) s += w[row.idx[i]!]! * row.val[i]!;
  return s;
}

/** Softmax of the candidates' scores (stable). */
export function softmax(scores: readonly number[]): number[] {
  const max = Math.max(...scores);
  const exp = scores.map((s) => Math.exp(s - max));
  const sum = exp.reduce((a, b) => a + b, 0);
  return exp.map((e) => e / sum);
}

/** Weights of the conditional logit over `dim` features. */
export function trainLogit(sets: readonly ChoiceSet[], dim: number, options: LogitOptions = {}): Float64Array {
  const l2 = options.l2 ?? 0.01;
  const iterations = options.iterations ?? 300;
  const rate = options.rate ?? 0.05;
  // the candidates flattened once (rows of all sets, their non-zeros): the same sums in the same order, without allocations per step
  const setStart: number[] = [0];
  const rowStart: number[] = [0];
  const idx: number[] = [];
  const val: number[] = [];
  const chosen: number[] = [];
  for (const set of sets) {
    for (const row of set.rows) {
      for (let i = 0; i < row.idx.length; i++) {
        idx.push(row.idx[i]!);
        val.push(row.val[i]!);
      }
      rowStart.push(idx.length);
    }
    chosen.push(setStart[setStart.length - 1]! + set.chosen);
    setStart.push(rowStart.length - 1);
  }
  const fIdx = Int32Array.from(idx);
  const fVal = Float64Array.from(val);
  const rows = rowStart.length - 1;
  // typed offsets: the hot loops below read them billions of times over a nested CV
  const setAt = Int32Array.from(setStart);
  const rowAt = Int32Array.from(rowStart);
  const chosenAt = Int32Array.from(chosen);
  const score = new Float64Array(rows);
  const w = new Float64Array(dim);
  const m = new Float64Array(dim);
  const v = new Float64Array(dim);
  const grad = new Float64Array(dim);
  const [b1, b2, eps] = [0.9, 0.999, 1e-8];
  const scale = 1 / Math.max(1, sets.length);
  for (let step = 1; step <= iterations; step++) {
    for (let i = 0; i < dim; i++) grad[i] = l2 * w[i]!;
    for (let s = 0; s < sets.length; s++) {
      const a = setAt[s]!;
      const b = setAt[s + 1]!;
      let max = -Infinity;
      for (let r = a; r < b; r++) {
        let x = 0;
        const end = rowAt[r + 1]!;
        for (let i = rowAt[r]!; i < end; i++) x += w[fIdx[i]!]! * fVal[i]!;
        score[r] = x;
        if (x > max) max = x;
      }
      let sum = 0;
      for (let r = a; r < b; r++) {
        score[r] = Math.exp(score[r]! - max);
        sum += score[r]!;
      }
      const picked = chosenAt[s]!;
      for (let r = a; r < b; r++) {
        const coefficient = (score[r]! / sum - (r === picked ? 1 : 0)) * scale;
        if (coefficient === 0) continue;
        const end = rowAt[r + 1]!;
        for (let i = rowAt[r]!; i < end; i++) grad[fIdx[i]!]! += coefficient * fVal[i]!;
      }
    }
    const c1 = 1 - b1 ** step;
    const c2 = 1 - b2 ** step;
    for (let i = 0; i < dim; i++) {
      m[i] = b1 * m[i]! + (1 - b1) * grad[i]!;
      v[i] = b2 * v[i]! + (1 - b2) * grad[i]! * grad[i]!;
      w[i]! -= (rate * (m[i]! / c1)) / (Math.sqrt(v[i]! / c2) + eps);
    }
  }
  return w;
}
