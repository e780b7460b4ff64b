import "server-only";
import { promisify } from "node:util";
import { gunzipSync, gzip as gzipCallback } from "node:zlib";
import type pg from "pg";
import { creditColumns, GroupTooSmallError, prepareTrace, type CreditColumns, type PreparedTrace } from "@/lib/credit";
import { buildGraphModel, creditPage, eventsPage, type GraphModel } from "@/lib/graph-view/build";
import type { GraphCreditPage, GraphEventsPage, GraphMeta } from "@/lib/graph-view/wire";
import { resolvePreset } from "@/lib/rewards";
import type { Trace } from "@/lib/trace/types";
import { selectionParam } from "@/lib/judges/selection";
import type { CreditQuery } from "../compute/credit";
import { ApiError } from "../errors";
import { humanLabels } from "./annotations";
import { loadGraphTrace, withMessageContent } from "./graph-load";
import { loadGroup } from "./load-trace";
import { userPresets } from "./presets";
import { findTraceRow } from "./traces";
import { graphMeta as graphMetaSchema } from "@/lib/api/contracts/traces";
import { pool, prisma } from "../db/client";
import { stored as storedValue } from "../db/stored";

/**
 * Server side of the graph view (`GET /api/traces/{id}/graph`): the trace's
 * columns are built once (load, analyse, metrics roles, lanes) and cached
 * for the few traces being looked at, so that paging a 100,000-event trace
 * does not reload and recompute it per page. The cache key includes the
 * row's id and updated_at: a re-ingested trace (upsert deletes and inserts)
 * gets a new id and so a fresh entry. Roles do not depend on human labels;
 * credit does, so credit is keyed by the time of the newest annotation too.
 * The pages of a big trace are shared with the other app processes through
 * the database (graph_pages, below).
 */
interface Entry {
  /** Built without content: the columns and metrics roles do not need it. */
  model: GraphModel;
  /** The trace with message content, loaded when credit is first asked for. */
  fullTrace: () => Promise<Trace>;
  /** Prepared for credit with the labels as of `asOf` ("none" without annotations). */
  prepared: { asOf: string; prepared: Promise<PreparedTrace> } | null;
  credit: Map<string, Promise<CreditColumns>>;
  /** Serialised event pages: immutable for the entry, and 20,000 events take tens of ms to stringify. */
  pages: Map<string, string>;
}

const MAX_MODELS = 3;
const MAX_CREDIT_PER_MODEL = 6;
/** Enough for a 200,000-event trace read in the default pages. */
const MAX_PAGES_PER_MODEL = 10;

// On globalThis: route handlers and server components are separate bundles in a production build.
const store = globalThis as unknown as { batonGraphModels?: Map<string, Promise<Entry>> };
const models = (store.batonGraphModels ??= new Map<string, Promise<Entry>>());

interface Row {
  id: number;
  updatedAt: Date;
}

const keyOf = (row: Row) => `${row.id}:${row.updatedAt.getTime()}`;

async function entryFor(traceId: string, known?: Row): Promise<Entry> {
  const row = known ?? (await findTraceRow(traceId));
  const key = keyOf(row);
  let entry = models.get(key);
  if (entry) {
    models.delete(key); // most recently used last
  } else {
    entry = (async (): Promise<Entry> => {
      const lock = await buildLock(row.id);
      try {
        const loaded = await loadGraphTrace(row.id);
        let full: Promise<Trace> | null = null;
        const fullTrace = () => {
          full ??= withMessageContent(row.id, loaded);
          full.catch(() => (full = null));
          return full;
        };
        const built: Entry = { model: buildGraphModel(prepareTrace(loaded.trace)), fullTrace, prepared: null, credit: new Map(), pages: new Map() };
        // the lock is held until the pages are stored: another process that wants one waits for them rather than building
        if (built.model.meta.pages > 1) void storePages(row, built).finally(lock);
        else lock();
        return built;
      } catch (error) {
        lock();
        throw error;
      }
    })();
    entry.catch(() => models.delete(key));
  }
  models.set(key, entry);
  while (models.size > MAX_MODELS) models.delete(models.keys().next().value as string);
  return entry;
}

/*
 * Across app processes (node:cluster spreads one browser's requests over them): the process that builds the columns
 * of a trace of more than one page stores its pages (graph_pages, by trace version), holding an advisory lock on the
 * trace's row while it builds and stores them (its meta first, then its pages). Another process asked for a page it has not built reads it with one
 * query, waiting for the lock first if the build is under way; only when nobody builds or stored it does it build.
 * At 100,000 events this is the difference between 0.2 s and the 6 s of a second build, on the same 2 cores.
 */
const GRAPH_LOCK = 72707371;

