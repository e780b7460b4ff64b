import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeMetrics } from "../metrics";
import { BUILTIN_PRESETS } from "../rewards/presets";
import { traceArb } from "../trace/arbitrary";
import { FAMILIES, type Trace } from "../trace/types";
import { computeCredit, type CreditResponse } from "./index";

/**
 * Invariants that hold whatever the implementation, over
 * generated traces. CI-sized: 40 runs each, a few seconds in all.
 */
const RUNS = { numRuns: 40 };
/** generous: the runs take a second or two, but CI shares two cores */
const TIMEOUT = 60_000;
const METHODS = ["ccp", "uniform", "terminal", "mc_return"] as const;
const PRESETS = [BUILTIN_PRESETS.uniform, BUILTIN_PRESETS.code_generation];

/** Everything a trace's numbers are: metrics and credit under each method, preset and normalize, keyed by event id. */
function numbers(trace: Trace, rename: (id: string) => string = (id) => id) {
  const credit: Record<string, unknown> = {};
  for (const method of METHODS) {
    for (const preset of PRESETS) {
      for (const normalize of [false, true]) {
        const res = computeCredit(trace, { method, preset, normalize });
        const events = Object.fromEntries(res.events.map((e) => [rename(e.id), { total: e.total, by_family: e.by_family }]));
        credit[`${method}/${preset.name}/${normalize}`] = { r_total: res.r_total, families: res.families, events };
      }
    }
  }
  return { metrics: computeMetrics(trace), credit };
}

/** Deep equality with numbers compared to 1e-9 (sums in another order round differently); one assertion per call, so it stays fast. */
function expectSame(actual: unknown, expected: unknown): void {
  const differences: string[] = [];
  const walk = (a: unknown, e: unknown, path: string) => {
    if (typeof e === "number" && typeof a === "number") {
      if (!(Math.abs(a - e) <= 1e-9 * Math.max(1, Math.abs(e)))) differences.push(`${path}: ${a} vs ${e}`);
    } else if (e === null || typeof e !== "object" || a === null || typeof a !== "object") {
      if (a !== e) differences.push(`${path}: ${JSON.stringify(a)} vs ${JSON.stringify(e)}`);
    } else {
      const ka = Object.keys(a).sort();
      const ke = Object.keys(e).sort();
      if (ka.join() !== ke.join()) differences.push(`${path}: keys ${ka.join()} vs ${ke.join()}`);
      for (const k of ke) walk((a as Record<string, unknown>)[k], (e as Record<string, unknown>)[k], `${path}.${k}`);
    }
  };
  walk(actual, expected, "$");
  expect(differences.slice(0, 5)).toEqual([]);
}

function shuffle<T>(items: readonly T[], keys: readonly number[]): T[] {
  return items.map((item, i) => [item, keys[i % keys.length]! + i / 1000] as const).sort((x, y) => x[1] - y[1]).map(([item]) => item);
}

describe("invariants over generated traces", () => {
  it("reordering the events array (distinct t) changes nothing", () => {
    fc.assert(
      fc.property(traceArb, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 12 }), (trace, keys) => {
        expectSame(numbers({ ...trace, events: shuffle(trace.events, keys) }), numbers(trace));
      }),
      RUNS,
    );
  }, TIMEOUT);

  it("adding or removing temporal edges changes nothing", () => {
    fc.assert(
      fc.property(traceArb, fc.nat(), fc.nat(), (trace, a, b) => {
        const n = trace.events.length;
        const without = { ...trace, edges: trace.edges.filter((e) => e.type !== "temporal") };
        const src = trace.events[a % n]!.id;
        const dst = trace.events[b % n]!.id;
        const added = src === dst ? trace : { ...trace, edges: [...trace.edges, { src, dst, type: "temporal" as const }] };
        const expected = numbers(trace);
        expectSame(numbers(without), expected);
        expectSame(numbers(added), expected);
      }),
      RUNS,
    );
  }, TIMEOUT);

  it("renaming event ids consistently changes nothing", () => {
    fc.assert(
      fc.property(traceArb, fc.string({ minLength: 1, maxLength: 6 }), (trace, prefix) => {
        const name = (id: string) => `${prefix}:${id}!`;
        const renamed: Trace = {
          ...trace,
          events: trace.events.map((e) => ({ ...e, id: name(e.id) })),
          edges: trace.edges.map((e) => ({ ...e, src: name(e.src), dst: name(e.dst) })),
        };
        // compare the original under the same names
        expectSame(numbers(renamed), numbers(trace, name));
      }),
      RUNS,
    );
  }, TIMEOUT);

  it("normalize makes each family's credits sum to R_f whenever it applies; uniform credits sum to R_total", () => {
    fc.assert(
      fc.property(traceArb, (trace) => {
        for (const preset of PRESETS) {
          const plain = computeCredit(trace, { method: "ccp", preset });
          const normalized = computeCredit(trace, { method: "ccp", preset, normalize: true });
          for (const f of FAMILIES) {
            const target = normalized.families[f];
            const before = plain.events.reduce((s, e) => s + e.by_family[f]!, 0);
            const after = normalized.events.reduce((s, e) => s + e.by_family[f]!, 0);
            if (target === null || target === undefined || Math.abs(before) <= 1e-12) expect(after, f).toBeCloseTo(before, 12);
            else expect(after, f).toBeCloseTo(target, 9);
          }
          const uniform = computeCredit(trace, { method: "uniform", preset });
          expect(uniform.events.reduce((s, e) => s + e.total, 0)).toBeCloseTo(uniform.r_total, 9);
        }
      }),
      RUNS,
    );
  }, TIMEOUT);

  it("every computed number is finite or null", () => {
    const check = (value: unknown, path: string): void => {
      if (typeof value === "number") expect(Number.isFinite(value), path).toBe(true);
      else if (value !== null && typeof value === "object") for (const [k, v] of Object.entries(value)) check(v, `${path}.${k}`);
    };
    fc.assert(
      fc.property(traceArb, (trace) => {
        check(numbers(trace), "$");
        const res: CreditResponse = computeCredit(trace, { method: "ccp", normalize: true });
        check(res, "$credit");
      }),
      RUNS,
    );
  }, TIMEOUT);
});
