import "server-only";
import { BEST, BlameNotApplicableError, methodByName, orderedEventIds, type BlameRanking, type RankedAgent, type RankedEvent } from "@/lib/blame";
import { SPEC_VERSION } from "@/lib/metrics";
import { DEFAULT_MODEL, OWN_LABELS_NEEDED, rankWithDefaultModel } from "@/lib/blame/default-model";
import { judgeRanking } from "@/lib/blame/judge";
import { prisma } from "../db/client";
import { ApiError } from "../errors";
import { bestMethodOf } from "./evaluation";
import { blameInputOf, labelledRows } from "./labelled";
import { modelFor } from "./models";

/** `GET /api/traces/{id}/blame?method=` (the shape of the attribution API). */
export interface BlameResponse {
  version: typeof SPEC_VERSION;
  method: string;
  /** for method=best: how the method was chosen */
  chosen?: { by: "cross-validated step accuracy"; project: string; system?: string | null; as_of: string; note?: string } | { by: "default"; reason: string };
  /**
   * learned methods: on how many labelled traces, when; `held_out` when this trace has a decisive error, which was left out;
   * `source` "project" (the project's own labelled traces) or "default" (the model shipped with Baton, lib/blame/default-model.json)
   */
  trained?: { traces: number; at: string; held_out: boolean; source: "project" | "default" };
  events: RankedEvent[];
  agents: RankedAgent[];
}


interface TraceRef {
  id: number;
  traceId: string;
  groupId: string | null;
  projectId: number;
  project: string;
  system: string | null;
}

/** One trace ranked by one method; a learned method ranks a labelled trace with a model that never saw its label. */
export async function blameOf(trace: TraceRef, requested: string): Promise<BlameResponse> {
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
      return byDefaultModel(trace, reason);
    }
    name = best.method;
    chosen = { by: "cross-validated step accuracy", project: trace.project, ...(best.bySystem && { system: trace.system }), as_of: best.as_of, ...(!best.fresh && { note: "labels changed since: being rescored" }) };
  }
  if (name.startsWith("judge:")) return judged(trace, name);
  const method = methodByName(name);
  if (!method) throw new ApiError(400, "invalid_input", `unknown attribution method "${name}"`, [{ path: "method", message: "unknown method" }]);
  const input = await blameInputOf(trace.id, trace.groupId);
  try {
    if (!method.learned) return answer(method.rank(input), { chosen });
    const trained = await modelFor(trace.projectId, method, trace.traceId);
    if (!trained) throw new BlameNotApplicableError(name, `project ${trace.project} has too few traces with a decisive error to learn from`);
    return answer(method.rank(trained.model, input), { chosen, trained: { traces: trained.traces, at: trained.at.toISOString(), held_out: trained.heldOut, source: "project" } });
  } catch (error) {
    if (error instanceof BlameNotApplicableError) throw new ApiError(422, "not_applicable", error.message);
    throw error;
  }
}

/** `best` without enough labels of the project's own: the shipped model (lib/blame/default-model.ts). */
async function byDefaultModel(trace: TraceRef, reason: string): Promise<BlameResponse> {
  const input = await blameInputOf(trace.id, trace.groupId);
  return answer(rankWithDefaultModel(input), {
    chosen: { by: "default", reason },
    trained: { traces: DEFAULT_MODEL.traces, at: DEFAULT_MODEL.trained_at, held_out: false, source: "default" },
  });
}

function answer(ranking: BlameRanking, extra: Pick<BlameResponse, "chosen" | "trained">): BlameResponse {
  return { version: SPEC_VERSION, method: ranking.method, ...(extra.chosen && { chosen: extra.chosen }), ...(extra.trained && { trained: extra.trained }), events: ranking.events, agents: ranking.agents };
}

/** A judge's stored attribution of the trace as a ranking (its step first, the rest tied). */
async function judged(trace: TraceRef, name: string): Promise<BlameResponse> {
  const [, judgeName, mode] = /^judge:(.+):(all_at_once|binary_search|step_by_step)$/.exec(name)!;
  const stored = await prisma().judgeAttribution.findFirst({ where: { traceKey: trace.traceId, mode, judge: { name: judgeName, projectId: trace.projectId } } });
  if (!stored) throw new ApiError(422, "not_applicable", `judge ${judgeName} has not attributed this trace (${mode}): POST /api/blame/judge`);
  if (stored.eventId === null) throw new ApiError(422, "not_applicable", `judge ${judgeName}'s reply for this trace failed: ${stored.error ?? "no step named"}`);
  const input = await blameInputOf(trace.id, trace.groupId);
  const step = orderedEventIds(input).indexOf(stored.eventId);
  if (step < 0) throw new ApiError(422, "not_applicable", `judge ${judgeName} named event ${stored.eventId}, which the trace no longer has`);
  return answer(judgeRanking(name, input, step, stored.reason ?? ""), {});
}
