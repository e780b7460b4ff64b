import "server-only";
import type { LabelledTrace, LearnedMethod, LearnedModel } from "@/lib/blame";
import type { Prisma } from "@/lib/generated/prisma/client";
import { pool, prisma } from "../db/client";
import { fingerprintOf, labelledRows, loadLabelled, type LabelledRow } from "./labelled";

/**
 * A project's learned attribution models (lib/blame), trained on the
 * decisive errors its traces hold. The model on every labelled trace is
 * kept in blame_models until those labels change; it ranks the traces that
 * have no decisive error. A labelled trace is ranked by the model trained
 * on all the other labelled traces (leave-one-out), which is exactly the
 * model it would get if its own label did not exist: its label never
 * decides its ranking (SPEC.md section 10).
 */
export interface TrainedModel {
  model: LearnedModel;
  /** labelled traces it was trained on */
  traces: number;
  at: Date;
  /** trained without the ranked trace's own label */
  heldOut: boolean;
}

const MAX_CACHED = 256;
/** leave-one-out models and loaded labelled traces of this process, by label fingerprint (a changed label is a new key) */
const heldOutModels = new Map<string, TrainedModel>();
const labelledCache = new Map<string, Promise<LabelledTrace[]>>();

function remember<V>(cache: Map<string, V>, key: string, value: V, max: number): V {
  cache.set(key, value);
  if (cache.size > max) cache.delete(cache.keys().next().value!);
  return value;
}

function labelledOf(projectId: number, fingerprint: string, rows: readonly LabelledRow[]): Promise<LabelledTrace[]> {
  const key = `${projectId}|${fingerprint}`;
  const cached = labelledCache.get(key);
  if (cached) return cached;
  const loading = loadLabelled(rows);
  loading.catch(() => labelledCache.delete(key));
  return remember(labelledCache, key, loading, 4);
}

/** The model that ranks `traceId` (null when there is nothing to learn from): leave-one-out for a labelled trace, else the project's stored model. */
export async function modelFor(projectId: number, method: LearnedMethod, traceId: string): Promise<TrainedModel | null> {
  const rows = await labelledRows({ projectId });
  const fingerprint = fingerprintOf(rows);
  const own = rows.findIndex((r) => r.trace_id === traceId);
  if (own < 0) return fullModel(projectId, method, rows, fingerprint);
  if (rows.length < 2) return null;
  const key = `${projectId}|${method.name}|${fingerprint}|${traceId}`;
  const cached = heldOutModels.get(key);
  if (cached) return cached;
  const labelled = await labelledOf(projectId, fingerprint, rows);
  const trained = { model: method.train(labelled.filter((_, i) => i !== own)), traces: rows.length - 1, at: new Date(), heldOut: true };
  return remember(heldOutModels, key, trained, MAX_CACHED);
}

/** The project's model on every labelled trace, retrained when its labels changed (one process trains; others wait, then read it). */
export async function fullModel(projectId: number, method: LearnedMethod, rows?: readonly LabelledRow[], fingerprint?: string): Promise<TrainedModel | null> {
  rows ??= await labelledRows({ projectId });
  fingerprint ??= fingerprintOf(rows);
  if (rows.length === 0) return null;
  const read = async (): Promise<TrainedModel | null> => {
    const stored = await prisma().blameModel.findUnique({ where: { projectId_method: { projectId, method: method.name } } });
    return stored && stored.fingerprint === fingerprint ? { model: stored.model as unknown as LearnedModel, traces: stored.trainedOn, at: stored.trainedAt, heldOut: false } : null;
  };
  const stored = await read();
  if (stored) return stored;
  const client = await pool().connect();
  try {
    await client.query("SELECT pg_advisory_lock(7032, $1)", [projectId]);
    const again = await read();
    if (again) return again;
    const model = method.train(await labelledOf(projectId, fingerprint, rows));
    const data = { fingerprint, trainedOn: rows.length, trainedAt: new Date(), model: model as unknown as Prisma.InputJsonValue };
    await prisma().blameModel.upsert({ where: { projectId_method: { projectId, method: method.name } }, create: { projectId, method: method.name, ...data }, update: data });
    return { model, traces: rows.length, at: data.trainedAt, heldOut: false };
  } finally {
    await client.query("SELECT pg_advisory_unlock(7032, $1)", [projectId]).catch(() => {});
    client.release();
  }
}
