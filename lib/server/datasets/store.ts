import "server-only";
import { datasetSummary, type DatasetSummary } from "@/lib/api/contracts/datasets";
import { filterKey } from "@/lib/datasets/request";
import { pool, prisma } from "../db/client";
import { ApiError, notFound } from "../errors";
import { clearPartial, failDeadBuilds } from "./build";
import { enqueueSnapshot, ensureDatasetWorker } from "./jobs";
import type { CheckedRequest } from "./request";
import { storedRequest, type StoredRequest } from "./stored-request";
import { setting } from "../config";

/** What one account's snapshots may hold (BATON_DATASET_QUOTA_MB), and how many of its snapshots may wait or build at once. */
export function datasetQuota(env: NodeJS.ProcessEnv = process.env): { bytes: number; pending: number } {
  return { bytes: setting("BATON_DATASET_QUOTA_MB", env) * 1024 * 1024, pending: setting("BATON_DATASET_PENDING", env) };
}

/** 403 quota_exceeded when the account's stored snapshots reach its quota, or it has as many snapshots waiting or building as it may. */
async function checkQuota(userId: number): Promise<void> {
  const quota = datasetQuota();
  const { rows } = await pool().query<{ used: string; pending: number }>(
    `SELECT (SELECT coalesce(sum(f.size), 0) FROM dataset_files f JOIN datasets d ON d.id = f.dataset_id WHERE d.created_by = $1)::text AS used,
            (SELECT count(*)::int FROM datasets WHERE created_by = $1 AND state IN ('queued', 'building')) AS pending`,
    [userId],
  );
  const used = Number(rows[0]!.used);
  const mb = (n: number) => `${(n / 1048576).toFixed(n < 10 * 1048576 ? 1 : 0)} MB`;
  if (used >= quota.bytes) {
    throw new ApiError(403, "quota_exceeded", `your snapshots hold ${mb(used)}, the most one account may keep (BATON_DATASET_QUOTA_MB = ${mb(quota.bytes)}); delete some (DELETE /api/datasets/{id}) before taking another`, [{ path: "$", message: "snapshot quota reached" }]);
  }
  if (rows[0]!.pending >= quota.pending) {
    throw new ApiError(403, "quota_exceeded", `you have ${rows[0]!.pending} snapshots waiting or building, the most one account may have at once; take another when one is ready`, [{ path: "$", message: "too many snapshots in progress" }]);
  }
}

/** `userId`: the account taking it (0 or null: none, as in open local mode before an account exists); its quota is checked first. */
export async function createDataset(checked: CheckedRequest, readable: string[] | null, userId: number | null = null): Promise<DatasetSummary> {
  const creator = userId !== null && userId > 0 ? userId : null;
  if (creator !== null) await checkQuota(creator);
  const stored: StoredRequest = { body: checked.request, readable };
  const row = await prisma().dataset.create({ data: { name: checked.request.name, filterKey: filterKey(checked.request.filter, checked.request.form), request: JSON.parse(JSON.stringify(stored)) as object, createdBy: creator } });
  ensureDatasetWorker();
  await enqueueSnapshot(row.id);
  return summary(row);
}

/**
 * A snapshot keeps the projects it may hold traces of: those where its
 * creator could both read and upload (null: all); it is shown to whoever
 * can read all of them, as its files hold their traces.
 */
function visible(row: { id: number; request: unknown }, readable: string[] | null): boolean {
  const stored = storedRequest(row.id, row.request);
  if (stored === null) return false;
  if (readable === null) return true;
  return stored.readable !== null && stored.readable.every((p) => readable.includes(p));
}

const storedDocument = datasetSummary.shape.manifest;

type Row = Awaited<ReturnType<ReturnType<typeof prisma>["dataset"]["findUniqueOrThrow"]>>;

function summary(row: Row): DatasetSummary {
  const body = storedRequest(row.id, row.request)?.body ?? { form: "unknown", format: "unknown" };
  return {
    id: row.id,
    name: row.name,
    state: row.state,
    progress: { traces_done: row.tracesDone, traces_total: row.tracesTotal },
    form: body.form,
    format: body.format,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    error: row.error,
    // written by the build as JSON objects (build.ts finish)
    manifest: storedDocument.parse(row.manifest ?? null),
    diff: storedDocument.parse(row.diff ?? null),
  };
}

/** Ready snapshots and those being built (with their progress), newest first; failed ones are not listed. */
export async function listDatasets(readable: string[] | null): Promise<DatasetSummary[]> {
  // builds queued before a restart are picked up once someone looks at the list, and dead ones are noticed
  ensureDatasetWorker();
  await failDeadBuilds();
  const rows = await prisma().dataset.findMany({ where: { state: { in: ["ready", "queued", "building"] } }, orderBy: { id: "desc" }, take: 500 });
  return rows.filter((r) => visible(r, readable)).map(summary);
}

export async function getDataset(id: number, readable: string[] | null): Promise<DatasetSummary & { files: { path: string; sha256: string; bytes: number }[] }> {
  await failDeadBuilds();
  const row = await prisma().dataset.findUnique({ where: { id } });
  if (!row || !visible({ id, request: row.request }, readable)) throw notFound(`dataset ${id}`);
  const files = row.state === "ready" ? await prisma().datasetFile.findMany({ where: { datasetId: id }, select: { path: true, sha256: true, size: true }, orderBy: { path: "asc" } }) : [];
  return { ...summary(row), files: files.map((f) => ({ path: f.path, sha256: f.sha256, bytes: f.size })) };
}

/** One file of a ready snapshot. */
export async function datasetFile(id: number, path: string, readable: string[] | null): Promise<Uint8Array> {
  const row = await prisma().dataset.findUnique({ where: { id }, select: { state: true, request: true } });
  if (!row || row.state !== "ready" || !visible({ id, request: row.request }, readable)) throw notFound(`dataset ${id}`);
  const file = await prisma().datasetFile.findUnique({ where: { datasetId_path: { datasetId: id, path } }, select: { bytes: true } });
  if (!file) throw notFound(`file ${JSON.stringify(path.slice(0, 200))} of dataset ${id}`);
  return file.bytes;
}

/** Deletes a snapshot and its files: its creator's or a site admin's act (`userId` null: open local mode, or a site admin); 404 for anyone who may not see it. */
export async function deleteDataset(id: number, readable: string[] | null, userId: number | null): Promise<void> {
  const row = await prisma().dataset.findUnique({ where: { id }, select: { request: true, createdBy: true, state: true } });
  if (!row || !visible({ id, request: row.request }, readable)) throw notFound(`dataset ${id}`);
  if (userId !== null && row.createdBy !== userId) throw new ApiError(403, "forbidden", "only the account that took a snapshot, or a site admin, may delete it");
  if (row.state === "building") throw new ApiError(409, "conflict", "the snapshot is being built; delete it once it is ready or failed");
  await clearPartial(id);
  await prisma().dataset.delete({ where: { id } });
}
