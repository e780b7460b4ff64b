import "server-only";
import { reader } from "@/lib/server/db/read";
import { containsPattern, searchTerms } from "@/lib/api/search-terms";
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
}

export interface TraceHits {
  /** events whose content matches some term */
  matches: number;
  hits: SearchHit[];
}

const BEFORE = 60;
const LENGTH = 220;

/** The first `perTrace` matching events of each trace (in event order), with a window of text around the match. */
export async function searchSnippets(traceDbIds: readonly number[], text: string, perTrace = 3): Promise<Map<number, TraceHits>> {
  const terms = searchTerms(text);
  if (traceDbIds.length === 0 || terms.length === 0) return new Map();
  const any = Prisma.join(terms.map((t) => Prisma.sql`c.content ILIKE ${containsPattern(t)}`), " OR ");
  // 1-based position of the first term found (strpos on lower-cased text; the window is approximate for case-changing scripts)
  const position = Prisma.sql`COALESCE(${Prisma.join(terms.map((t) => Prisma.sql`NULLIF(strpos(lower(c.content), lower(${t})), 0)`), ", ")}, 1)`;
  const rows = await (await reader()).prisma.$queryRaw<(SearchHit & { trace_id: number; matches: number; start: number; len: number })[]>`
    SELECT * FROM (
      SELECT c.trace_id, c.seq, e.event_id, e.agent, e.type::text AS type, e.tool,
             count(*) OVER (PARTITION BY c.trace_id)::int AS matches,
             row_number() OVER (PARTITION BY c.trace_id ORDER BY c.seq) AS rn,
             GREATEST(1, ${position} - ${BEFORE})::int AS start, length(c.content)::int AS len,
             substring(c.content FROM GREATEST(1, ${position} - ${BEFORE}) FOR ${LENGTH}) AS snippet
      FROM event_content c JOIN events e ON e.trace_id = c.trace_id AND e.seq = c.seq
      WHERE c.trace_id = ANY(${[...traceDbIds]}) AND (${any})
    ) m WHERE m.rn <= ${perTrace} ORDER BY m.trace_id, m.seq`;
  const out = new Map<number, TraceHits>();
  for (const r of rows) {
    const entry = out.get(r.trace_id) ?? { matches: r.matches, hits: [] };
    entry.hits.push({ seq: r.seq, event_id: r.event_id, agent: r.agent, type: r.type, tool: r.tool, snippet: r.snippet, cut_start: r.start > 1, cut_end: r.start - 1 + LENGTH < r.len });
    out.set(r.trace_id, entry);
  }
  return out;
}
