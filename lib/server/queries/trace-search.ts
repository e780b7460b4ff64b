import "server-only";
import type { TraceListQuery } from "@/lib/api/filters";
import { containsPattern, searchTerms, wordPrefilter } from "@/lib/api/search-terms";
import { Prisma } from "@/lib/generated/prisma/client";
import { reader } from "@/lib/server/db/read";

/**
 * The WHERE clause of the trace list over `traces t`: the list filters of
 * SPEC.md section 7, the structured filters (event type, agent, tool, error,
 * taint, E1, dates, token and cost ranges) and the content search. Every
 * value is a bound parameter.
 *
 * The content search uses PostgreSQL's pg_trgm GIN indexes (migration
 * 20261201102343_search_and_list_columns): `ILIKE '%term%'` on event content,
 * agent and tool names, and on the metadata's JSON text, is answered from the
 * index (terms of 3+ characters; shorter ones scan).
 */
export type ListFilter = Omit<TraceListQuery, "sort" | "dir" | "cursor" | "before" | "limit">;

export function listConditions(f: ListFilter, readable: string[] | null, opts: { count?: boolean; scans?: readonly TermScan[] } = {}): Prisma.Sql[] {
  const c: Prisma.Sql[] = [];
  if (readable !== null) c.push(Prisma.sql`t.project_id IN (SELECT id FROM projects WHERE name = ANY(${readable}))`);
  if (f.project) c.push(Prisma.sql`t.project_id = (SELECT id FROM projects WHERE name = ${f.project})`);
  if (f.system) c.push(Prisma.sql`t.system = ${f.system}`);
  if (f.task_id) c.push(Prisma.sql`t.task_id = ${f.task_id}`);
  if (f.group_id) c.push(Prisma.sql`t.group_id = ${f.group_id}`);
  if (f.system_contains) c.push(Prisma.sql`t.system ILIKE ${containsPattern(f.system_contains)}`);
  if (f.task_contains) c.push(Prisma.sql`t.task_id ILIKE ${containsPattern(f.task_contains)}`);
  if (f.group_contains) c.push(Prisma.sql`t.group_id ILIKE ${containsPattern(f.group_contains)}`);
  if (f.topology) c.push(Prisma.sql`t.topology = ${f.topology}::"Topology"`);
  if (f.verdict) c.push(Prisma.sql`t.verdict = ${f.verdict}::"Verdict"`);
  if (f.ids) c.push(Prisma.sql`t.trace_id = ANY(${f.ids})`);
  if (f.q) {
    const p = containsPattern(f.q);
    c.push(Prisma.sql`(t.trace_id ILIKE ${p} OR t.task_id ILIKE ${p} OR t.system ILIKE ${p} OR t.group_id ILIKE ${p})`);
  }
  if (f.event_type) c.push(Prisma.sql`t.id IN (SELECT e.trace_id FROM events e WHERE e.type = ${f.event_type}::"EventType")`);
  if (f.agent) c.push(Prisma.sql`t.id IN (SELECT e.trace_id FROM events e WHERE e.agent = ${f.agent})`);
  if (f.tool) c.push(Prisma.sql`t.id IN (SELECT e.trace_id FROM events e WHERE e.tool = ${f.tool})`);
  if (f.status === "error") c.push(Prisma.sql`t.error_count > 0`);
  if (f.tainted === "1") c.push(Prisma.sql`t.tainted_events > 0`);
  if (f.tainted === "0") c.push(Prisma.sql`t.tainted_events = 0`);
  if (f.flag) c.push(Prisma.sql`t.id IN (SELECT d.trace_id FROM trace_diagnostics d WHERE d.flags @> ARRAY[${f.flag}]::text[])`);
  if (f.e1 === "none") c.push(Prisma.sql`t.e1 IS NULL`);
  else if (f.e1) c.push(Prisma.sql`t.e1 = ${Number(f.e1)}`);
  // a replay's trace names the run it replays (metadata.counterfactual.of, lib/replay/provenance.ts)
  if (f.replay === "1") c.push(Prisma.sql`(t.metadata->'counterfactual'->>'of') IS NOT NULL`);
  if (f.replay === "0") c.push(Prisma.sql`(t.metadata->'counterfactual'->>'of') IS NULL`);
  if (f.from) c.push(Prisma.sql`t.created_at >= ${new Date(`${f.from}T00:00:00Z`)}`);
  if (f.to) c.push(Prisma.sql`t.created_at < ${new Date(Date.parse(`${f.to}T00:00:00Z`) + 86_400_000)}`);
  if (f.tokens_min !== undefined) c.push(Prisma.sql`t.total_tokens >= ${f.tokens_min}`);
  if (f.tokens_max !== undefined) c.push(Prisma.sql`t.total_tokens <= ${f.tokens_max}`);
  if (f.cost_min !== undefined) c.push(Prisma.sql`t.total_cost >= ${f.cost_min}`);
  if (f.cost_max !== undefined) c.push(Prisma.sql`t.total_cost <= ${f.cost_max}`);
  for (const term of f.text ? searchTerms(f.text) : []) {
    const scan = opts.scans?.find((t) => t.term === term);
    if (scan === undefined) c.push(termMatches(term, opts.count === true));
    else if (scan.complete) c.push(Prisma.sql`t.id = ANY(${scan.ids}::int[])`);
    else c.push(termWalk(term));
  }
  return c;
}

/** Rows of one term read from each source (event content, agents and tools, metadata) before the term counts as common. */
export const COMMON_AFTER = 20_000;

