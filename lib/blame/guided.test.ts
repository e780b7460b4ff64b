import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answerQuestion, nextQuestion, runGuided, startGuided } from "./guided";
import type { BlameRanking } from "./types";

const ids = (n: number) => Array.from({ length: n }, (_, i) => `e${i}`);
const prior = (weights: readonly number[]): BlameRanking => ({
  method: "test",
  events: weights.map((score, i) => ({ id: `e${i}`, agent: "a", rank: 1, score, signals: {} })),
  agents: [],
});
const bound = (n: number) => Math.ceil(Math.log2(n)) + 1;

describe("guided search with a truthful annotator", () => {
  it("finds the planted step within ceil(log2 N) + 1 answers for every N up to 40 and every position (no prior, a right and a wrong prior)", () => {
    for (let n = 1; n <= 40; n++) {
      for (let d = 0; d < n; d++) {
        const priors = [null, prior(ids(n).map((_, i) => (i === d ? 1 : 0))), prior(ids(n).map((_, i) => (i === n - 1 - d ? 5 : 0.1)))];
        for (const p of priors) {
          const result = runGuided(ids(n), p, (k) => k < d);
          expect(result.decisive_index).toBe(d);
          expect(result.answers.length).toBeLessThanOrEqual(n === 1 ? 0 : bound(n));
          expect(result.contradictions).toEqual([]);
        }
      }
    }
  });

  it("holds for every N from 2 to 1,000, any planted step and any prior (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 1000 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n - 1 }), fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: n, maxLength: n }))),
        ([n, d, weights]) => {
          const result = runGuided(ids(n), prior(weights), (k) => k < d);
          expect(result.decisive_index).toBe(d);
          expect(result.decisive_event_id).toBe(`e${d}`);
          expect(result.answers.length).toBeLessThanOrEqual(bound(n));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never asks the same question twice in a row (every N up to 40, every position, with and without a prior)", () => {
    for (let n = 1; n <= 40; n++) {
      for (let d = 0; d < n; d++) {
        for (const p of [null, prior(ids(n).map((_, i) => (i === d ? 1 : 0))), prior(ids(n).map((_, i) => (i === d - 1 ? 1 : 0)))]) {
          const asked = runGuided(ids(n), p, (k) => k < d).answers.map((a) => a.k);
          asked.forEach((k, i) => expect(k, `N=${n}, d=${d}: ${asked.join(",")}`).not.toBe(asked[i - 1]));
        }
      }
    }
  });

  it("asks fewer questions when the prior points at the decisive step", () => {
    // N = 100: 8 answers at most; the first split is free (2^7 >= 100) and lands on the prior's peak
    const weights = ids(100).map((_, i) => (i === 37 ? 10 : 0.001));
    const guided = runGuided(ids(100), prior(weights), (k) => k < 37);
    expect(guided.answers.map((a) => [a.k, a.on_track, a.purpose])).toEqual([
      [37, false, "bisect"],
      [36, true, "bisect"],
      // the check re-asks the decisive step, not the question just answered
      [37, false, "check"],
    ]);
    const plain = runGuided(ids(100), null, (k) => k < 37);
    expect(plain.decisive_index).toBe(37);
    expect(plain.answers.length).toBeGreaterThan(guided.answers.length);
  });
});

describe("contradictions", () => {
  it("reports an annotator who says on track after a step later than one it called off track", () => {
    let state = startGuided(ids(10));
    state = answerQuestion(state, 2, false);
    state = answerQuestion(state, 5, true);
    const step = nextQuestion(state);
    // the newer answer wins: the search goes on in 6..9
    expect(step.kind).toBe("question");
    if (step.kind === "question") expect(step.k).toBeGreaterThanOrEqual(6);
    const done = runGuidedFrom(state, (k) => k < 7);
    expect(done.decisive_index).toBe(7);
    expect(done.contradictions.map((c) => [c.earlier.k, c.earlier.on_track, c.later.k, c.later.on_track])).toEqual([[2, false, 5, true]]);
  });

  it("catches an annotator who changes its mind through the final check", () => {
    const asked = new Map<number, number>();
    // truthful for a decisive step 6, except that the second time it is asked about a step it says the opposite
    const flipFlop = (k: number) => {
      asked.set(k, (asked.get(k) ?? 0) + 1);
      return asked.get(k) === 1 ? k < 6 : k >= 6;
    };
    const result = runGuided(ids(16), null, flipFlop);
    // bisection: 7 off, 3 on, 5 on, 6 off; the check re-asks 5 and hears "off track": the search reopens
    expect(result.answers.slice(0, 5).map((a) => [a.k, a.on_track, a.purpose])).toEqual([
      [7, false, "bisect"],
      [3, true, "bisect"],
      [5, true, "bisect"],
      [6, false, "bisect"],
      [5, false, "check"],
    ]);
    expect(result.contradictions[0]).toMatchObject({ earlier: { k: 5, on_track: true }, later: { k: 5, on_track: false, purpose: "check" } });
    expect(result.decisive_index).toBe(5);
  });

  it("rejects a step that is not in the trace", () => {
    expect(() => answerQuestion(startGuided(ids(3)), 3, true)).toThrow(RangeError);
    // the run failed: off track after its last step is a given, on track there is impossible
    expect(() => answerQuestion(startGuided(ids(3)), 2, true)).toThrow(RangeError);
    expect(nextQuestion(answerQuestion(startGuided(ids(3)), 2, false)).kind).toBe("question");
  });
});

function runGuidedFrom(state: ReturnType<typeof startGuided>, onTrack: (k: number) => boolean) {
  for (;;) {
    const step = nextQuestion(state);
    if (step.kind === "done") return step;
    state = answerQuestion(state, step.k, onTrack(step.k), step.purpose);
  }
}
