import "server-only";
import { reader } from "@/lib/server/db/read";
import type { ListSort, TraceListQuery } from "@/lib/api/filters";
import { decodeListCursor, encodeListCursor, type ListCursor } from "@/lib/api/list-cursor";
import { Prisma } from "@/lib/generated/prisma/client";
import { contentEvents, listConditions, scanTerms, whereOf, type ListFilter, type TermScan } from "./trace-search";
import { searchTerms, wholeWordRegex } from "@/lib/api/search-terms";

/** A row of the trace list (`GET /api/traces`). */
export interface TraceListItem {
  id: number;
  trace_id: string;
  project: string;
  task_id: string;
  system: string | null;
  topology: string | null;
  group_id: string | null;
  events: number;
  edges: number;
  e1: number | null;
  reported_e1: number | null;
  verdict: string | null;
  created_at: string;
  tokens: number | null;
  cost: number | null;
  /** makespan on the trace's own clock (`clock`: seconds, or steps for step-index sources) */
  duration: number | null;
  clock: "seconds" | "steps";
  agents: number | null;
  errors: number | null;
  tainted_events: number | null;
  /** the hacking detectors that flag the trace (docs/metrics.md), [] when none or not computed yet */
  flags: string[];
}

export interface TraceListPage {
  traces: TraceListItem[];
  next_cursor: string | null;
  prev_cursor: string | null;
  /** the order of the page: `match` falls back to `created` when more than MAX_RANKED traces match */
  order: ListSort;
}

/**
 * The most matches a search ranks by whole words: past it (a word nearly
 * every trace holds) ranking costs seconds to minutes and tells nothing, so
 * the list says so and shows the newest first.
 */
export const MAX_RANKED = 20_000;

/** The column behind each sort; `created` is the id (ids grow with created_at, an upsert gets a new id); `match` is computed. */
const SORT_COLUMNS: Readonly<Record<Exclude<ListSort, "match">, string | null>> = {
  created: null,
  events: "event_count",
  tokens: "total_tokens",
  cost: "total_cost",
  duration: "makespan",
  agents: "agent_count",
  errors: "error_count",
  e1: "e1",
};

/**
 * The value a page is ordered by, as SQL over `traces t` (and `w`, the
 * ranking's join); null for creation order (the id). `match`: how many of
 * the search terms occur in the trace as whole words or phrases (not only
 * inside longer words), so that "Pine" ranks Pine Street above spinel;
 * without terms every trace scores 0.
 */
function sortValue(query: TraceListQuery): Prisma.Sql | null {
  if (query.sort !== "match") {
    const column = SORT_COLUMNS[query.sort];
    return column === null ? null : Prisma.raw(`t.${column}`);
  }
  return rankTerms(query).length === 0 ? Prisma.sql`0::float8` : Prisma.sql`COALESCE(w.score, 0)::float8`;
}

const rankTerms = (query: TraceListQuery): string[] => (query.sort === "match" && query.text ? searchTerms(query.text) : []);

/**
 * The ranking's join: per trace, the number of terms found as whole words,
 * in one pass per term over the trigram indexes (pg_trgm answers `~*` from
 * them as it answers ILIKE), grouped once and hash-joined to the page's
 * traces. Not a subquery per trace: with a word every trace holds that is a
 * million correlated scans.
 */
function rankJoin(query: TraceListQuery): Prisma.Sql {
  const terms = rankTerms(query);
  if (terms.length === 0) return Prisma.empty;
  const perTerm = terms.map((term, i) => {
    const word = wholeWordRegex(term);
    return Prisma.sql`${contentEvents(term, (content) => Prisma.sql`${content} ~* ${word}`, Prisma.sql`, ${i}::int AS term`)}
      UNION SELECT e.trace_id, ${i}::int FROM events e WHERE e.agent ~* ${word} OR e.tool ~* ${word}
      UNION SELECT m.id, ${i}::int FROM traces m WHERE m.metadata::text ~* ${word}`;
  });
  return Prisma.sql`LEFT JOIN (SELECT h.trace_id, count(DISTINCT h.term)::int AS score FROM (${Prisma.join(perTerm, " UNION ")}) h GROUP BY h.trace_id) w ON w.trace_id = t.id`;
}

