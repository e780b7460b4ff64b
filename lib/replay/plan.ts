import type { CallMessage, ModelCall } from "@/lib/trace/calls";
import type { RequestPart } from "@/lib/gateway/call";
import type { GatewayApi } from "@/lib/gateway/request";
import { z } from "zod";
import { resolvedToolEditSchema, type ResolvedToolEdit } from "./edit";
import { requestMatches } from "./match";

/**
 * What a replay run key answers to each model request (SPEC.md section 11,
 * docs/replay.md). Pure: the state goes in and comes out; the caller keeps
 * it (one row per run key, locked while a request is decided).
 *
 * Each agent has a cursor into its own recorded calls, in call order. A
 * request from agent A is compared with A's next recorded call:
 * - it matches and that call is before the edited one (or the run is a
 *   plain replay): the recorded reply is served;
 * - it matches and it is the edited call: the edit is served (a reply
 *   edit), or the request goes to the live model with the edited tool
 *   result in place (a tool result edit);
 * - it matches and the call is after the edited one: live (its turn came
 *   early, as agents running side by side do);
 * - otherwise, before the edit was served: the run diverged
 *   (`divergence: {call_index, ...}`): from this request on every call is
 *   live; after the edit: live (a different request is the edit's doing).
 */

export const ORIGINS = ["record", "edit", "live"] as const;
export type Origin = (typeof ORIGINS)[number];

const divergenceSchema = z.strictObject({
  /** 0-based position of the request that did not match among the run's requests */
  call_index: z.number().int().min(0),
  /** the recorded call it was compared with (null: the agent had no recorded call left) */
  expected_call_id: z.string().nullable(),
  agent: z.string(),
});
export type Divergence = z.infer<typeof divergenceSchema>;

/** A run's state as stored on its row (replay_runs.state). */
export const replayStateSchema = z.strictObject({
  /** per agent: how many of its recorded calls have been consumed */
  cursors: z.record(z.string(), z.number().int().min(0)),
  /** how each request so far was answered, in arrival order */
  origins: z.array(z.enum(ORIGINS)),
  divergence: divergenceSchema.nullable(),
  edit_served: z.boolean(),
  /** a tool result edit once served, with the tool call id as the program sends it (later live calls carry it too) */
  rewrite: resolvedToolEditSchema.nullable().optional(),
});
export type ReplayState = z.infer<typeof replayStateSchema>;

export const initialState = (): ReplayState => ({ cursors: {}, origins: [], divergence: null, edit_served: false, rewrite: null });

export interface ReplayPlan {
  /** the edited call's index in the trace's call order; null for an unchanged replay */
  editIndex: number | null;
  edit: { kind: "reply"; output: CallMessage } | { kind: "tool_result"; tool: ResolvedToolEdit } | null;
}

/** An agent's next recorded call and its index in the trace's call order. */
export interface Expected {
  index: number;
  call: ModelCall;
}

export type Answer =
  | { kind: "record"; call: ModelCall }
  | { kind: "edit"; output: CallMessage }
  | { kind: "live"; rewrite: ResolvedToolEdit | null };

export function decide(state: ReplayState, plan: ReplayPlan, agent: string, api: GatewayApi, request: Pick<RequestPart, "input" | "tools">, expected: Expected | null): { answer: Answer; state: ReplayState } {
  const at = state.origins.length;
  const rewrite = state.edit_served ? (state.rewrite ?? null) : null;
  const next = (answer: Answer, patch: Partial<ReplayState> = {}, origin: Origin = answer.kind) => ({
    answer,
    state: { ...state, ...patch, origins: [...state.origins, origin] },
  });
  if (state.divergence !== null) return next({ kind: "live", rewrite });
  const limit = plan.editIndex ?? Number.POSITIVE_INFINITY;
  const advanced = () => ({ ...state.cursors, [agent]: (state.cursors[agent] ?? 0) + 1 });
  if (expected !== null && requestMatches(api, request, expected.call)) {
    if (expected.index < limit) return next({ kind: "record", call: expected.call }, { cursors: advanced() });
    if (expected.index === limit && plan.edit !== null) {
      if (plan.edit.kind === "reply") return next({ kind: "edit", output: plan.edit.output }, { cursors: advanced(), edit_served: true });
      // the program may mint its own tool call ids (matching ignores them): the result is found where the record has it
      const edited = plan.edit.tool;
      const at = expected.call.input.findIndex((m) => m.role === "tool" && m.tool_call_id === edited.tool_call_id);
      const live = at >= 0 ? request.input[at]?.tool_call_id : undefined;
      const tool = { ...edited, tool_call_id: live ?? edited.tool_call_id };
      return next({ kind: "live", rewrite: tool }, { cursors: advanced(), edit_served: true, rewrite: tool }, "edit");
    }
    return next({ kind: "live", rewrite }, { cursors: advanced() });
  }
  if (state.edit_served) return next({ kind: "live", rewrite });
  return next({ kind: "live", rewrite: null }, { divergence: { call_index: at, expected_call_id: expected?.call.id ?? null, agent } });
}
