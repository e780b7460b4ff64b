import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wordPrefilter } from "@/lib/api/search-terms";
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
  const { rows } = await pool().query<{ ok: boolean }>(
    "SELECT baton_words(c) @@ lower(q)::tsquery AS ok FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS u(c, q, i) ORDER BY i",
    [pairs.map((p) => p.content), pairs.map((p) => p.query)],
  );
  return rows.map((r) => r.ok);
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
      // only pieces that are still in the content case-insensitively as ILIKE sees them, and that the prefilter narrows
      const query = wordPrefilter(term);
      if (query !== null && c.toLowerCase().includes(term.toLowerCase())) pairs.push({ content: c, term, query });
    }
    expect(pairs.length).toBeGreaterThan(RUNS / 10);
    const ok = await passes(pairs);
    const dropped = pairs.filter((_, i) => !ok[i]);
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