interface Row {
  id: number;
  trace_id: string;
  project: string;
  task_id: string;
  system: string | null;
  topology: string | null;
  group_id: string | null;
  event_count: number;
  edge_count: number;
  e1: number | null;
  reported_e1: number | null;
  verdict: string | null;
  created_at: Date;
  total_tokens: number | null;
  total_cost: number | null;
  makespan: number | null;
  clock: string | null;
  agent_count: number | null;
  error_count: number | null;
  tainted_events: number | null;
  flags: string[] | null;
  sort_value: number | null;
}

/** The SQL of one page (bench:explore runs it as is, with and without the indexes); `scans`: the search terms' (scanSearch). */
export function listPageSql(query: TraceListQuery, readable: string[] | null = null, scans?: readonly TermScan[]): Prisma.Sql {
  const column = sortValue(query);
  const asc = query.dir === "asc";
  const backwards = query.before !== undefined;
  const at = query.before ?? query.cursor;
  const conditions = listConditions(query, readable, { scans });
  if (at !== undefined) conditions.push(keyset(column, asc, decodeListCursor(at), backwards));
  // a page before the cursor is read in the reverse order, then turned round
  const forward = asc !== backwards;
  const dir = Prisma.raw(forward ? "ASC" : "DESC");
  const select = (where: Prisma.Sql[], order: Prisma.Sql) => Prisma.sql`
    SELECT t.id, t.trace_id, p.name AS project, t.task_id, t.system, t.topology::text AS topology, t.group_id,
           t.event_count, t.edge_count, t.e1, t.reported_e1, t.verdict::text AS verdict, t.created_at,
           t.total_tokens, t.total_cost, t.makespan, t.metadata->>'clock' AS clock, t.agent_count, t.error_count, t.tainted_events,
           (SELECT d.flags FROM trace_diagnostics d WHERE d.trace_id = t.id) AS flags,
           ${column === null ? Prisma.sql`NULL` : column}::float8 AS sort_value
    FROM traces t JOIN projects p ON p.id = t.project_id ${rankJoin(query)}
    ${whereOf(where)} ${order} LIMIT ${query.limit + 1}`;
  if (column === null) return select(conditions, Prisma.sql`ORDER BY t.id ${dir}`);
  if (query.sort === "match") return select(conditions, Prisma.sql`ORDER BY ${column} ${dir}, t.id ${dir}`);
  // A stored column, nulls last: the traces that have a value, in the index's order (either direction of
  // (column, id)), then those without, by id; each part its own index scan under the limit. One ORDER BY
  // column DESC NULLS LAST is an order no index of the column gives (its reverse is NULLS FIRST): PostgreSQL
  // would sort every trace (bench:scale, sort by tokens: 659 ms at 601,000 traces).
  const valued = select([...conditions, Prisma.sql`${column} IS NOT NULL`], Prisma.sql`ORDER BY ${column} ${dir}, t.id ${dir}`);
  const unvalued = select([...conditions, Prisma.sql`${column} IS NULL`], Prisma.sql`ORDER BY t.id ${dir}`);
  // read forward, the valued part comes first; read backwards (a page before the cursor), the nulls do
  return Prisma.sql`SELECT * FROM ((${valued}) UNION ALL (${unvalued})) u
    ORDER BY (u.sort_value IS NULL) ${Prisma.raw(backwards ? "DESC" : "ASC")}, u.sort_value ${dir}, u.id ${dir} LIMIT ${query.limit + 1}`;
}

/** The search's terms scanned (scanTerms), or undefined when the filter has no text. */
export async function scanSearch(filter: ListFilter, commonAfter?: number): Promise<TermScan[] | undefined> {
  const terms = filter.text ? searchTerms(filter.text) : [];
  return terms.length > 0 ? scanTerms(terms, commonAfter) : undefined;
}

/** The list's total: exact, or (`at_least`) a lower bound when a search term is common. */
export interface ListTotal {
  n: number;
  at_least: boolean;
}

/**
 * How many traces the list holds. With a common search term, how many of
 * the traces its first matching rows belong to pass every filter: at
 * least that many match (counting them all would read every matching event).
 */
export async function listTotal(filter: ListFilter, readable: string[] | null = null, scans?: readonly TermScan[]): Promise<ListTotal> {
  const common = scans?.some((s) => !s.complete) ?? false;
  const sampled = scans?.map((s) => ({ ...s, complete: true }));
  const [row] = await (await reader()).prisma.$queryRaw<{ n: number }[]>(countSql(filter, readable, sampled));
  return { n: row?.n ?? 0, at_least: common };
}

