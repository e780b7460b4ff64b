import "server-only";
import type pg from "pg";
import type { TraceListQuery } from "@/lib/api/filters";
import { GroupTooSmallError } from "@/lib/credit";
import { datasetCard, rowKey, sha256, shardPath, SHARD_ROWS, type Manifest, type ManifestFile } from "@/lib/datasets/layout";
import type { DatasetRequest } from "@/lib/datasets/request";
import type { TabularForm } from "@/lib/export/parquet-forms";
import { isTrainerForm, PER_TRACE_FORMS } from "@/lib/export/trainers";
import { Prisma } from "@/lib/generated/prisma/client";
import { SPEC_VERSION } from "@/lib/metrics/types";
import { selectionParam } from "@/lib/judges/selection";
import type { ModelCall } from "@/lib/trace/calls";
import { loadCallsMany } from "../calls/store";
import { exportedRecords, exportLoaded, exportTraceRecords, type ExportedTrace, type ExportRequest } from "../compute/export";
import { decisiveEventsOf } from "../queries/decisive-errors";
import { loadTracesById } from "../queries/load-trace";
import { pool, prisma, transaction } from "../db/client";
import { countTraces } from "../queries/trace-list";
import { listConditions, whereOf } from "../queries/trace-search";
import { pageFlags, pageLabels } from "./page-labels";
import { ShardFile } from "./shard-file";
import { checkDatasetRequest } from "./request";
import { storedRequest } from "./stored-request";

/**
 * Builds a snapshot (the pg-boss job's work) in three steps:
 *
 * 1. plan: one query cuts the matching traces, in creation order, into
 *    shards of about SHARD_ROWS rows each, from the number of rows each
 *    trace will give (its model calls, its events, or one); a shard starts
 *    at a trace and a row within it, so a large trace may span shards;
 * 2. shards: each shard is exported on its own (its traces read a page at a
 *    time, credit computed, encoded) and written to dataset_files under a
 *    provisional path, with its rows' keys and hashes in dataset_row_sets. A
 *    shard depends only on the plan, so shards can be built in any order by
 *    any number of processes (build-process.ts) and the files are the same;
 * 3. finish, in one transaction: the shards get their final names, the card
 *    and manifest are added and the snapshot becomes `ready`; until then it
 *    is listed by no one.
 *
 * A rerun (pg-boss retries a job whose worker died) starts from nothing.
 */

/** Traces loaded ahead of the one being written, for the trace forms (each load waits on a few database round trips). */
const LOAD_AHEAD = 8;
/** Traces read per page of a shard. */
const PAGE_TRACES = 100;

export interface BuildOptions {
  /** tests: fail after this many shards, as a killed worker would stop */
  failAfterShards?: number;
  /** rows per shard (default SHARD_ROWS) */
  shardRows?: number;
}

/** Where a shard starts: the trace (its row id) and the row within that trace's rows. */
export interface ShardStart {
  id: number;
  offset: number;
}

/** One shard of the plan: from its start up to the next shard's (null: to the end). */
export interface ShardPlan {
  index: number;
  from: ShardStart;
  to: ShardStart | null;
}

export interface Counts {
  traces: number;
  rows: number;
  traces_without_calls: number;
  traces_skipped_no_group: number;
}

/** A built shard, written under its provisional path. */
export interface ShardResult {
  index: number;
  file: ManifestFile;
  counts: Counts;
  annotationsAsOf: string | null;
}

/** What every step of a build reads from the stored request. */
export interface BuildContext {
  datasetId: number;
  filterKey: string;
  request: DatasetRequest;
  filter: TraceListQuery;
  req: ExportRequest;
  readable: string[] | null;
  /** the Parquet schema's form */
  form: TabularForm;
}

const zeroCounts = (): Counts => ({ traces: 0, rows: 0, traces_without_calls: 0, traces_skipped_no_group: 0 });

/** Why a build whose heartbeat stopped was failed (its job, retried later, then leaves it so). */
export const STOPPED_BUILD = "the build stopped: the process building it died or was killed; take the snapshot again";
/** How often a running build says it is alive, and after how long without a word it counts as dead. */
export const HEARTBEAT_MS = 10_000;
export const DEAD_AFTER_S = 60;

