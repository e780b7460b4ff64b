import type { z } from "zod";
import { modelCallSchema, type CallMessage } from "@/lib/trace/calls";

/**
 * What the gateway records of one call before it belongs to a trace: the
 * call of SPEC.md section 6 without its id and events, `t` and `t_end` in
 * seconds since the epoch (the trace makes them relative to its first call).
 */
export const recordedCallSchema = modelCallSchema.omit({ id: true, events: true });
export type RecordedCall = z.infer<typeof recordedCallSchema>;

/** How a call ended, as the client saw it. */
export const CALL_OUTCOMES = ["complete", "client_disconnected", "upstream_error", "upstream_timeout"] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/** The request half of a call: what the model was sent. */
export interface RequestPart {
  model?: string;
  input: CallMessage[];
  tools?: Record<string, unknown>[];
  params?: Record<string, unknown>;
}

/** The reply half of a call: what the model answered. */
export interface ReplyPart {
  model?: string;
  output: CallMessage;
  finish_reason?: string;
  input_tokens?: number;
  output_tokens?: number;
  prompt_token_ids?: number[];
  response_token_ids?: number[];
  response_logprobs?: number[];
  response_id?: string;
}

export type JsonObject = Record<string, unknown>;

export const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
export const stringOr = (v: unknown): string | undefined => (typeof v === "string" && v.length > 0 ? v : undefined);
export const countOr = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined);
export const idsOr = (v: unknown): number[] | undefined => (Array.isArray(v) && v.every((x) => Number.isInteger(x) && x >= 0) ? (v as number[]) : undefined);

/** Every key of `body` but `left`: the sampling parameters and other settings sent (temperature, top_p, max_tokens, tool_choice, ...). */
export function paramsOf(body: JsonObject, left: ReadonlySet<string>): Record<string, unknown> | undefined {
  const params = Object.fromEntries(Object.entries(body).filter(([key]) => !left.has(key)));
  return Object.keys(params).length > 0 ? params : undefined;
}

/** A call from its two halves, optional fields left out when unknown. */
export function recordedCall(agent: string, t: number, tEnd: number, request: RequestPart, reply: ReplyPart | null, tokenSource = true): RecordedCall {
  const model = reply?.model ?? request.model;
  const call: RecordedCall = {
    agent,
    t,
    t_end: Math.max(t, tEnd),
    ...(model !== undefined && { model }),
    input: request.input,
    output: reply?.output ?? { role: "assistant", content: null },
    ...(request.tools !== undefined && { tools: request.tools }),
    ...(request.params !== undefined && { params: request.params }),
  };
  if (reply === null) return { ...call, source: "gateway" };
  const { output: _output, model: _model, ...rest } = reply;
  for (const [key, value] of Object.entries(rest)) if (value !== undefined) (call as Record<string, unknown>)[key] = value;
  if (tokenSource && (reply.prompt_token_ids !== undefined || reply.response_token_ids !== undefined)) call.token_source = "server";
  if (call.response_logprobs !== undefined && call.response_token_ids !== undefined && call.response_logprobs.length !== call.response_token_ids.length) delete call.response_logprobs;
  call.source = "gateway";
  return call;
}
