import "server-only";
import type { TraceListQuery } from "@/lib/api/filters";
import { containsPattern, searchTerms } from "@/lib/api/search-terms";
import { Prisma } from "@/lib/generated/prisma/client";

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

export function listConditions(f: ListFilter, readable: string[] | null, opts: { count?: boolean } = {}): Prisma.Sql[] {
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
  if (f.from) c.push(Prisma.sql`t.created_at >= ${new Date(`${f.from}T00:00:00Z`)}`);
  if (f.to) c.push(Prisma.sql`t.created_at < ${new Date(Date.parse(`${f.to}T00:00:00Z`) + 86_400_000)}`);
  if (f.tokens_min !== undefined) c.push(Prisma.sql`t.total_tokens >= ${f.tokens_min}`);
  if (f.tokens_max !== undefined) c.push(Prisma.sql`t.total_tokens <= ${f.tokens_max}`);
  if (f.cost_min !== undefined) c.push(Prisma.sql`t.total_cost >= ${f.cost_min}`);
  if (f.cost_max !== undefined) c.push(Prisma.sql`t.total_cost <= ${f.cost_max}`);
  for (const term of f.text ? searchTerms(f.text) : []) c.push(termMatches(term, opts.count === true));
  return c;
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
  const matching = Prisma.sql`SELECT c.trace_id FROM event_content c WHERE c.content ILIKE ${p}
    UNION SELECT e.trace_id FROM events e WHERE e.agent ILIKE ${p} OR e.tool ILIKE ${p}
    UNION SELECT m.id FROM traces m WHERE m.metadata::text ILIKE ${p}`;
  // a count reads every match anyway: a hashed semi-join is linear, where `= ANY(array)` compares each trace with
  // the whole array (a word in all 1,000,000 traces: 7.9 s against more than 12 minutes, bench:explore)
  return count ? Prisma.sql`t.id IN (${matching})` : Prisma.sql`t.id = ANY(ARRAY(${matching}))`;
}

export function whereOf(conditions: Prisma.Sql[]): Prisma.Sql {
  return conditions.length > 0 ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
}