/** The error of a snapshot whose stored request does not parse: it is never built. */
export const UNREADABLE_REQUEST = "the stored request of this snapshot does not parse; take it again";

/** Marks failed (and clears) every build whose heartbeat is older than DEAD_AFTER_S: its process died. Returns their ids. */
export async function failDeadBuilds(): Promise<number[]> {
  const { rows } = await pool().query<{ id: number }>(
    "UPDATE datasets SET state = 'failed', error = $1 WHERE state = 'building' AND (heartbeat_at IS NULL OR heartbeat_at < now() - make_interval(secs => $2)) RETURNING id",
    [STOPPED_BUILD, DEAD_AFTER_S],
  );
  for (const { id } of rows) await clearPartial(id);
  return rows.map((r) => r.id);
}

/** Keeps a running build's heartbeat fresh until the returned function is called. */
export function heartbeat(datasetId: number): () => void {
  const timer = setInterval(() => {
    pool().query("UPDATE datasets SET heartbeat_at = now() WHERE id = $1 AND state = 'building'", [datasetId]).catch(() => {});
  }, HEARTBEAT_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The build's context, or null when the snapshot is already ready (or was failed for a dead build: a person takes it again). */
export async function buildContext(datasetId: number): Promise<BuildContext | null> {
  const dataset = await prisma().dataset.findUniqueOrThrow({ where: { id: datasetId } });
  if (dataset.state === "ready") return null;
  if (dataset.state === "failed" && dataset.error === STOPPED_BUILD) return null;
  const stored = storedRequest(datasetId, dataset.request);
  if (stored === null) {
    // its projects are unknown: nothing is read for it, and the reason is on the row
    await failBuild(datasetId, new Error(UNREADABLE_REQUEST));
    return null;
  }
  const { request, filter, export: req } = await checkDatasetRequest(stored.body);
  const form: TabularForm = request.form === "strict" || request.form === "extended" ? "traces" : request.form;
  return { datasetId, filterKey: dataset.filterKey, request, filter, req, readable: stored.readable, form };
}

/** Removes what an earlier attempt left and marks the snapshot building. */
export async function startBuild(ctx: BuildContext): Promise<void> {
  await clearPartial(ctx.datasetId);
  const total = await countTraces(ctx.filter, ctx.readable);
  await prisma().dataset.update({ where: { id: ctx.datasetId }, data: { state: "building", tracesTotal: total, tracesDone: 0, error: null, heartbeatAt: new Date() } });
}

export async function buildSnapshot(datasetId: number, opts: BuildOptions = {}, known?: BuildContext): Promise<void> {
  const ctx = known ?? (await buildContext(datasetId));
  if (ctx === null) return;
  await startBuild(ctx);
  const alive = heartbeat(datasetId);
  let inFlight: Promise<ShardResult> | null = null;
  try {
    const plans = await planShards(ctx, opts.shardRows);
    const results: ShardResult[] = [];
    for (const plan of plans) {
      // this shard's rows are computed while the one before is encoded (DuckDB's thread) and written
      const staged = await stageShard(ctx, plan);
      const previous = inFlight;
      inFlight = staged.done;
      if (previous !== null) await record(await previous);
    }
    if (inFlight !== null) await record(await inFlight);
    await finishBuild(ctx, results);

    async function record(result: ShardResult): Promise<void> {
      results.push(result);
      await recordProgress(datasetId, results);
      if (opts.failAfterShards !== undefined && results.length >= opts.failAfterShards) throw new Error("stopped by the test after a shard");
    }
  } catch (error) {
    // nothing is written after the cleanup: the shard being encoded is waited for
    await inFlight?.catch(() => {});
    await failBuild(datasetId, error);
    throw error;
  } finally {
    alive();
  }
}

/** A failed build: nothing of it kept, the reason on the row. */
export async function failBuild(datasetId: number, error: unknown): Promise<void> {
  await clearPartial(datasetId);
  await prisma().dataset.update({ where: { id: datasetId }, data: { state: "failed", error: error instanceof Error ? error.message.slice(0, 1000) : String(error) } });
}

/** Traces done: those whose first row lies in a built shard. */
export async function recordProgress(datasetId: number, results: readonly ShardResult[]): Promise<void> {
  const tracesDone = results.reduce((n, r) => n + r.counts.traces + r.counts.traces_without_calls + r.counts.traces_skipped_no_group, 0);
  await prisma().dataset.update({ where: { id: datasetId }, data: { tracesDone } });
}

/**
 * The shards: the matching traces in creation order, each counted for the
 * rows it will give (model calls for transitions, events for event rows,
 * one for the trace forms), cut every `shardRows` rows. The database
 * answers with the shard boundaries only, so the plan of any number of
 * traces is a few numbers per shard. A trace that gives fewer rows than
 * counted (a skipped group, say) only makes its shard shorter.
 */
export async function planShards(ctx: BuildContext, shardRows = SHARD_ROWS): Promise<ShardPlan[]> {
  const perCall = ctx.request.form === "transitions" || (isTrainerForm(ctx.request.form) && !PER_TRACE_FORMS.includes(ctx.request.form));
  const rowsOf = perCall ? Prisma.sql`(SELECT count(*) FROM model_calls m WHERE m.trace_id = t.id)` : ctx.request.form === "rows" ? Prisma.sql`t.event_count` : Prisma.sql`1`;
  const boundaries = await prisma().$queryRaw<{ id: number; offset: number }[]>(Prisma.sql`
    WITH x AS (SELECT t.id, ${rowsOf}::bigint AS n FROM traces t ${whereOf(listConditions(ctx.filter, ctx.readable, { count: true }))}),
    c AS (SELECT id, n, coalesce(sum(n) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS s FROM x WHERE n > 0)
    SELECT c.id, (k * ${shardRows} - c.s)::int AS "offset"
    FROM c CROSS JOIN LATERAL generate_series(greatest(1, ceil(c.s::numeric / ${shardRows}))::bigint, floor((c.s + c.n - 1)::numeric / ${shardRows})::bigint) AS k
    ORDER BY k`);
  const starts: ShardStart[] = [{ id: 0, offset: 0 }, ...boundaries.map((b) => ({ id: b.id, offset: b.offset }))];
  return starts.map((from, index) => ({ index, from, to: starts[index + 1] ?? null }));
}

type TraceRef = { id: number; trace_id: string };

/** A page of a shard's traces after `after` (a trace whose rows all belong to the next shard is not in it). */
async function shardPage(ctx: BuildContext, plan: ShardPlan, after: number): Promise<TraceRef[]> {
  const c = listConditions(ctx.filter, ctx.readable);
  c.push(Prisma.sql`t.id >= ${plan.from.id}`, Prisma.sql`t.id > ${after}`);
  if (plan.to !== null) c.push(plan.to.offset === 0 ? Prisma.sql`t.id < ${plan.to.id}` : Prisma.sql`t.id <= ${plan.to.id}`);
  // through pg directly: a page's few rows are not worth Prisma's work per query
  const sql = Prisma.sql`SELECT t.id, t.trace_id FROM traces t ${whereOf(c)} ORDER BY t.id LIMIT ${PAGE_TRACES}`;
  return (await pool().query<TraceRef>(sql.text, sql.values)).rows;
}

type Loaded = { ok: true; exported: ExportedTrace } | { ok: false; error: unknown };
const settle = (p: Promise<ExportedTrace>): Promise<Loaded> => p.then((exported): Loaded => ({ ok: true, exported }), (error: unknown): Loaded => ({ ok: false, error }));

/** Each trace of a page, in the page's order, settled (never an unhandled rejection while it waits its turn). */
async function loadPage(ctx: BuildContext, page: readonly TraceRef[]): Promise<(() => Promise<Loaded>)[]> {
  const { request, req } = ctx;
  const withCalls = request.form === "transitions" || isTrainerForm(request.form);
  if (request.form !== "rows" && !withCalls) {
    // the trace forms: one trace at a time, LOAD_AHEAD traces ahead of the rows being written
    const inFlight = new Map<number, Promise<Loaded>>();
    const start = (i: number) => {
      const t = page[i];
      if (t) inFlight.set(i, settle(exportTraceRecords(t.trace_id, req)));
    };
    for (let i = 0; i < LOAD_AHEAD; i++) start(i);
    return page.map((_, i) => async () => {
      const loaded = await inFlight.get(i)!;
      inFlight.delete(i);
      start(i + LOAD_AHEAD);
      return loaded;
    });
  }
  // rows and transitions: a page of traces is read with a few queries for all of it
  const ids = page.map((t) => t.id);
  const keys = page.map((t) => t.trace_id);
  const [traces, callsOf, labelsOf, flagsOf, decisiveOf] = await Promise.all([
    loadTracesById(ids),
    withCalls ? loadCallsMany(ids) : Promise.resolve(new Map<number, ModelCall[]>()),
    pageLabels(keys, req.credit.judges),
    pageFlags(ids),
    decisiveEventsOf(keys),
  ]);
  return page.map((t) => () => {
    const trace = traces.get(t.id);
    if (!trace) return Promise.resolve<Loaded>({ ok: false, error: new Error(`trace ${t.trace_id} was deleted during the build`) });
    const { labels, asOf } = labelsOf.get(t.trace_id)!;
    return settle(exportLoaded({ trace, calls: callsOf.get(t.id) ?? [], labels, asOf, hackingFlags: flagsOf.get(t.id) ?? [], decisiveEvent: decisiveOf.get(t.trace_id) ?? null }, req));
  });
}

/**
 * A shard's rows: its traces a page at a time (the next page read while
 * this one's rows are computed), each trace's rows from the shard's start
 * to the next shard's. A trace is counted by the shard that holds its
 * first row.
 */
export async function* shardRecords(ctx: BuildContext, plan: ShardPlan, counts: Counts): AsyncGenerator<Record<string, unknown>> {
  let page = await shardPage(ctx, plan, plan.from.id - 1);
  let loads = settleAll(loadPage(ctx, page));
  while (page.length > 0) {
    const nextPage = page.length === PAGE_TRACES ? shardPage(ctx, plan, page.at(-1)!.id) : Promise.resolve([]);
    const current = await loads;
    if (!current.ok) throw current.error;
    const next = nextPage.then((p) => ({ page: p, loads: settleAll(loadPage(ctx, p)) }));
    next.catch(() => {});
    for (const [i, load] of current.value.entries()) {
      const t = page[i]!;
      const from = t.id === plan.from.id ? plan.from.offset : 0;
      const to = plan.to !== null && t.id === plan.to.id ? plan.to.offset : Infinity;
      const loaded = await load();
      if (!loaded.ok && !(loaded.error instanceof GroupTooSmallError)) throw loaded.error;
      const exported = loaded.ok ? loaded.exported : null;
      const counted = from === 0;
      if (exported === null) {
        if (counted) counts.traces_skipped_no_group++;
      } else if ((ctx.request.form === "transitions" || isTrainerForm(ctx.request.form)) && exported.form !== ctx.request.form) {
        if (counted) counts.traces_without_calls++;
      } else {
        if (counted) counts.traces++;
        let n = 0;
        for (const row of exportedRecords(exported) as Iterable<Record<string, unknown>>) {
          if (n >= to) break;
          if (n >= from) yield row;
          n++;
        }
      }
    }
    ({ page, loads } = await next);
  }
}

/** Exports one shard and writes it under its provisional path, with its rows' keys and hashes. */
export async function buildShard(ctx: BuildContext, plan: ShardPlan): Promise<ShardResult> {
  return (await stageShard(ctx, plan)).done;
}

/** A shard whose rows are computed and staged; `done` once its file is encoded and written (it never rejects unhandled). */
export interface StagedShard {
  done: Promise<ShardResult>;
}

/**
 * Computes a shard's rows into its file (shard-file.ts), with their keys and
 * hashes; the file is then encoded (DuckDB's thread, for Parquet) and written
 * under its provisional path while the caller goes on.
 */
export async function stageShard(ctx: BuildContext, plan: ShardPlan): Promise<StagedShard> {
  const counts = zeroCounts();
  let annotationsAsOf: string | null = null;
  const taken: (readonly [string, string])[] = [];
  const shard = new ShardFile(ctx.request.format, ctx.form, `${ctx.datasetId}-${plan.index}`);
  for await (const row of shardRecords(ctx, plan, counts)) {
    taken.push([rowKey(ctx.request.form, row), shard.add(row)]);
    const asOf = typeof row.annotations_as_of === "string" ? row.annotations_as_of : null;
    if (asOf !== null && (annotationsAsOf === null || asOf > annotationsAsOf)) annotationsAsOf = asOf;
  }
  const done = (async () => {
    const bytes = await shard.bytes();
    counts.rows = taken.length;
    const file = { path: `partial/${String(plan.index).padStart(5, "0")}`, sha256: sha256(bytes), bytes: bytes.length, rows: taken.length };
    await writeShard(ctx.datasetId, plan.index, file, bytes, taken);
    return { index: plan.index, file, counts, annotationsAsOf };
  })();
  done.catch(() => {});
  return { done };
}

/** The built shards, in plan order, become the snapshot (shards the plan counted rows for but that came out empty are dropped). */
export async function finishBuild(ctx: BuildContext, built: readonly ShardResult[]): Promise<void> {
  const all = [...built].sort((a, b) => a.index - b.index);
  const kept = all.filter((s, i) => s.file.rows > 0 || (i === 0 && all.every((o) => o.file.rows === 0)));
  const dropped = all.filter((s) => !kept.includes(s)).map((s) => s.file.path);
  const counts = zeroCounts();
  let annotationsAsOf: string | null = null;
  for (const s of all) {
    for (const k of Object.keys(counts) as (keyof Counts)[]) counts[k] += s.counts[k];
    if (s.annotationsAsOf !== null && (annotationsAsOf === null || s.annotationsAsOf > annotationsAsOf)) annotationsAsOf = s.annotationsAsOf;
  }
  const { request, req } = ctx;
  const files = kept.map((s, i) => ({ ...s.file, from: s.file.path, path: shardPath(i, kept.length, request.format) }));
  const manifest: Manifest = {
    version: SPEC_VERSION,
    name: request.name,
    form: request.form,
    format: request.format,
    filter: Object.fromEntries(Object.entries(request.filter).sort(([a], [b]) => (a < b ? -1 : 1))),
    credit: { method: req.credit.method, preset: req.preset.name, weights: { ...req.preset.weights }, normalize: req.credit.normalize, judges: selectionParam(req.credit.judges) || "none" },
    counts,
    annotations_as_of: annotationsAsOf,
    files: files.map(({ path, sha256, bytes, rows }) => ({ path, sha256, bytes, rows })),
  };
  await finish(ctx.datasetId, ctx.filterKey, files, dropped, manifest);
}

/** A promise that never rejects (it is awaited later, maybe after other awaits). */
function settleAll<T>(p: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  return p.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }));
}

