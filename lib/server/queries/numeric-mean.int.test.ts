/**
 * lib/stats/numeric.ts against PostgreSQL itself: each value's v::numeric,
 * and the mean `(trim_scale(sum(v::numeric)) / nullif(count(v), 0))::text`
 * the dashboard's trends take from it (safeMean), read as a double, for
 * random values of every kind a float8 column holds: any finite double
 * (subnormals, 1e300), short decimals, exact halves at the 16th digit (the
 * ties of %.15g), integers, and lists that mix magnitudes.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { prisma } from "@/lib/server/db/client";
import { float8Numeric, NumericSum } from "@/lib/stats/numeric";

const value = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.integer({ min: -1e6, max: 1e6 }).map((n) => n / 1000),
  // an exact half at the 16th significant digit: a tie for 15 digits
  fc.integer({ min: 1e14, max: 9e14 }).map((n) => n + 0.5),
  fc.integer({ min: 1, max: 2 ** 30 }).chain((n) => fc.integer({ min: 1, max: 40 }).map((k) => n / 2 ** k)),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
  fc.constantFrom(0, -0, 5e-324, 1e15, 999999999999999.9, 1e-8, 9.999999999999999e-9, 0.1, 1 / 3, 2 / 3),
);

describe("numeric means in TypeScript, against PostgreSQL", () => {
  it("v::numeric of every value is m·10^q", { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(value, { minLength: 1, maxLength: 200 }), async (vs) => {
        const mine = vs.map((v) => {
          const { m, q } = float8Numeric(v);
          return `${m}e${q}`;
        });
        const rows = await prisma().$queryRaw<{ same: boolean; v: number; pg: string }[]>`
          SELECT v::numeric = d::numeric AS same, v, v::numeric::text AS pg FROM unnest(${vs}::float8[], ${mine}::text[]) AS x(v, d)`;
        for (const r of rows) expect(r.same, `${r.v}: PostgreSQL ${r.pg}`).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it("the mean of a list is safeMean's, to the bit", { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(value, { maxLength: 40 }), { minLength: 1, maxLength: 25 }), async (lists) => {
        const rows = await prisma().$queryRaw<{ i: number; mean: string | null }[]>`
          SELECT i::int, (trim_scale(sum(v::numeric)) / nullif(count(v), 0))::text AS mean
          FROM unnest(${lists.flatMap((l, i) => l.map(() => i))}::int[], ${lists.flat()}::float8[]) AS x(i, v) GROUP BY i`;
        const pg = new Map(rows.map((r) => [r.i, r.mean]));
        lists.forEach((l, i) => {
          const s = new NumericSum();
          for (const v of l) s.addFloat(v);
          // the text numeric_out prints, character for character, and so the double read from it
          expect(s.meanText(l.length), JSON.stringify(l)).toBe(l.length === 0 ? null : pg.get(i));
          expect(s.mean(l.length)).toBe(l.length === 0 ? null : Number(pg.get(i)));
        });
      }),
      { numRuns: 60 },
    );
  });

  it("the mean of integers (the count and boolean columns: sum(v) over count) is the same", { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { minLength: 1, maxLength: 300 }), async (l) => {
        const [r] = await prisma().$queryRaw<{ mean: string }[]>`
          SELECT (trim_scale(sum(v)::numeric) / nullif(count(v), 0))::text AS mean FROM unnest(${l}::int[]) AS v`;
        const s = new NumericSum();
        for (const v of l) s.add(v, 0);
        expect(s.meanText(l.length)).toBe(r!.mean);
      }),
      { numRuns: 40 },
    );
  });
});
