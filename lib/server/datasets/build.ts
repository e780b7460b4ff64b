import "server-only";
import type pg from "pg";
import { GroupTooSmallError } from "@/lib/credit";
import { datasetCard, rowKey, sha256, shardPath, SHARD_ROWS, type Manifest, type ManifestFile } from "@/lib/datasets/layout";
import { SPEC_VERSION } from "@/lib/metrics/types";
import { selectionParam } from "@/lib/judges/selection";
import type { ModelCall } from "@/lib/trace/calls";
import { loadCallsMany } from "../calls/store";
import { exportedRecords, exportLoaded, exportTraceRecords, parquetStream, type ExportedTrace } from "../compute/export";
import { decisiveEventsOf } from "../queries/decisive-errors";
import { loadTracesById } from "../queries/load-trace";
import { copyLines, copyValue as v } from "../db/copy";
import { pool, prisma, transaction } from "../db/client";
import { listTraces } from "../queries/traces";
import { countTraces } from "../queries/trace-list";
import { pageFlags, pageLabels } from "./page-labels";
import { checkDatasetRequest } from "./request";

/**
 * Builds a snapshot (the pg-boss job's work): every matching trace, a trace
 * at a time, exported in the requested form, cut into shards of SHARD_ROWS
 * rows, each shard written to dataset_files (under a provisional path) with
 * its rows' keys and hashes in dataset_rows as soon as it is full. Only at
 * the end, in one transaction, the shards get their final names, the card
 * and manifest are added and the snapshot becomes `ready`; until then it is
 * listed by no one. A rerun (pg-boss retries a job whose worker died)
 * starts from nothing.
 */
/** Traces loaded ahead of the one being written (each load waits on a few database round trips). */
const LOAD_AHEAD = 8;

export interface BuildOptions {
  /** tests: fail after this many shards, as a killed worker would stop */
  failAfterShards?: number;
  /** rows per shard (default SHARD_ROWS) */
  shardRows?: number;
}