/** Removes a build's shards and row keys (a failed build's, or before a rerun). */
export async function clearPartial(datasetId: number): Promise<void> {
  await pool().query("DELETE FROM dataset_files WHERE dataset_id = $1", [datasetId]);
  await pool().query("DELETE FROM dataset_row_sets WHERE dataset_id = $1", [datasetId]);
}

async function writeShard(datasetId: number, shard: number, file: ManifestFile, bytes: Buffer, rows: readonly (readonly [string, string])[]): Promise<void> {
  await transaction(async (client) => {
    await client.query("INSERT INTO dataset_files (dataset_id, path, bytes, sha256, size) VALUES ($1, $2, $3, $4, $5)", [datasetId, file.path, bytes, file.sha256, file.bytes]);
    // keys are unique: trace ids are, and event and call ids within a trace
    await client.query("INSERT INTO dataset_row_sets (dataset_id, shard, keys, hashes) VALUES ($1, $2, $3::text[], $4::text[])", [datasetId, shard, rows.map((r) => r[0]), rows.map((r) => r[1])]);
  });
}

/** The projects a snapshot row holds, sorted (null: every project), from its stored request's `readable`. */
const SCOPE_SQL = (alias: string) =>
  `(CASE WHEN jsonb_typeof(${alias}.request->'readable') = 'array'
     THEN (SELECT coalesce(array_agg(x ORDER BY x), '{}') FROM jsonb_array_elements_text(${alias}.request->'readable') AS x) END)`;

