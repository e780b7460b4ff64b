import "server-only";
import { learnedModelSchema, type LearnedMethod, type LearnedModel } from "@/lib/blame";
import type { Prisma } from "@/lib/generated/prisma/client";
import { pool, prisma } from "../db/client";
import { storedOrNull } from "../db/stored";
import { fingerprintOf, judgedFingerprintOf, labelledRows, loadLabelled, type LabelledRow } from "./labelled";
import { elsewhere } from "./report-process";

/**
 * A project's learned attribution models (lib/blame), trained on the
 * decisive errors its traces hold, never on a request: background jobs
 * (model-jobs.ts) train them in a child process and store them, every
 * process reads them. The model on every labelled trace is kept in
 * blame_models until those labels change; it ranks the traces that have no
 * decisive error. A labelled trace is ranked by the model trained on all the
 * other labelled traces (leave-one-out, blame_held_out_models), which is
 * exactly the model it would get if its own label did not exist: its label
 * never decides its ranking (SPEC.md section 10).
 */
export interface TrainedModel {
  model: LearnedModel;
  /** labelled traces it was trained on */
  traces: number;
  at: Date;
  /** trained without the ranked trace's own label */
  heldOut: boolean;
  /** what it was trained on: `project:<labels' fingerprint>` or `held-out:<fingerprint>` */
  key: string;
}

/** What there is to rank a trace with: the model for the labels as they are now, or (`pending`) an older one or none while it trains. */
export type ModelLookup = { pending: false; trained: TrainedModel } | { pending: true; trained: TrainedModel | null; reason: string };

/** What a model of `method` is trained on: the labels, and for a method that reads the judges' answers, those answers. */
const fingerprintFor = (method: LearnedMethod, rows: readonly LabelledRow[]) => (method.judged ? judgedFingerprintOf(rows) : Promise.resolve(fingerprintOf(rows)));

/** The stored model that ranks `traceId` (null when there is nothing to learn from), with a training queued when it is missing or older than the labels. */
export async function modelFor(projectId: number, method: LearnedMethod, traceId: string, queue: (job: TrainJob) => Promise<string | null>): Promise<ModelLookup | null> {
  const rows = await labelledRows({ projectId });
  const fingerprint = await fingerprintFor(method, rows);
  const own = rows.findIndex((r) => r.trace_id === traceId);
  if (rows.length === 0 || (own >= 0 && rows.length < 2)) return null;
  const stored = own < 0 ? await storedFullModel(projectId, method.name) : await storedHeldOutModel(projectId, method.name, traceId);
  if (stored && stored.fingerprint === fingerprint) return { pending: false, trained: stored.trained };
  const refused = await queue({ projectId, method: method.name, traceKey: own < 0 ? null : traceId, fingerprint });
  return { pending: true, trained: stored?.trained ?? null, reason: refused ?? "being trained" };
}

/** A training: the project's model (traceKey null) or the one that leaves `traceKey` out, on the labels of `fingerprint`. */
export interface TrainJob {
  projectId: number;
  method: string;
  traceKey: string | null;
  fingerprint: string;
}

/** A stored model of `method`, or null (logged) when it does not parse or is another method's: it is then trained again, never ranked with. */
function storedModel(value: unknown, method: string, what: string): LearnedModel | null {
  const model = storedOrNull(learnedModelSchema, value, what);
  if (model === null || model.method === method) return model;
  console.error(`[baton] ${what} is a model of ${JSON.stringify(model.method)}, not of ${JSON.stringify(method)}`);
  return null;
}

async function storedFullModel(projectId: number, method: string) {
  const row = await prisma().blameModel.findUnique({ where: { projectId_method: { projectId, method } } });
  const model = row && storedModel(row.model, method, `blame model of project ${projectId}, method ${method}`);
  return row && model && { fingerprint: row.fingerprint, trained: { model, traces: row.trainedOn, at: row.trainedAt, heldOut: false, key: `project:${row.fingerprint}` } };
}

async function storedHeldOutModel(projectId: number, method: string, traceKey: string) {
  const row = await prisma().blameHeldOutModel.findUnique({ where: { projectId_method_traceKey: { projectId, method, traceKey } } });
  const model = row && storedModel(row.model, method, `held-out blame model of project ${projectId}, method ${method}, trace ${JSON.stringify(traceKey)}`);
  return row && model && { fingerprint: row.fingerprint, trained: { model, traces: row.trainedOn, at: row.trainedAt, heldOut: true, key: `held-out:${row.fingerprint}` } };
}

/** The stored model a ranking was made with, by its key (null when it is gone or was retrained since). */
export async function modelByKey(projectId: number, method: string, traceKey: string, key: string): Promise<LearnedModel | null> {
  const stored = key.startsWith("held-out:") ? await storedHeldOutModel(projectId, method, traceKey) : await storedFullModel(projectId, method);
  return stored?.trained.key === key ? stored.trained.model : null;
}

/** The job's work: trains (in a child process) and stores the model, unless the labels changed since it was queued. */
export async function trainAndStore(job: TrainJob, method: LearnedMethod, signal?: AbortSignal): Promise<void> {
  const rows = await labelledRows({ projectId: job.projectId });
  if ((await fingerprintFor(method, rows)) !== job.fingerprint) return;
  const current = job.traceKey === null ? await storedFullModel(job.projectId, job.method) : await storedHeldOutModel(job.projectId, job.method, job.traceKey);
  if (current?.fingerprint === job.fingerprint) return;
  const training: readonly LabelledRow[] = job.traceKey === null ? rows : rows.filter((r) => r.trace_id !== job.traceKey);
  const model = await elsewhere({ task: "train", method: method.name, labelled: await loadLabelled(training, { judges: method.judged === true }) }, { signal });
  const data = { fingerprint: job.fingerprint, trainedOn: training.length, trainedAt: new Date(), model: model as unknown as Prisma.InputJsonValue };
  if (job.traceKey === null) {
    await prisma().blameModel.upsert({ where: { projectId_method: { projectId: job.projectId, method: job.method } }, create: { projectId: job.projectId, method: job.method, ...data }, update: data });
  } else {
    const id = { projectId: job.projectId, method: job.method, traceKey: job.traceKey };
    await prisma().blameHeldOutModel.upsert({ where: { projectId_method_traceKey: id }, create: { ...id, ...data }, update: data });
  }
}

/** The project's model on every labelled trace, trained now when missing or older than the labels (the project's refresh job). */
export async function fullModel(projectId: number, method: LearnedMethod): Promise<void> {
  const rows = await labelledRows({ projectId });
  if (rows.length === 0) return;
  const client = await pool().connect();
  try {
    // one process trains a project's models at a time
    await client.query("SELECT pg_advisory_lock(7032, $1)", [projectId]);
    await trainAndStore({ projectId, method: method.name, traceKey: null, fingerprint: await fingerprintFor(method, rows) }, method);
  } finally {
    await client.query("SELECT pg_advisory_unlock(7032, $1)", [projectId]).catch(() => {});
    client.release();
  }
}