/** A search term and the traces of its first matching rows: all its traces when `complete`, else (a common term) some of them. */
export interface TermScan {
  term: string;
  ids: number[];
  /** false: more than COMMON_AFTER matching rows in a source */
  complete: boolean;
}

/**
 * Each search term's matching traces, read up to `commonAfter` matching
 * rows per source: all of them for a term with fewer (a list of ids the
 * page and its total then use exactly); for a common one, the traces of
 * its first rows (a lower bound of the total), the page being found instead
 * by walking its order (termWalk). A common phrase in a
 * tenth of 30 M events would otherwise have every matching event read,
 * twice, for each page.
 */
export async function scanTerms(terms: readonly string[], commonAfter = COMMON_AFTER): Promise<TermScan[]> {
  const db = (await reader()).prisma;
  return Promise.all(terms.map(async (term) => {
    const p = containsPattern(term);
    const rows = await db.$queryRaw<{ n: number; ids: number[] | null }[]>(Prisma.sql`
      SELECT count(*)::int AS n, array_agg(DISTINCT s.id) AS ids FROM (
        (SELECT 0 AS source, x.trace_id AS id FROM (${contentEvents(term, (content) => Prisma.sql`${content} ILIKE ${p}`)}) x LIMIT ${commonAfter + 1})
        UNION ALL (SELECT 1, e.trace_id FROM events e WHERE e.agent ILIKE ${p} OR e.tool ILIKE ${p} LIMIT ${commonAfter + 1})
        UNION ALL (SELECT 2, m.id FROM traces m WHERE m.metadata::text ILIKE ${p} LIMIT ${commonAfter + 1})
      ) s GROUP BY s.source`);
    const ids = [...new Set(rows.flatMap((r) => r.ids ?? []))].sort((a, b) => a - b);
    return { term, ids, complete: rows.every((r) => r.n <= commonAfter) };
  }));
}

/**
 * A common term, checked trace by trace as the list walks its order (the
 * first page of a tenth of all traces is found after a few hundred). The
 * subqueries end in `OFFSET 0` so that PostgreSQL keeps them per trace and
 * does not turn them into one hashed set of every matching trace.
 */
function termWalk(term: string): Prisma.Sql {
  const p = containsPattern(term);
  return Prisma.sql`(EXISTS (SELECT 1 FROM event_content c WHERE c.trace_id = t.id AND c.content ILIKE ${p} OFFSET 0)
    OR EXISTS (SELECT 1 FROM events e WHERE e.trace_id = t.id AND (e.agent ILIKE ${p} OR e.tool ILIKE ${p}) OFFSET 0)
    OR t.metadata::text ILIKE ${p})`;
}

/**
 * One search term occurs in some event's content, agent or tool, or in the
 * trace's metadata: the matching trace ids, found first from the three
 * trigram indexes (one UNION), as an array. Not three ORed `IN`s: PostgreSQL
 * then guesses that half the traces match and walks the list's sort order
 * filtering every trace; nor a plain `IN (... UNION ...)`: under the page's
 * LIMIT it still walks the sort order hoping to meet matches early
 * (bench:explore, 1,000,000 traces, a phrase in 100 of them: 0.5 s either way,
 * the array form a few ms).
 */
function termMatches(term: string, count: boolean): Prisma.Sql {
  const p = containsPattern(term);
  const matching = Prisma.sql`${contentEvents(term, (content) => Prisma.sql`${content} ILIKE ${p}`)}
    UNION SELECT e.trace_id FROM events e WHERE e.agent ILIKE ${p} OR e.tool ILIKE ${p}
    UNION SELECT m.id FROM traces m WHERE m.metadata::text ILIKE ${p}`;
  // a count reads every match anyway: a hashed semi-join is linear, where `= ANY(array)` compares each trace with
  // the whole array (a word in all 1,000,000 traces: 7.9 s against more than 12 minutes, bench:explore)
  return count ? Prisma.sql`t.id IN (${matching})` : Prisma.sql`t.id = ANY(ARRAY(${matching}))`;
}

let prefilterOn = true;
/** Benchmarks: the search with the trigram index alone, as the baseline of the same run. */
export function setWordPrefilter(on: boolean): void {
  prefilterOn = on;
}

/**
 * The events whose content matches `term` by `exact` (given the content
 * column), as `SELECT trace_id[, more]`: behind the word index's prefilter
 * when the term has words it can rely on (wordPrefilter), a few candidate
 * events from short posting lists, each then checked exactly. The candidates
 * are a subquery of their own (`OFFSET 0`), so that PostgreSQL reads them
 * from the word index and does not instead take the exact match to the
 * trigram index and compute every row's words.
 */
export function contentEvents(term: string, exact: (content: Prisma.Sql) => Prisma.Sql, more: Prisma.Sql = Prisma.empty): Prisma.Sql {
  const words = prefilterOn ? wordPrefilter(term) : null;
  if (words === null) return Prisma.sql`SELECT c.trace_id ${more} FROM event_content c WHERE ${exact(Prisma.sql`c.content`)}`;
  return Prisma.sql`SELECT c.trace_id ${more} FROM (SELECT w.trace_id, w.content FROM event_content w WHERE baton_words(w.content) @@ lower(${words})::tsquery OFFSET 0) c
    WHERE ${exact(Prisma.sql`c.content`)}`;
}

export function whereOf(conditions: Prisma.Sql[]): Prisma.Sql {
  return conditions.length > 0 ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
}