export async function buildSnapshot(datasetId: number, opts: BuildOptions = {}): Promise<void> {
  const dataset = await prisma().dataset.findUniqueOrThrow({ where: { id: datasetId } });
  if (dataset.state === "ready") return;
  await clearPartial(datasetId);
  const stored = dataset.request as { body: unknown; readable: string[] | null };
  const { request, filter, export: req } = await checkDatasetRequest(stored.body);
  const readable = stored.readable;
  const form = request.form === "strict" || request.form === "extended" ? "traces" : request.form;
  const total = await countTraces(filter, readable);
  await prisma().dataset.update({ where: { id: datasetId }, data: { state: "building", tracesTotal: total, tracesDone: 0 } });

  const counts = { traces: 0, rows: 0, traces_without_calls: 0, traces_skipped_no_group: 0 };
  let annotationsAsOf: string | null = null;
  let tracesDone = 0;

  type Loaded = { ok: true; exported: ExportedTrace } | { ok: false; error: unknown };
  type Page = Awaited<ReturnType<typeof listTraces>>;
  const settle = (p: Promise<ExportedTrace>): Promise<Loaded> => p.then((exported): Loaded => ({ ok: true, exported }), (error: unknown): Loaded => ({ ok: false, error }));
  // rows and transitions: a page of traces is read with a few queries for all of it (loadTracesById, loadCallsMany, pageLabels, pageFlags)
  const batched = request.form === "rows" || request.form === "transitions";

  /** Each trace of a page, in the page's order, settled (never an unhandled rejection while it waits its turn). */
  async function loadPage(page: Page): Promise<(() => Promise<Loaded>)[]> {
    if (!batched) {
      // one trace at a time, LOAD_AHEAD traces ahead of the rows being written
      const inFlight = new Map<number, Promise<Loaded>>();
      const start = (i: number) => {
        const t = page.traces[i];
        if (t) inFlight.set(i, settle(exportTraceRecords(t.trace_id, req)));
      };
      for (let i = 0; i < LOAD_AHEAD; i++) start(i);
      return page.traces.map((_, i) => async () => {
        const loaded = await inFlight.get(i)!;
        inFlight.delete(i);
        start(i + LOAD_AHEAD);
        return loaded;
      });
    }
    const ids = page.traces.map((t) => t.id);
    const keys = page.traces.map((t) => t.trace_id);
    const [traces, callsOf, labelsOf, flagsOf, decisiveOf] = await Promise.all([
      loadTracesById(ids),
      request.form === "transitions" ? loadCallsMany(ids) : Promise.resolve(new Map<number, ModelCall[]>()),
      pageLabels(keys, req.credit.judges),
      pageFlags(ids),
      decisiveEventsOf(keys),
    ]);
    return page.traces.map((t) => () => {
      const trace = traces.get(t.id);
      if (!trace) return Promise.resolve<Loaded>({ ok: false, error: new Error(`trace ${t.trace_id} was deleted during the build`) });
      const { labels, asOf } = labelsOf.get(t.trace_id)!;
      return settle(exportLoaded({ trace, calls: callsOf.get(t.id) ?? [], labels, asOf, hackingFlags: flagsOf.get(t.id) ?? [], decisiveEvent: decisiveOf.get(t.trace_id) ?? null }, req));
    });
  }

  async function* traceRecords(): AsyncGenerator<Record<string, unknown>> {
    let page: Page | null = await listTraces(filter, readable);
    let loads = settleAll(loadPage(page));
    while (page !== null) {
      const cursor = page.next_cursor ?? undefined;
      // the next page is read while this one's rows are computed and written
      const nextPage: Promise<Page | null> = cursor !== undefined ? listTraces({ ...filter, cursor }, readable) : Promise.resolve(null);
      const current = await loads;
      if (!current.ok) throw current.error;
      const next = nextPage.then((p) => (p === null ? null : { page: p, loads: settleAll(loadPage(p)) }));
      next.catch(() => {});
      for (const load of current.value) {
        const loaded = await load();
        if (!loaded.ok && !(loaded.error instanceof GroupTooSmallError)) throw loaded.error;
        const exported = loaded.ok ? loaded.exported : null;
        if (exported === null) counts.traces_skipped_no_group++;
        else if (request.form === "transitions" && exported.form !== "transitions") counts.traces_without_calls++;
        else {
          counts.traces++;
          yield* exportedRecords(exported) as Iterable<Record<string, unknown>>;
        }
        tracesDone++;
      }
      await prisma().dataset.update({ where: { id: datasetId }, data: { tracesDone } });
      const upcoming = await next;
      page = upcoming?.page ?? null;
      if (upcoming) loads = upcoming.loads;
    }
  }

  try {
    const source = traceRecords()[Symbol.asyncIterator]();
    const shards: ManifestFile[] = [];
    let exhausted = false;
    while (!exhausted || shards.length === 0) {
      // the shard's row keys and hashes (rows themselves are not kept: only the encoder's row group is in memory)
      const taken: (readonly [string, string])[] = [];
      // one shard's rows, pulled from the shared source (never closing it)
      const shardRows = async function* (): AsyncGenerator<Record<string, unknown>> {
        while (taken.length < (opts.shardRows ?? SHARD_ROWS)) {
          const next = await source.next();
          if (next.done) {
            exhausted = true;
            return;
          }
          const row = next.value;
          taken.push([rowKey(request.form, row), rowHash(row)]);
          const asOf = typeof row.annotations_as_of === "string" ? row.annotations_as_of : null;
          if (asOf !== null && (annotationsAsOf === null || asOf > annotationsAsOf)) annotationsAsOf = asOf;
          yield row;
        }
      };
      const bytes = request.format === "parquet" ? await collect(parquetStream(form, shardRows())) : await jsonlBytes(shardRows());
      if (taken.length === 0 && shards.length > 0) break;
      const file = { path: `partial/${String(shards.length).padStart(5, "0")}`, sha256: sha256(bytes), bytes: bytes.length, rows: taken.length };
      await writeShard(datasetId, file, bytes, taken);
      counts.rows += taken.length;
      shards.push(file);
      if (opts.failAfterShards !== undefined && shards.length >= opts.failAfterShards) throw new Error("stopped by the test after a shard");
      if (exhausted) break;
    }
    const files = shards.map((s, i) => ({ ...s, from: s.path, path: shardPath(i, shards.length, request.format) }));
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
    await finish(datasetId, dataset.filterKey, files, manifest);
  } catch (error) {
    await clearPartial(datasetId);
    await prisma().dataset.update({ where: { id: datasetId }, data: { state: "failed", error: error instanceof Error ? error.message.slice(0, 1000) : String(error) } });
    throw error;
  }
}

