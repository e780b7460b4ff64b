import { creditColumns, type PreparedTrace } from "../credit";
import { stepKey } from "../credit/group";
import { SPEC_VERSION } from "../metrics/types";
import type { CallMessage, ModelCall } from "../trace/calls";
import { FAMILIES } from "../trace/types";
import type { ExportOptions } from "./rows";

/**
 * The transitions form (SPEC.md section 6): one row per model call, in call
 * order, with the reward, credit and advantage of the events the call
 * produced. What a trainer updates a policy on: the prompt a model saw, the
 * completion it wrote, and how much of the run's outcome it earned.
 */
export interface TransitionRow {
  uid: string;
  group_id: string | null;
  traj_uid: string;
  /** call index in call order */
  step: number;
  call_id: string;
  agent: string;
  /** the role of the agent's events (its first event in event order that has one), null when none */
  role: string | null;
  model: string | null;
  prompt: CallMessage[];
  response: string | CallMessage;
  prompt_token_ids: number[] | null;
  response_token_ids: number[] | null;
  /** sum over the call's events of sum_f w_f r_f(v): the part of R_total anchored at them */
  reward: number;
  /** sum of C(v) over the call's events (ccp) */
  credit: number;
  /** sum of the chosen method's values over the call's events */
  advantage: number;
  /** the GiGPO step key of the call's first event (in event order): JSON text of [role or agent, type, content_ref or tool or ""]; null when the call produced no event */
  anchor_obs: string | null;
  hacking_flags: string[];
  method: ExportOptions["method"];
  preset: string;
  version: typeof SPEC_VERSION;
  annotations_as_of: string | null;
}

/** The transitions of one trace; `calls` in call order (as validateTrace and the store keep them). */
export function* transitionRows(p: PreparedTrace, calls: readonly ModelCall[], opts: Omit<ExportOptions, "content">): Generator<TransitionRow> {
  const { graph, trace } = p.analysis;
  const values = p.rewards(opts.preset.token_budget).values;
  const weights = opts.preset.weights;
  const ccp = creditColumns(p, { method: "ccp", preset: opts.preset, normalize: opts.normalize });
  const chosen = opts.method === "ccp" ? ccp : creditColumns(p, { method: opts.method, preset: opts.preset, normalize: opts.normalize, group: opts.group });
  const positionOf = new Map<string, number>();
  trace.events.forEach((e, i) => positionOf.set(e.id, i));
  const seqOf = new Int32Array(graph.n);
  for (let s = 0; s < graph.n; s++) seqOf[graph.order[s]!] = s;
  const roleOf = agentRoles(p);

  for (let step = 0; step < calls.length; step++) {
    const call = calls[step]!;
    let reward = 0;
    let credit = 0;
    let advantage = 0;
    let first = -1;
    for (const id of call.events) {
      const i = positionOf.get(id);
      if (i === undefined) continue;
      for (const f of FAMILIES) {
        const v = values[f][i]!;
        if (!Number.isNaN(v)) reward += weights[f] * v;
      }
      credit += ccp.total[i]!;
      advantage += chosen.total[i]!;
      if (first === -1 || seqOf[i]! < seqOf[first]!) first = i;
    }
    const anchor = first === -1 ? null : JSON.stringify(stepKey(trace.events[first]!).split("\u0000"));
    yield {
      uid: trace.task_id,
      group_id: trace.group_id ?? null,
      traj_uid: trace.trace_id,
      step,
      call_id: call.id,
      agent: call.agent,
      role: roleOf.get(call.agent) ?? null,
      model: call.model ?? null,
      prompt: call.input,
      response: call.output,
      prompt_token_ids: call.prompt_token_ids ?? null,
      response_token_ids: call.response_token_ids ?? null,
      reward,
      credit,
      advantage,
      anchor_obs: anchor,
      hacking_flags: [...(opts.hackingFlags ?? [])],
      method: opts.method,
      preset: opts.preset.name,
      version: SPEC_VERSION,
      annotations_as_of: opts.annotationsAsOf,
    };
  }
}

/** Each agent's role: that of its first event in event order that has one. */
function agentRoles(p: PreparedTrace): Map<string, string> {
  const { graph } = p.analysis;
  const roles = new Map<string, string>();
  for (let s = 0; s < graph.n; s++) {
    const e = graph.events[graph.order[s]!]!;
    if (e.role !== undefined && !roles.has(e.agent)) roles.set(e.agent, e.role);
  }
  return roles;
}
