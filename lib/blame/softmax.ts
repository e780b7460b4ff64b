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
  // (typed offsets: the hot loops below read them billions of times over a nested CV)
  const { fIdx, fVal, rows, setAt, rowAt, chosenAt } = packSets(sets);
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
      let r = a;
      // four rows at a time: four independent sums (each in its own order) keep the CPU busy where one waits on its last add
      for (; r + 3 < b; r += 4) {
        const i0 = rowAt[r]!;
        const i1 = rowAt[r + 1]!;
        const i2 = rowAt[r + 2]!;
        const i3 = rowAt[r + 3]!;
        const i4 = rowAt[r + 4]!;
        const n = Math.min(i1 - i0, i2 - i1, i3 - i2, i4 - i3);
        let x0 = 0;
        let x1 = 0;
        let x2 = 0;
        let x3 = 0;
        for (let t = 0; t < n; t++) {
          x0 += w[fIdx[i0 + t]!]! * fVal[i0 + t]!;
          x1 += w[fIdx[i1 + t]!]! * fVal[i1 + t]!;
          x2 += w[fIdx[i2 + t]!]! * fVal[i2 + t]!;
          x3 += w[fIdx[i3 + t]!]! * fVal[i3 + t]!;
        }
        for (let i = i0 + n; i < i1; i++) x0 += w[fIdx[i]!]! * fVal[i]!;
        for (let i = i1 + n; i < i2; i++) x1 += w[fIdx[i]!]! * fVal[i]!;
        for (let i = i2 + n; i < i3; i++) x2 += w[fIdx[i]!]! * fVal[i]!;
        for (let i = i3 + n; i < i4; i++) x3 += w[fIdx[i]!]! * fVal[i]!;
        score[r] = x0;
        score[r + 1] = x1;
        score[r + 2] = x2;
        score[r + 3] = x3;
        if (x0 > max) max = x0;
        if (x1 > max) max = x1;
        if (x2 > max) max = x2;
        if (x3 > max) max = x3;
      }
      for (; r < b; r++) {
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

/** A sparse row whose entries from `tail` on (e.g. hashed words) are read only by the models that take a tail. */
export interface TailedRow extends SparseRow {
  readonly tail: number;
}

/** One model of a batch (trainLogitBatch). */
export interface BatchModel {
  readonly l2: number;
  /** The columns it has (1) of the batch's `named` first columns; absent: all of them. Its other columns stay 0. */
  readonly columns?: Uint8Array;
  /** Whether it reads the rows' tails (the columns from `named` on). */
  readonly tail: boolean;
  /** The sets it is trained on (1); absent: every set. */
  readonly sets?: Uint8Array;
}

/**
 * Several conditional logits trained in one pass over the same rows, each
 * exactly as trainLogit trains it alone on its own columns and sets (the
 * same sums in the same order, per model). A model's rows are the batch's
 * rows without the columns it lacks and without the tails unless it takes
 * them: its weights there stay +0, so those terms add ±0, which changes no
 * sum that starts at +0 (a sum of finite terms from +0 is never -0); a set
 * it is not trained on adds ±0 to its gradient. Models are computed four
 * at a time, one independent sum each, over every row read once: what
 * makes it cheaper than training them one by one. Weights come back over
 * the batch's `dim` columns.
 */
export function trainLogitBatch(sets: readonly { rows: readonly TailedRow[]; chosen: number }[], named: number, dim: number, models: readonly BatchModel[], options: { iterations: number; rate: number }): Float64Array[] {
  const { iterations, rate } = options;
  // four lanes per pass; the models with tails last, so that the passes without one skip the tails; spare lanes stay 0
  const order = [...models.keys()].sort((a, b) => Number(models[a]!.tail) - Number(models[b]!.tail) || a - b);
  const L = 4;
  const passes = Math.ceil(order.length / L);
  const K = passes * L;
  const lane = new Int32Array(models.length);
  order.forEach((m, k) => (lane[m] = k));
  const { fIdx, fVal, rows, setAt, rowAt, tailAt, chosenAt } = packSets(sets);
  // lane k's value of column j at j * K + k; each non-zero's j * K, once
  const fAt = Int32Array.from(fIdx, (j) => j * K);
  // when every tail non-zero has one value (the hashed words' value), a tail term w * value is read from wv, where each
  // step keeps w * value (the same product), and a gradient term is the row's coefficient * value (again the same)
  let tailValue = NaN;
  let oneTailValue = true;
  for (let r = 0; r < rows && oneTailValue; r++) {
    for (let i = tailAt[r]!; i < rowAt[r + 1]!; i++) {
      if (Number.isNaN(tailValue)) tailValue = fVal[i]!;
      else if (!Object.is(fVal[i]!, tailValue)) {
        oneTailValue = false;
        break;
      }
    }
  }
  const tailFrom = named * K;
  const wv = new Float64Array(dim * K);
  const used = new Uint8Array(dim * K);
  const inSet = new Uint8Array(sets.length * K);
  const l2 = new Float64Array(K);
  const scale = new Float64Array(K);
  const withTail = new Uint8Array(passes);
  // passes with a single model (the last one of a batch of 4n + 1)
  const alone = Uint8Array.from({ length: passes }, (_, p) => (order.length - p * L === 1 ? 1 : 0));
  models.forEach((m, i) => {
    const k = lane[i]!;
    l2[k] = m.l2;
    if (m.tail) withTail[Math.floor(k / L)] = 1;
    for (let j = 0; j < dim; j++) used[j * K + k] = j < named ? (m.columns ? m.columns[j]! : 1) : m.tail ? 1 : 0;
    let count = 0;
    for (let s = 0; s < sets.length; s++) count += inSet[s * K + k] = m.sets ? m.sets[s]! : 1;
    scale[k] = 1 / Math.max(1, count);
  });
  const score = new Float64Array(rows * K);
  const w = new Float64Array(dim * K);
  const mo = new Float64Array(dim * K);
  const v = new Float64Array(dim * K);
  const grad = new Float64Array(dim * K);
  const max = new Float64Array(K);
  const sum = new Float64Array(K);
  const [b1, b2, eps] = [0.9, 0.999, 1e-8];
  for (let step = 1; step <= iterations; step++) {
    for (let j = 0; j < dim; j++) for (let k = 0; k < K; k++) grad[j * K + k] = l2[k]! * w[j * K + k]!;
    for (let s = 0; s < sets.length; s++) {
      const a = setAt[s]!;
      const b = setAt[s + 1]!;
      for (let p = 0; p < passes; p++) {
        const o = p * L;
        const tails = withTail[p] === 1;
        if (alone[p] === 1) {
          // a pass with one model (a batch of 4n + 1): its lane alone, the same sums without three spare ones
          let m0 = -Infinity;
          for (let r = a; r < b; r++) {
            let x0 = 0;
            const end = tails && !oneTailValue ? rowAt[r + 1]! : tailAt[r]!;
            for (let i = rowAt[r]!; i < end; i++) x0 += w[fAt[i]! + o]! * fVal[i]!;
            if (tails && oneTailValue) {
              const last = rowAt[r + 1]!;
              for (let i = end; i < last; i++) x0 += wv[fAt[i]! + o]!;
            }
            score[r * K + o] = x0;
            if (x0 > m0) m0 = x0;
          }
          max[o] = m0;
          continue;
        }
        let m0 = -Infinity;
        let m1 = -Infinity;
        let m2 = -Infinity;
        let m3 = -Infinity;
        for (let r = a; r < b; r++) {
          let x0 = 0;
          let x1 = 0;
          let x2 = 0;
          let x3 = 0;
          const end = tails && !oneTailValue ? rowAt[r + 1]! : tailAt[r]!;
          for (let i = rowAt[r]!; i < end; i++) {
            const c = fAt[i]! + o;
            const value = fVal[i]!;
            x0 += w[c]! * value;
            x1 += w[c + 1]! * value;
            x2 += w[c + 2]! * value;
            x3 += w[c + 3]! * value;
          }
          if (tails && oneTailValue) {
            const last = rowAt[r + 1]!;
            for (let i = end; i < last; i++) {
              const c = fAt[i]! + o;
              x0 += wv[c]!;
              x1 += wv[c + 1]!;
              x2 += wv[c + 2]!;
              x3 += wv[c + 3]!;
            }
          }
          const at = r * K + o;
          score[at] = x0;
          score[at + 1] = x1;
          score[at + 2] = x2;
          score[at + 3] = x3;
          if (x0 > m0) m0 = x0;
          if (x1 > m1) m1 = x1;
          if (x2 > m2) m2 = x2;
          if (x3 > m3) m3 = x3;
        }
        max[o] = m0;
        max[o + 1] = m1;
        max[o + 2] = m2;
        max[o + 3] = m3;
      }
      // the exponentials of the lanes trained on this set (a spare lane, or a model not trained on it, has coefficient 0)
      for (let k = 0; k < K; k++) {
        if (inSet[s * K + k] === 0) continue;
        const top = max[k]!;
        let total = 0;
        for (let at = a * K + k; at < b * K; at += K) {
          const e = Math.exp(score[at]! - top);
          score[at] = e;
          total += e;
        }
        sum[k] = total;
      }
      const picked = chosenAt[s]!;
      for (let r = a; r < b; r++) {
        for (let p = 0; p < passes; p++) {
          const o = p * L;
          const at = r * K + o;
          const hit = r === picked ? 1 : 0;
          const c0 = inSet[s * K + o] ? (score[at]! / sum[o]! - hit) * scale[o]! : 0;
          if (alone[p] === 1) {
            if (c0 === 0) continue;
            const tails = withTail[p] === 1;
            const end = tails && !oneTailValue ? rowAt[r + 1]! : tailAt[r]!;
            for (let i = rowAt[r]!; i < end; i++) grad[fAt[i]! + o]! += c0 * fVal[i]!;
            if (tails && oneTailValue) {
              const last = rowAt[r + 1]!;
              const d0 = c0 * tailValue;
              for (let i = end; i < last; i++) grad[fAt[i]! + o]! += d0;
            }
            continue;
          }
          const c1 = inSet[s * K + o + 1] ? (score[at + 1]! / sum[o + 1]! - hit) * scale[o + 1]! : 0;
          const c2 = inSet[s * K + o + 2] ? (score[at + 2]! / sum[o + 2]! - hit) * scale[o + 2]! : 0;
          const c3 = inSet[s * K + o + 3] ? (score[at + 3]! / sum[o + 3]! - hit) * scale[o + 3]! : 0;
          if (c0 === 0 && c1 === 0 && c2 === 0 && c3 === 0) continue;
          const tails = withTail[p] === 1;
          const end = tails && !oneTailValue ? rowAt[r + 1]! : tailAt[r]!;
          for (let i = rowAt[r]!; i < end; i++) {
            const c = fAt[i]! + o;
            const value = fVal[i]!;
            grad[c]! += c0 * value;
            grad[c + 1]! += c1 * value;
            grad[c + 2]! += c2 * value;
            grad[c + 3]! += c3 * value;
          }
          if (tails && oneTailValue) {
            const last = rowAt[r + 1]!;
            const d0 = c0 * tailValue;
            const d1 = c1 * tailValue;
            const d2 = c2 * tailValue;
            const d3 = c3 * tailValue;
            for (let i = end; i < last; i++) {
              const c = fAt[i]! + o;
              grad[c]! += d0;
              grad[c + 1]! += d1;
              grad[c + 2]! += d2;
              grad[c + 3]! += d3;
            }
          }
        }
      }
    }
    const c1 = 1 - b1 ** step;
    const c2 = 1 - b2 ** step;
    for (let j = 0; j < dim * K; j++) {
      if (!used[j]) continue;
      mo[j] = b1 * mo[j]! + (1 - b1) * grad[j]!;
      v[j] = b2 * v[j]! + (1 - b2) * grad[j]! * grad[j]!;
      w[j]! -= (rate * (mo[j]! / c1)) / (Math.sqrt(v[j]! / c2) + eps);
      if (j >= tailFrom) wv[j] = w[j]! * tailValue;
    }
  }
  return models.map((_, i) => Float64Array.from({ length: dim }, (_, j) => w[j * K + lane[i]!]!));
}

/**
 * Choice sets flattened once: every row's non-zeros one after another (`fIdx`, `fVal`), each row's start (`rowAt`, one
 * past the end last), each set's first row (`setAt`), its chosen row's index (`chosenAt`) and, for rows with a tail,
 * where the tail's non-zeros start (`tailAt`).
 */
function packSets(sets: readonly { rows: readonly (SparseRow & { tail?: number })[]; chosen: number }[]) {
  const setStart: number[] = [0];
  const rowStart: number[] = [0];
  const tailStart: number[] = [];
  const idx: number[] = [];
  const val: number[] = [];
  const chosen: number[] = [];
  for (const set of sets) {
    for (const row of set.rows) {
      tailStart.push(idx.length + (row.tail ?? row.idx.length));
      for (let i = 0; i < row.idx.length; i++) {
        idx.push(row.idx[i]!);
        val.push(row.val[i]!);
      }
      rowStart.push(idx.length);
    }
    chosen.push(setStart[setStart.length - 1]! + set.chosen);
    setStart.push(rowStart.length - 1);
  }
  return {
    fIdx: Int32Array.from(idx),
    fVal: Float64Array.from(val),
    rows: rowStart.length - 1,
    setAt: Int32Array.from(setStart),
    rowAt: Int32Array.from(rowStart),
    tailAt: Int32Array.from(tailStart),
    chosenAt: Int32Array.from(chosen),
  };
}