/** Takes the build lock of a trace (waiting while another process holds it); resolves to its release. Without a connection, a no-op. */
async function buildLock(traceDbId: number): Promise<() => void> {
  let client: pg.PoolClient;
  try {
    client = await pool().connect();
  } catch {
    return () => {};
  }
  try {
    await client.query("SELECT pg_advisory_lock($1, $2)", [GRAPH_LOCK, traceDbId]);
  } catch {
    client.release();
    return () => {};
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    void client
      .query("SELECT pg_advisory_unlock($1, $2)", [GRAPH_LOCK, traceDbId])
      .catch(() => {})
      .finally(() => client.release());
  };
}

/** True when another process held the build lock of the trace (and has now let it go), false when nobody did. */
async function waitedForBuilder(traceDbId: number): Promise<boolean> {
  const client = await pool().connect();
  try {
    const free = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1, $2) AS ok", [GRAPH_LOCK, traceDbId]);
    if (!free.rows[0]!.ok) await client.query("SELECT pg_advisory_lock($1, $2)", [GRAPH_LOCK, traceDbId]);
    await client.query("SELECT pg_advisory_unlock($1, $2)", [GRAPH_LOCK, traceDbId]);
    return !free.rows[0]!.ok;
  } finally {
    client.release();
  }
}

/** The stored page (or meta), gzipped, waiting first for a process that builds it right now; null when nobody stored it. */
async function storedOrWaited(row: Row, from: number, limit: number): Promise<Buffer | null> {
  return (await storedPage(row, from, limit)) ?? ((await waitedForBuilder(row.id)) ? await storedPage(row, from, limit) : null);
}

/** `part=meta` is stored as the row at from_seq -1, limit 0. */
const META_FROM = -1;
/** Bumped when the stored JSON's shape changes: rows an older Baton wrote are then never served (versionOf). 2: gzipped. */
const PAGES_FORMAT = 2;
/** A stored row's version: the trace row's updated_at (ms) and PAGES_FORMAT. */
const versionOf = (row: Row) => row.updatedAt.getTime() * 16 + PAGES_FORMAT;

async function storedPage(row: Row, from: number, limit: number): Promise<Buffer | null> {
  const { rows } = await pool().query<{ gz: Buffer }>({
    name: "graph.page",
    text: "SELECT gz FROM graph_pages WHERE trace_id = $1 AND from_seq = $2 AND \"limit\" = $3 AND version = $4",
    values: [row.id, from, limit, versionOf(row)],
  });
  return rows[0]?.gz ?? null;
}

/**
 * Pages are stored gzipped: about a fifth of the JSON (some 2.5 MB for a
 * 100,000-event trace instead of 12 MB), compressed off the event loop
 * (zlib's thread pool); unzipping a page takes milliseconds.
 */
const gzip = promisify(gzipCallback);

/** What pageJson needs of an entry. */
type Paged = Pick<Entry, "model" | "pages">;

async function storePages(row: Row, entry: Paged): Promise<void> {
  const { pages, page_size: size } = entry.model.meta;
  const parts: [from: number, limit: number, json: () => string][] = [[META_FROM, 0, () => JSON.stringify(entry.model.meta)]];
  for (let k = 0; k < pages; k++) parts.push([k * size, size, () => pageJson(entry, k * size, size)]);
  try {
    for (const [from, limit, json] of parts) {
      await pool().query({
        name: "graph.page.store",
        text: `INSERT INTO graph_pages (trace_id, from_seq, "limit", version, gz) VALUES ($1, $2, $3, $4, $5)
               ON CONFLICT (trace_id, from_seq, "limit") DO UPDATE SET version = EXCLUDED.version, gz = EXCLUDED.gz`,
        values: [row.id, from, limit, versionOf(row), await gzip(json())],
      });
    }
  } catch (error) {
    // a trace deleted meanwhile (its rows gone with it), or no database: the pages are built where asked, as before
    console.error(`[baton] graph pages of trace row ${row.id} not stored:`, error instanceof Error ? error.message : error);
  }
}

/**
 * Builds and stores the meta and pages of the stored version of a trace
 * (by row id), as an open would, but before anyone opens it: the background
 * job after ingest (lib/server/graph-pages/jobs.ts). Holds the same build
 * lock as an open, so that an open meanwhile waits for these pages instead
 * of building its own, and an open that came first leaves nothing to do.
 * Nothing is kept in this process's cache of models.
 */
