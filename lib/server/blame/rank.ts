import "server-only";
import { BEST, BlameNotApplicableError, methodByName, orderedEventIds, type BlameMethod, type BlameRanking, type LearnedModel } from "@/lib/blame";
import { SPEC_VERSION } from "@/lib/metrics";
import type { BlamePending, BlameResponse } from "@/lib/api/contracts/analysis";
import { DEFAULT_MODEL, OWN_LABELS_NEEDED } from "@/lib/blame/default-model";
import { judgeRanking } from "@/lib/blame/judge";
import { prisma } from "../db/client";
import { ApiError } from "../errors";
import { bestMethodOf } from "./evaluation";
import { blameInputOf, labelledRows } from "./labelled";
import { queueRanking, queueTraining, storedRanking } from "./model-jobs";
import { modelFor } from "./models";

export type BlameAnswer = { status: 200; body: BlameResponse } | { status: 202; body: BlamePending };

/** A trace of this many events or more is ranked by a background job, its top RANKING_KEPT events kept. */
export const BIG_TRACE = 5_000;

interface TraceRef {
  id: number;
  traceId: string;
  groupId: string | null;
  projectId: number;
  project: string;
  system: string | null;
  /** events it has */
  events: number;
}

export interface Page {
  limit?: number;
  offset?: number;
}

/**
 * One trace ranked by one method; a learned method ranks a labelled trace with a model that never saw its label.
 * Nothing is trained or ranked at length here: `caller` (who asks) queues that work, a few jobs at most.
 */
export async function blameOf(trace: TraceRef, requested: string, page: Page = {}, caller = "anonymous"): Promise<BlameAnswer> {
  let name = requested;
  let chosen: BlameResponse["chosen"];
  if (requested === BEST) {
    // the trace's own label never counts towards "enough": its ranking is the same with or without it
    const own = (await labelledRows({ projectId: trace.projectId })).filter((r) => r.trace_id !== trace.traceId).length;
    const best = own >= OWN_LABELS_NEEDED ? await bestMethodOf(trace.project, trace.system) : null;
    if (!best) {
      const reason =
        own < OWN_LABELS_NEEDED
          ? `project ${trace.project} has ${own} other traces with a decisive error, fewer than the ${OWN_LABELS_NEEDED} needed to learn from its own: the model shipped with Baton`
          : `the methods of project ${trace.project} are not scored yet (being scored now): the model shipped with Baton`;
      return byDefaultModel(trace, reason, page, caller);
    }
    name = best.method;
    chosen = { by: "cross-validated step accuracy", project: trace.project, ...(best.bySystem && { system: trace.system }), as_of: best.as_of, ...(!best.fresh && { note: "labels changed since: being rescored" }) };
  }
  if (name.startsWith("judge:")) return { status: 200, body: paged(await judged(trace, name), {}, page) };
  const method = methodByName(name);
  if (!method) throw new ApiError(400, "invalid_input", `unknown attribution method "${name}"`, [{ path: "method", message: "unknown method" }]);
  if (!method.learned) return ranked(trace, method, null, method.name, { chosen }, page, caller);
  const lookup = await modelFor(trace.projectId, method, trace.traceId, (job) => queueTraining(job, caller));
  if (!lookup) throw new ApiError(422, "not_applicable", `project ${trace.project} has too few traces with a decisive error to learn from`);
  if (lookup.pending && !lookup.trained) {
    if (requested === BEST) return byDefaultModel(trace, `the ${name} model for this trace is being trained (${lookup.reason}): the model shipped with Baton meanwhile`, page, caller, true);
    return pending(name, "training", `the ${name} model for this trace is ${lookup.reason === "being trained" ? "being trained in the background" : `not trained yet: ${lookup.reason}`}`, chosen);
  }
  const t = lookup.trained!;
  const trained: BlameResponse["trained"] = { traces: t.traces, at: t.at.toISOString(), held_out: t.heldOut, source: "project", ...(lookup.pending && { pending: true as const }) };
  return ranked(trace, method, t.model, t.key, { chosen, trained }, page, caller);
}