/** What a diff compares: the row without `annotations_as_of` (bookkeeping: every row of a relabelled trace would differ by it). */
function rowHash(row: Record<string, unknown>): string {
  const { annotations_as_of: _asOf, ...values } = row;
  return sha256(JSON.stringify(values));
}

/** A promise that never rejects (it is awaited later, maybe after other awaits). */
function settleAll<T>(p: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  return p.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }));
}

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const c of chunks) parts.push(c);
  return Buffer.concat(parts);
}

async function jsonlBytes(rows: AsyncIterable<Record<string, unknown>>): Promise<Buffer> {
  const parts: string[] = [];
  for await (const row of rows) parts.push(`${JSON.stringify(row)}\n`);
  return Buffer.from(parts.join(""), "utf8");
}

/** Removes a build's shards and row keys (a failed build's, or before a rerun). */
export async function clearPartial(datasetId: number): Promise<void> {
  await pool().query("DELETE FROM dataset_files WHERE dataset_id = $1", [datasetId]);
  await pool().query("DELETE FROM dataset_rows WHERE dataset_id = $1", [datasetId]);
}

async function writeShard(datasetId: number, file: ManifestFile, bytes: Buffer, rows: readonly (readonly [string, string])[]): Promise<void> {
  await transaction(async (client) => {
    await client.query("INSERT INTO dataset_files (dataset_id, path, bytes, sha256, size) VALUES ($1, $2, $3, $4, $5)", [datasetId, file.path, bytes, file.sha256, file.bytes]);
    // keys are unique: trace ids are, and event and call ids within a trace
    await copyLines(client, "dataset_rows", ["dataset_id", "key", "hash"], (function* () {
      for (const [key, hash] of rows) yield `${datasetId}\t${v(key)}\t${hash}\n`;
    })());
  });
}

/** Final names, card and manifest, the diff against the previous ready snapshot of the same filter, `ready`: one transaction. */
async function finish(datasetId: number, key: string, files: readonly (ManifestFile & { from: string })[], manifest: Manifest): Promise<void> {
  const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
  const card = datasetCard(manifest);
  await transaction(async (client) => {
    for (const f of files) await client.query("UPDATE dataset_files SET path = $3 WHERE dataset_id = $1 AND path = $2", [datasetId, f.from, f.path]);
    for (const [path, text] of [["manifest.json", manifestText], ["README.md", card]] as const) {
      const bytes = Buffer.from(text, "utf8");
      await client.query("INSERT INTO dataset_files (dataset_id, path, bytes, sha256, size) VALUES ($1, $2, $3, $4, $5)", [datasetId, path, bytes, sha256(bytes), bytes.length]);
    }
    const previous = await client.query<{ id: number }>("SELECT id FROM datasets WHERE filter_key = $1 AND state = 'ready' AND id < $2 ORDER BY id DESC LIMIT 1", [key, datasetId]);
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
       FROM (SELECT key, hash FROM dataset_rows WHERE dataset_id = $2) n
       FULL JOIN (SELECT key, hash FROM dataset_rows WHERE dataset_id = $1) o ON o.key = n.key
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