/** Final names, card and manifest, the diff against the previous ready snapshot of the same filter and projects, `ready`: one transaction. */
async function finish(datasetId: number, key: string, files: readonly (ManifestFile & { from: string })[], dropped: readonly string[], manifest: Manifest): Promise<void> {
  const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
  const card = datasetCard(manifest);
  await transaction(async (client) => {
    if (dropped.length > 0) await client.query("DELETE FROM dataset_files WHERE dataset_id = $1 AND path = ANY($2::text[])", [datasetId, dropped]);
    for (const f of files) await client.query("UPDATE dataset_files SET path = $3 WHERE dataset_id = $1 AND path = $2", [datasetId, f.from, f.path]);
    for (const [path, text] of [["manifest.json", manifestText], ["README.md", card]] as const) {
      const bytes = Buffer.from(text, "utf8");
      await client.query("INSERT INTO dataset_files (dataset_id, path, bytes, sha256, size) VALUES ($1, $2, $3, $4, $5)", [datasetId, path, bytes, sha256(bytes), bytes.length]);
    }
    // the previous snapshot of the same filter over the same projects (so visible to the same readers): a diff never shows rows of projects its readers may not read
    const previous = await client.query<{ id: number }>(
      `SELECT p.id FROM datasets p, datasets c
       WHERE c.id = $2 AND p.filter_key = $1 AND p.state = 'ready' AND p.id < $2
         AND ${SCOPE_SQL("p")} IS NOT DISTINCT FROM ${SCOPE_SQL("c")}
       ORDER BY p.id DESC LIMIT 1`,
      [key, datasetId],
    );
    const diff = previous.rows[0] ? await diffSnapshots(client, previous.rows[0].id, datasetId) : null;
    await client.query("UPDATE datasets SET state = 'ready', manifest = $2, diff = $3, finished_at = now(), error = NULL WHERE id = $1", [datasetId, JSON.stringify(manifest), diff === null ? null : JSON.stringify(diff)]);
  });
}