function pending(method: string, state: BlamePending["state"], reason: string, chosen?: BlameResponse["chosen"]): BlameAnswer {
  return { status: 202, body: { version: SPEC_VERSION, method, state, reason, retry_after_s: 5, ...(chosen && { chosen }) } };
}

/** The ranking by `method` (with `model`, stored under `modelKey`): here for a small trace, by a background job for a big one. */
async function ranked(trace: TraceRef, method: BlameMethod, model: LearnedModel | null, modelKey: string, extra: Pick<BlameResponse, "chosen" | "trained">, page: Page, caller: string): Promise<BlameAnswer> {
  if (trace.events >= BIG_TRACE) {
    const stored = await storedRanking(trace.id, method.name, modelKey);
    if (stored) return { status: 200, body: paged(stored.ranking, extra, page, stored.totalEvents) };
    const refused = await queueRanking({ traceDbId: trace.id, traceKey: trace.traceId, groupId: trace.groupId, projectId: trace.projectId, method: method.name, modelKey }, caller);
    return pending(method.name, "ranking", refused ?? `a trace of ${trace.events.toLocaleString("en")} events is ranked in the background (a minute at 100,000 events); its top suspects are kept`, extra.chosen);
  }
  // a method that reads the judges' answers gets this trace's (the judges were asked without them)
  const input = await blameInputOf(trace.id, trace.groupId, method.judged ? trace.traceId : undefined);
  try {
    const ranking = method.learned ? method.rank(model!, input) : method.rank(input);
    return { status: 200, body: paged(ranking, extra, page) };
  } catch (error) {
    if (error instanceof BlameNotApplicableError) throw new ApiError(422, "not_applicable", error.message);
    throw error;
  }
}

/** `best` without enough labels of the project's own (or while its model trains): the shipped model (lib/blame/default-model.ts). */
function byDefaultModel(trace: TraceRef, reason: string, page: Page, caller: string, modelPending = false): Promise<BlameAnswer> {
  const method = methodByName(DEFAULT_MODEL.model.method)!;
  const trained: BlameResponse["trained"] = { traces: DEFAULT_MODEL.traces, at: DEFAULT_MODEL.trained_at, held_out: false, source: "default", ...(modelPending && { pending: true as const }) };
  return ranked(trace, method, DEFAULT_MODEL.model, `default:${DEFAULT_MODEL.trained_at}`, { chosen: { by: "default", reason }, trained }, page, caller);
}

function paged(ranking: BlameRanking, extra: Pick<BlameResponse, "chosen" | "trained">, page: Page, totalEvents = ranking.events.length): BlameResponse {
  const offset = page.offset ?? 0;
  const end = page.limit === undefined ? undefined : offset + page.limit;
  return {
    version: SPEC_VERSION,
    method: ranking.method,
    ...(extra.chosen && { chosen: extra.chosen }),
    ...(extra.trained && { trained: extra.trained }),
    total_events: totalEvents,
    total_agents: ranking.agents.length,
    offset,
    events: ranking.events.slice(offset, end),
    agents: ranking.agents.slice(offset, end),
  };
}

/** A judge's stored attribution of the trace as a ranking (its step first, the rest tied). */
async function judged(trace: TraceRef, name: string): Promise<BlameRanking> {
  const [, judgeName, mode] = /^judge:(.+):(all_at_once|binary_search|step_by_step)$/.exec(name)!;
  const stored = await prisma().judgeAttribution.findFirst({ where: { traceKey: trace.traceId, mode, judge: { name: judgeName, projectId: trace.projectId } } });
  if (!stored) throw new ApiError(422, "not_applicable", `judge ${judgeName} has not attributed this trace (${mode}): POST /api/blame/judge`);
  if (stored.eventId === null) throw new ApiError(422, "not_applicable", `judge ${judgeName}'s reply for this trace failed: ${stored.error ?? "no step named"}`);
  const input = await blameInputOf(trace.id, trace.groupId);
  const step = orderedEventIds(input).indexOf(stored.eventId);
  if (step < 0) throw new ApiError(422, "not_applicable", `judge ${judgeName} named event ${stored.eventId}, which the trace no longer has`);
  return judgeRanking(name, input, step, stored.reason ?? "");
}
