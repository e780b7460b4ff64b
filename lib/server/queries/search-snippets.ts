import "server-only";
import { reader } from "@/lib/server/db/read";
import { containsPattern, hasWholeWord, searchTerms, wholeWordRegex } from "@/lib/api/search-terms";
import { Prisma } from "@/lib/generated/prisma/client";

/** Where a search term was found in one event: its place and the text around the first match (untrusted: draw as text). */
export interface SearchHit {
  seq: number;
  event_id: string;
  agent: string;
  type: string;
  tool: string | null;
  snippet: string;
  /** the snippet starts / ends inside the content */
  cut_start: boolean;
  cut_end: boolean;
  /** the terms found in the snippet, each as a whole word (or phrase) or only inside longer words */
  matched: { term: string; whole: boolean }[];
}

export interface TraceHits {
  /** events whose content matches some term */
  matches: number;
  hits: SearchHit[];
  /** terms found outside event content: in the run's metadata (its task definition, labels…) or in agent and tool names */
  elsewhere: { term: string; where: "metadata" | "names"; whole: boolean }[];
}

const BEFORE = 60;
const LENGTH = 220;

/**
 * The first `perTrace` matching events of each trace, those where more terms
 * stand as whole words first, then in event order, each with a window of
 * text around its first whole-word match (else its first match).
 */
export async function searchSnippets(traceDbIds: readonly number[], text: string, perTrace = 3): Promise<Map<number, TraceHits>> {
  const terms = searchTerms(text);
  if (traceDbIds.length === 0 || terms.length === 0) return new Map();
  const any = Prisma.join(terms.map((t) => Prisma.sql`c.content ILIKE ${containsPattern(t)}`), " OR ");
  // 1-based position of the first term found (strpos on lower-cased text; the window is approximate for case-changing scripts)
  // (a whole-word occurrence first, so the window shows the word and not "category" for "cat")
  const position = Prisma.sql`COALESCE(${Prisma.join([
    ...terms.map((t) => Prisma.sql`NULLIF(regexp_instr(c.content, ${wholeWordRegex(t)}, 1, 1, 0, 'i'), 0)`),
    ...terms.map((t) => Prisma.sql`NULLIF(strpos(lower(c.content), lower(${t})), 0)`),
  ], ", ")}, 1)`;
  const wholeCount = Prisma.join(terms.map((t) => Prisma.sql`(c.content ~* ${wholeWordRegex(t)})::int`), " + ");
  const rows = await (await reader()).prisma.$queryRaw<(SearchHit & { trace_id: number; matches: number; start: number; len: number })[]>`
    SELECT * FROM (
      SELECT c.trace_id, c.seq, e.event_id, e.agent, e.type::text AS type, e.tool,
             count(*) OVER (PARTITION BY c.trace_id)::int AS matches,
             row_number() OVER (PARTITION BY c.trace_id ORDER BY (${wholeCount}) DESC, c.seq) AS rn,
             GREATEST(1, ${position} - ${BEFORE})::int AS start, length(c.content)::int AS len,
             substring(c.content FROM GREATEST(1, ${position} - ${BEFORE}) FOR ${LENGTH}) AS snippet
      FROM event_content c JOIN events e ON e.trace_id = c.trace_id AND e.seq = c.seq
      WHERE c.trace_id = ANY(${[...traceDbIds]}) AND (${any})
    ) m WHERE m.rn <= ${perTrace} ORDER BY m.trace_id, m.rn`;
  const out = new Map<number, TraceHits>();
  for (const r of rows) {
    const entry = out.get(r.trace_id) ?? { matches: r.matches, hits: [], elsewhere: [] };
    const matched = terms.filter((t) => r.snippet.toLowerCase().includes(t.toLowerCase())).map((term) => ({ term, whole: hasWholeWord(r.snippet, term) }));
    entry.hits.push({ seq: r.seq, event_id: r.event_id, agent: r.agent, type: r.type, tool: r.tool, snippet: r.snippet, cut_start: r.start > 1, cut_end: r.start - 1 + LENGTH < r.len, matched });
    out.set(r.trace_id, entry);
  }
  // where else each term matched: one row per trace, two booleans per term and place
  const places = terms.flatMap((t, i) => {
    const p = containsPattern(t);
    const w = wholeWordRegex(t);
    const names = (op: Prisma.Sql, v: string) => Prisma.sql`EXISTS (SELECT 1 FROM events e WHERE e.trace_id = t.id AND (e.agent ${op} ${v} OR e.tool ${op} ${v}))`;
    return [
      Prisma.sql`t.metadata::text ILIKE ${p} AS ${Prisma.raw(`m${i}`)}`, Prisma.sql`t.metadata::text ~* ${w} AS ${Prisma.raw(`mw${i}`)}`,
      Prisma.sql`${names(Prisma.raw("ILIKE"), p)} AS ${Prisma.raw(`n${i}`)}`, Prisma.sql`${names(Prisma.raw("~*"), w)} AS ${Prisma.raw(`nw${i}`)}`,
    ];
  });
  const found = await (await reader()).prisma.$queryRaw<(Record<string, boolean> & { id: number })[]>`
    SELECT t.id, ${Prisma.join(places, ", ")} FROM traces t WHERE t.id = ANY(${[...traceDbIds]})`;
  for (const row of found) {
    const elsewhere: TraceHits["elsewhere"] = [];
    terms.forEach((term, i) => {
      if (row[`m${i}`]) elsewhere.push({ term, where: "metadata", whole: row[`mw${i}`] === true });
      if (row[`n${i}`]) elsewhere.push({ term, where: "names", whole: row[`nw${i}`] === true });
    });
    if (elsewhere.length === 0) continue;
    const entry = out.get(row.id) ?? { matches: 0, hits: [], elsewhere: [] };
    entry.elsewhere = elsewhere;
    out.set(row.id, entry);
  }
  return out;
}