/** What a caller already read for this list (the page reads them first), so that they are not read twice. */
export interface ListKnown {
  scans?: TermScan[];
  total?: ListTotal;
}

/**
 * One page of the list, in the chosen order, after `cursor` or before
 * `before` (keyset paging both ways). A search is ranked (sort `match`)
 * only when each term is not common and at most MAX_RANKED traces match;
 * else the page is in creation order, and `order` says so.
 */
export async function listTraces(given: TraceListQuery, readable: string[] | null = null, known: ListKnown = {}): Promise<TraceListPage> {
  let query = given;
  const scans = known.scans ?? (await scanSearch(query));
  if (rankTerms(query).length > 0) {
    const total = known.total ?? (await listTotal(query, readable, scans));
    if (total.at_least || total.n > MAX_RANKED) query = { ...query, sort: "created" };
  }
  const column = query.sort === "created" ? null : query.sort;
  const backwards = query.before !== undefined;
  const at = query.before ?? query.cursor;
  const rows = await (await reader()).prisma.$queryRaw<Row[]>(listPageSql(query, readable, scans));
  const more = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  if (backwards) page.reverse();
  const cursorOf = (r: Row): string => encodeListCursor(column === null ? { id: r.id } : { id: r.id, value: r.sort_value });
  const first = page[0];
  const last = page.at(-1);
  return {
    traces: page.map(item),
    next_cursor: last && (backwards ? true : more) ? cursorOf(last) : null,
    prev_cursor: first && (backwards ? more : at !== undefined) ? cursorOf(first) : null,
    order: query.sort,
  };
}

/**
 * Rows strictly after (or, `backwards`, before) the cursor row in the order
 * `column asc|desc NULLS LAST, id` in the same direction.
 */
function keyset(column: Prisma.Sql | null, asc: boolean, c: ListCursor, backwards: boolean): Prisma.Sql {
  const after = Prisma.raw(asc !== backwards ? ">" : "<");
  if (column === null) return Prisma.sql`t.id ${after} ${c.id}`;
  const col = column;
  const value = c.value ?? null;
  if (!backwards) {
    return value === null
      ? Prisma.sql`(${col} IS NULL AND t.id ${after} ${c.id})`
      : Prisma.sql`(${col} IS NULL OR (${col}, t.id) ${after} (${value}::float8, ${c.id}))`;
  }
  return value === null
    ? Prisma.sql`(${col} IS NOT NULL OR t.id ${after} ${c.id})`
    : Prisma.sql`(${col} IS NOT NULL AND (${col}, t.id) ${after} (${value}::float8, ${c.id}))`;
}

function item(r: Row): TraceListItem {
  return {
    id: r.id,
    trace_id: r.trace_id,
    project: r.project,
    task_id: r.task_id,
    system: r.system,
    topology: r.topology,
    group_id: r.group_id,
    events: r.event_count,
    edges: r.edge_count,
    e1: r.e1,
    reported_e1: r.reported_e1,
    verdict: r.verdict,
    created_at: r.created_at.toISOString(),
    tokens: r.total_tokens,
    cost: r.total_cost,
    duration: r.makespan,
    clock: r.clock === "step_index" ? "steps" : "seconds",
    agents: r.agent_count,
    errors: r.error_count,
    tainted_events: r.tainted_events,
    flags: r.flags ?? [],
  };
}

export function countSql(filter: ListFilter, readable: string[] | null = null, scans?: readonly TermScan[]): Prisma.Sql {
  return Prisma.sql`SELECT count(*)::int AS n FROM traces t ${whereOf(listConditions(filter, readable, { count: true, scans }))}`;
}

/** The most events of one matching trace (0 when none match): what a snapshot's build process is sized by. */
export async function largestTraceEvents(filter: ListFilter, readable: string[] | null = null): Promise<number> {
  const [row] = await (await reader()).prisma.$queryRaw<{ n: number }[]>(Prisma.sql`SELECT coalesce(max(t.event_count), 0)::int AS n FROM traces t ${whereOf(listConditions(filter, readable, { count: true }))}`);
  return row?.n ?? 0;
}

/** How many traces match the filter (the list's total). */
export async function countTraces(filter: ListFilter, readable: string[] | null = null): Promise<number> {
  const [row] = await (await reader()).prisma.$queryRaw<{ n: number }[]>(countSql(filter, readable));
  return row?.n ?? 0;
}