export async function prebuildGraphPages(traceDbId: number): Promise<"built" | "stored already" | "gone"> {
  const row = await onPrimaryRow(traceDbId);
  if (!row) return "gone";
  const lock = await buildLock(row.id);
  try {
    if ((await storedPage(row, META_FROM, 0)) !== null) return "stored already";
    const loaded = await loadGraphTrace(row.id);
    const built: Paged = { model: buildGraphModel(prepareTrace(loaded.trace)), pages: new Map() };
    await storePages(row, built);
    return "built";
  } catch (error) {
    // replaced or deleted while it was read: the new version has a job of its own
    if (!(await onPrimaryRow(traceDbId))) return "gone";
    throw error;
  } finally {
    lock();
  }
}

/** The trace row's id and version, read from the primary (the job may run right after the ingest's commit). */
async function onPrimaryRow(traceDbId: number): Promise<Row | null> {
  return prisma().trace.findUnique({ where: { id: traceDbId }, select: { id: true, updatedAt: true } });
}

/** `part=meta`. */
export async function graphMeta(traceId: string): Promise<GraphMeta> {
  const row = await findTraceRow(traceId);
  if (!models.has(keyOf(row))) {
    const stored = await storedOrWaited(row, META_FROM, 0);
    // written by storePages for this version of the trace; read back through the answer's schema all the same
    if (stored !== null) return storedValue(graphMetaSchema, JSON.parse(gunzipSync(stored).toString("utf8")), () => `stored graph meta of trace row ${row.id}`);
  }
  return (await entryFor(traceId, row)).model.meta;
}

/** `part=events`: events with seq in [from, from + limit) and the edges ending in them, as JSON text, or gzipped when it was stored so. */
export async function graphEventsJson(traceId: string, from: number, limit: number): Promise<{ json: string } | { gz: Buffer }> {
  const row = await findTraceRow(traceId);
  if (!models.has(keyOf(row))) {
    // built by another process, the background build, or being built there: one read, not a build of our own
    const stored = await storedOrWaited(row, from, limit);
    if (stored !== null) return { gz: stored };
  }
  return { json: pageJson(await entryFor(traceId, row), from, limit) };
}

function pageJson(entry: Paged, from: number, limit: number): string {
  const key = `${from}:${limit}`;
  let json = entry.pages.get(key);
  if (json === undefined) {
    json = JSON.stringify(eventsPage(entry.model, from, limit) satisfies GraphEventsPage);
    if (entry.pages.size < MAX_PAGES_PER_MODEL) entry.pages.set(key, json);
  }
  return json;
}

/** `part=credit`: credit columns in event order (by family only with `families`, ccp only), human labels applied as the credit endpoint does. */
export async function graphCredit(traceId: string, query: CreditQuery, page: { from: number; limit: number; families: boolean }): Promise<GraphCreditPage> {
  const entry = await entryFor(traceId);
  const { labels, asOf } = await humanLabels(entry.model.meta.trace_id, query.judges);
  const labelKey = `${asOf ? asOf.toISOString() : "none"}|${selectionParam(query.judges)}`;
  if (entry.prepared?.asOf !== labelKey) {
    const prepared = entry.fullTrace().then((trace) => prepareTrace(trace, labels));
    entry.prepared = { asOf: labelKey, prepared };
    entry.credit.clear();
    prepared.catch(() => {
      if (entry.prepared?.prepared === prepared) entry.prepared = null;
    });
  }
  const prepared = entry.prepared.prepared;
  const key = JSON.stringify([query.method, query.preset, query.normalize, query.overrides]);
  let columns = entry.credit.get(key);
  if (!columns) {
    columns = prepared.then((p) => computeColumns(p, query));
    entry.credit.set(key, columns);
    columns.catch(() => entry.credit.delete(key));
    while (entry.credit.size > MAX_CREDIT_PER_MODEL) entry.credit.delete(entry.credit.keys().next().value as string);
  }
  return creditPage(entry.model, await columns, page.from, page.limit, page.families);
}

async function computeColumns(prepared: PreparedTrace, query: CreditQuery): Promise<CreditColumns> {
  const preset = resolvePreset(query.preset, query.overrides, await userPresets());
  if (!preset) throw new ApiError(400, "invalid_parameter", `unknown preset "${query.preset}"`, [{ path: "preset", message: `unknown preset "${query.preset}"` }]);
  const trace = prepared.analysis.trace;
  const needsGroup = query.method === "grpo" || query.method === "gigpo";
  const members = needsGroup && trace.group_id ? await loadGroup(trace.group_id) : [];
  const group = await Promise.all(members.map(async (t) => ({ trace: t, labels: (await humanLabels(t.trace_id, query.judges)).labels })));
  try {
    return creditColumns(prepared, { method: query.method, preset, normalize: query.normalize, group });
  } catch (error) {
    if (error instanceof GroupTooSmallError) {
      throw new ApiError(422, "group_too_small", `${query.method} needs a group of at least 2 traces sharing the trace's group_id: ${error.message}`);
    }
    throw error;
  }
}
