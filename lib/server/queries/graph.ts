import "server-only";
import { creditColumns, GroupTooSmallError, prepareTrace, type CreditColumns, type PreparedTrace } from "@/lib/credit";
import { buildGraphModel, creditPage, eventsPage, type GraphModel } from "@/lib/graph-view/build";
import type { GraphCreditPage, GraphEventsPage, GraphMeta } from "@/lib/graph-view/wire";
import { resolvePreset } from "@/lib/rewards";
import type { CreditQuery } from "../compute/credit";
import { ApiError } from "../errors";
import { loadGroup, loadTraceById } from "./load-trace";
import { userPresets } from "./presets";
import { findTraceRow } from "./traces";

/**
 * Server side of the graph view (`GET /api/traces/{id}/graph`): the trace's
 * columns are built once (load, analyse, metrics roles, lanes) and cached
 * for the few traces being looked at, so that paging a 100,000-event trace
 * does not reload and recompute it per page. The cache key includes the
 * row's id and updated_at: a re-ingested trace (upsert deletes and inserts)
 * gets a new id and so a fresh entry.
 */
interface Entry {
  prepared: PreparedTrace;
  model: GraphModel;
  credit: Map<string, CreditColumns>;
}

const MAX_MODELS = 3;
const MAX_CREDIT_PER_MODEL = 6;

// On globalThis: route handlers and server components are separate bundles in a production build.
const store = globalThis as unknown as { batonGraphModels?: Map<string, Promise<Entry>> };
const models = (store.batonGraphModels ??= new Map<string, Promise<Entry>>());

async function entryFor(traceId: string): Promise<Entry> {
  const row = await findTraceRow(traceId);
  const key = `${row.id}:${row.updatedAt.getTime()}`;
  let entry = models.get(key);
  if (entry) {
    models.delete(key); // most recently used last
  } else {
    entry = (async () => {
      const prepared = prepareTrace(await loadTraceById(row.id));
      return { prepared, model: buildGraphModel(prepared), credit: new Map() };
    })();
    entry.catch(() => models.delete(key));
  }
  models.set(key, entry);
  while (models.size > MAX_MODELS) models.delete(models.keys().next().value as string);
  return entry;
}

/** `part=meta`. */
export async function graphMeta(traceId: string): Promise<GraphMeta> {
  return (await entryFor(traceId)).model.meta;
}

/** `part=events`: events with seq in [from, from + limit) and the edges ending in them. */
export async function graphEvents(traceId: string, from: number, limit: number): Promise<GraphEventsPage> {
  return eventsPage((await entryFor(traceId)).model, from, limit);
}

/** `part=credit`: credit columns in event order (by family only with `families`, ccp only). */
export async function graphCredit(traceId: string, query: CreditQuery, page: { from: number; limit: number; families: boolean }): Promise<GraphCreditPage> {
  const entry = await entryFor(traceId);
  const key = JSON.stringify([query.method, query.preset, query.normalize, query.overrides]);
  let columns = entry.credit.get(key);
  if (!columns) {
    columns = await computeColumns(entry.prepared, query);
    entry.credit.set(key, columns);
    while (entry.credit.size > MAX_CREDIT_PER_MODEL) entry.credit.delete(entry.credit.keys().next().value as string);
  }
  return creditPage(entry.model, columns, page.from, page.limit, page.families);
}

async function computeColumns(prepared: PreparedTrace, query: CreditQuery): Promise<CreditColumns> {
  const preset = resolvePreset(query.preset, query.overrides, await userPresets());
  if (!preset) throw new ApiError(400, "invalid_parameter", `unknown preset "${query.preset}"`, [{ path: "preset", message: `unknown preset "${query.preset}"` }]);
  const trace = prepared.analysis.trace;
  const needsGroup = query.method === "grpo" || query.method === "gigpo";
  const group = needsGroup && trace.group_id ? (await loadGroup(trace.group_id)).map((t) => ({ trace: t })) : [];
  try {
    return creditColumns(prepared, { method: query.method, preset, normalize: query.normalize, group });
  } catch (error) {
    if (error instanceof GroupTooSmallError) {
      throw new ApiError(422, "group_too_small", `${query.method} needs a group of at least 2 traces sharing the trace's group_id: ${error.message}`);
    }
    throw error;
  }
}