/** Most keys a diff lists per kind (the counts are always whole). */
export const DIFF_LIST_LIMIT = 1000;

export interface SnapshotDiff {
  previous: number;
  added: number;
  removed: number;
  changed: number;
  /** row keys (JSON text of [trace, event or call]), at most DIFF_LIST_LIMIT of each kind, sorted */
  keys: { added: string[]; removed: string[]; changed: string[] };
}

async function diffSnapshots(client: pg.PoolClient, previous: number, current: number): Promise<SnapshotDiff> {
  const { rows } = await client.query<{ kind: "added" | "removed" | "changed"; n: number; keys: string[] }>(
    `WITH d AS (
       SELECT CASE WHEN o.key IS NULL THEN 'added' WHEN n.key IS NULL THEN 'removed' ELSE 'changed' END AS kind, coalesce(n.key, o.key) AS key
       FROM (SELECT r.key, r.hash FROM dataset_row_sets s, unnest(s.keys, s.hashes) AS r(key, hash) WHERE s.dataset_id = $2) n
       FULL JOIN (SELECT r.key, r.hash FROM dataset_row_sets s, unnest(s.keys, s.hashes) AS r(key, hash) WHERE s.dataset_id = $1) o ON o.key = n.key
       WHERE o.key IS NULL OR n.key IS NULL OR o.hash <> n.hash)
     SELECT kind, count(*)::int AS n, (array_agg(key ORDER BY key))[1:$3] AS keys FROM d GROUP BY kind`,
    [previous, current, DIFF_LIST_LIMIT],
  );
  const of = (kind: string) => rows.find((r) => r.kind === kind);
  return {
    previous,
    added: of("added")?.n ?? 0,
    removed: of("removed")?.n ?? 0,
    changed: of("changed")?.n ?? 0,
    keys: { added: of("added")?.keys ?? [], removed: of("removed")?.keys ?? [], changed: of("changed")?.keys ?? [] },
  };
}
