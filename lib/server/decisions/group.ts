import "server-only";
import { reader } from "@/lib/server/db/read";
import { standardize } from "@/lib/credit/group";
import { prepareTrace } from "@/lib/credit/prepare";
import { contrastChoices, DECISION_PRESET, groupDivergence, policyVersion, readableKey, traceChoices, traceRTotal } from "@/lib/decisions";
import { stepKey } from "@/lib/credit/group";
import { SPEC_VERSION } from "@/lib/metrics";
import { clockOf } from "@/lib/format";
import { rTotalBreakdown } from "@/lib/rewards/breakdown";
import type { GroupEvent, GroupRollout, GroupView } from "@/lib/decisions/view";
export type { GroupEvent, GroupRollout, GroupView } from "@/lib/decisions/view";
import { successRate } from "@/lib/stats/wilson";
import { notFound } from "../errors";
import { humanLabels } from "../queries/annotations";
import { loadTraceById } from "../queries/load-trace";

/** A group larger than this is shown by its first rollouts (by id): the view draws one lane each. */
export const MAX_ROLLOUTS = 64;

/** The group view of `groupId` over the rollouts the caller may read (`readable` null: all); 404 when none. */
export async function groupView(groupId: string, readable: string[] | null): Promise<GroupView> {
  const where = { groupId, ...(readable !== null && { project: { name: { in: readable } } }) };
  const [rows, total] = await Promise.all([
    (await reader()).prisma.trace.findMany({ where, select: { id: true }, orderBy: { id: "asc" }, take: MAX_ROLLOUTS }),
    (await reader()).prisma.trace.count({ where }),
  ]);
  if (rows.length === 0) throw notFound(`group "${groupId}"`);
  const loaded = await Promise.all(
    rows.map(async ({ id }) => {
      const trace = await loadTraceById(id, { content: "messages" });
      const prepared = prepareTrace(trace, (await humanLabels(trace.trace_id)).labels);
      return { trace, prepared };
    }),
  );
  const rTotals = loaded.map(({ prepared }) => traceRTotal(prepared, DECISION_PRESET));
  const advantages = loaded.length >= 2 ? standardize(rTotals) : null;
  const rollouts: GroupRollout[] = loaded.map(({ trace, prepared }, i) => {
    const { order } = prepared.analysis.graph;
    const events = Array.from(order, (index, step): GroupEvent => {
      const e = trace.events[index]!;
      return { id: e.id, step, t: e.t, t_end: e.t_end ?? null, type: e.type, agent: e.agent, role: e.role ?? null, key: readableKey(stepKey(e)), status: e.status ?? null };
    });
    return {
      trace_id: trace.trace_id,
      task_id: trace.task_id,
      system: trace.system ?? null,
      project: trace.project ?? "default",
      policy_version: policyVersion(trace.metadata),
      e1: prepared.metrics.e1,
      r_total: rTotals[i]!,
      r_total_parts: rTotalBreakdown(prepared.rewards(DECISION_PRESET.token_budget).families, DECISION_PRESET.weights),
      advantage: advantages ? advantages[i]! : null,
      start: events.length > 0 ? Math.min(...events.map((e) => e.t)) : 0,
      choices: traceChoices(trace),
      events,
    };
  });
  // successes first, then by R_total: the lanes read top-down from best to worst
  rollouts.sort((a, b) => (b.e1 ?? -1) - (a.e1 ?? -1) || b.r_total - a.r_total || (a.trace_id < b.trace_id ? -1 : 1));
  const divergence = groupDivergence(loaded.map(({ trace, prepared }) => ({
    trace_id: trace.trace_id,
    e1: prepared.metrics.e1,
    events: Array.from(prepared.analysis.graph.order, (i) => trace.events[i]!),
  })));
  return {
    version: SPEC_VERSION,
    group_id: groupId,
    preset: DECISION_PRESET.name,
    clock: loaded.every(({ trace }) => clockOf(trace.metadata) === "steps") ? "steps" : "seconds",
    rollouts_total: total,
    e1: successRate(rollouts.map((r) => r.e1)),
    rollouts,
    divergence,
    decisions: contrastChoices(rollouts),
  };
}
