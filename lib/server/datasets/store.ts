import "server-only";
import { filterKey } from "@/lib/datasets/request";
import { prisma } from "../db/client";
import { notFound } from "../errors";
import { enqueueSnapshot, ensureDatasetWorker } from "./jobs";
import type { CheckedRequest } from "./request";

/**
 * Snapshots as the API lists them. A snapshot keeps the projects it may
 * hold traces of: those where its creator could both read and upload
 * (null: all); it is shown to whoever can read all of them, as its files
 * hold their traces.
 */
export interface DatasetSummary {
  id: number;
  name: string;
  state: string;
  progress: { traces_done: number; traces_total: number };
  form: string;
  format: string;
  created_at: string;
  finished_at: string | null;
  error: string | null;
  manifest: unknown;
  diff: unknown;
}

interface StoredRequest {
  body: CheckedRequest["request"];
  readable: string[] | null;
}

export async function createDataset(checked: CheckedRequest, readable: string[] | null): Promise<DatasetSummary> {
  const stored: StoredRequest = { body: checked.request, readable };
  const row = await prisma().dataset.create({ data: { name: checked.request.name, filterKey: filterKey(checked.request.filter, checked.request.form), request: JSON.parse(JSON.stringify(stored)) as object } });
  ensureDatasetWorker();
  await enqueueSnapshot(row.id);
  return summary(row);
}

function visible(stored: StoredRequest, readable: string[] | null): boolean {
  if (readable === null) return true;
  return stored.readable !== null && stored.readable.every((p) => readable.includes(p));
}

type Row = Awaited<ReturnType<ReturnType<typeof prisma>["dataset"]["findUniqueOrThrow"]>>;

function summary(row: Row): DatasetSummary {
  const body = (row.request as unknown as StoredRequest).body;
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
    manifest: row.manifest ?? null,
    diff: row.diff ?? null,
  };
}

/** Ready snapshots and those being built (with their progress), newest first; failed ones are not listed. */
export async function listDatasets(readable: string[] | null): Promise<DatasetSummary[]> {
  // builds queued before a restart are picked up once someone looks at the list
  ensureDatasetWorker();
  const rows = await prisma().dataset.findMany({ where: { state: { in: ["ready", "queued", "building"] } }, orderBy: { id: "desc" }, take: 500 });
  return rows.filter((r) => visible(r.request as unknown as StoredRequest, readable)).map(summary);
}

export async function getDataset(id: number, readable: string[] | null): Promise<DatasetSummary & { files: { path: string; sha256: string; bytes: number }[] }> {
  const row = await prisma().dataset.findUnique({ where: { id } });
  if (!row || !visible(row.request as unknown as StoredRequest, readable)) throw notFound(`dataset ${id}`);
  const files = row.state === "ready" ? await prisma().datasetFile.findMany({ where: { datasetId: id }, select: { path: true, sha256: true, size: true }, orderBy: { path: "asc" } }) : [];
  return { ...summary(row), files: files.map((f) => ({ path: f.path, sha256: f.sha256, bytes: f.size })) };
}

/** One file of a ready snapshot. */
export async function datasetFile(id: number, path: string, readable: string[] | null): Promise<Uint8Array> {
  const row = await prisma().dataset.findUnique({ where: { id }, select: { state: true, request: true } });
  if (!row || row.state !== "ready" || !visible(row.request as unknown as StoredRequest, readable)) throw notFound(`dataset ${id}`);
  const file = await prisma().datasetFile.findUnique({ where: { datasetId_path: { datasetId: id, path } }, select: { bytes: true } });
  if (!file) throw notFound(`file ${JSON.stringify(path.slice(0, 200))} of dataset ${id}`);
  return file.bytes;
}
