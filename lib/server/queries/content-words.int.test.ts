import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { containsPattern, wordPrefilter } from "@/lib/api/search-terms";
import { pool } from "@/lib/server/db/client";

/*
 * The search's word prefilter (baton_words, migration content_words) on the
 * real database: it may let through content that does not contain a term
 * (the exact ILIKE follows), never drop one that does. Contents mix ASCII
 * words and separators with letters outside ASCII, case, digits, underscores,
 * long words and very long content; each term is a piece of its content,
 * its case changed.
 */
const RUNS = Number(process.env.BATON_FUZZ_CASES ?? 2000);

const piece = fc.oneof(
  fc.constantFrom(" ", ".", "/", "-", "_", ":", ", ", "\n", "'", "\\", "&", "|", "!", "(", ")", "é", "İ", "ß", "Ω", "中文", "😀", "ı"),
  fc.stringMatching(/^[A-Za-z0-9]{1,8}$/),
  fc.string({ unit: "grapheme", maxLength: 4 }),
  fc.constant("x".repeat(230)),
);
const content = fc.oneof({ weight: 20, arbitrary: fc.array(piece, { maxLength: 30 }).map((p) => p.join("")) }, { weight: 1, arbitrary: fc.constant(`${"lorem ipsum ".repeat(8500)}needle in the haystack`) });

async function passes(pairs: readonly { content: string; query: string }[]): Promise<boolean[]> {
  return (await check(pairs.map((p) => ({ ...p, term: "" })))).map((r) => r.passes);
}

/** For each pair: whether the content passes the prefilter, and whether it contains the term as the search's ILIKE sees it (the database's own case rules). */
async function check(pairs: readonly { content: string; term: string; query: string }[]): Promise<{ passes: boolean; contains: boolean }[]> {
  const { rows } = await pool().query<{ passes: boolean; contains: boolean }>(
    "SELECT baton_words(c) @@ lower(q)::tsquery AS passes, c ILIKE p AS contains FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS u(c, q, p, i) ORDER BY i",
    [pairs.map((p) => p.content), pairs.map((p) => p.query), pairs.map((p) => containsPattern(p.term))],
  );
  return rows;
}

describe("the content words prefilter", () => {
  it("never drops content that contains the term (any case)", async () => {
    const cases = fc.sample(
      content.chain((c) => fc.tuple(fc.constant(c), fc.nat(c.length), fc.nat(c.length), fc.boolean())),
      { numRuns: RUNS, seed: Number(process.env.BATON_FUZZ_SEED ?? 7) },
    );
    const pairs: { content: string; term: string; query: string }[] = [];
    for (const [c, a, b, upper] of cases) {
      const cut = c.slice(Math.min(a, b), Math.max(a, b));
      const term = upper ? cut.toUpperCase() : cut;
      // only terms the prefilter narrows
      const query = wordPrefilter(term);
      if (query !== null) pairs.push({ content: c, term, query });
    }
    const checked = await check(pairs);
    // the pieces still in their content as ILIKE sees them (a case change can take one out, in some locales)
    expect(checked.filter((r) => r.contains).length).toBeGreaterThan(RUNS / 10);
    const dropped = pairs.filter((_, i) => checked[i]!.contains && !checked[i]!.passes);
    expect(dropped.slice(0, 3)).toEqual([]);
  });

  it("narrows: content without the words is not let through", async () => {
    const [a, b, c, d] = await passes([
      { content: "see https://news.example/42 now", query: wordPrefilter("//news.example/4")! },
      { content: "see https://news.sample/42 now", query: wordPrefilter("//news.example/4")! },
      { content: "a timeout of 30 s", query: wordPrefilter("a timeout ")! },
      { content: "a timeouts of 30 s", query: wordPrefilter("a timeout ")! },
    ]);
    expect([a, b, c, d]).toEqual([true, false, true, false]);
  });

  it("lets every very long content through (it is not split)", async () => {
    const long = `${"word ".repeat(25_000)}`;
    expect(await passes([{ content: long, query: wordPrefilter(" absent ")! }])).toEqual([true]);
  });
});
