import { z } from "zod";
import { MAX_ID_LENGTH, MAX_MAGNITUDE } from "./limits";
import type { Problem } from "./validate";

/**
 * The model calls of a run (SPEC.md section 6, `calls`): the prompt a model
 * saw, what it answered, and the events that answer produced. A trace-level
 * extension of the paper's schema, kept apart from event content.
 */

/** Most calls in one trace. */
export const MAX_CALLS = 100_000;
/** Most messages in one call's input. */
export const MAX_CALL_MESSAGES = 10_000;
/** Most token ids in one call's prompt or response. */
export const MAX_TOKEN_IDS = 1_000_000;
/** Largest token id (a PostgreSQL int4). */
export const MAX_TOKEN_ID = 2_147_483_647;

const id = z.string().min(1).max(MAX_ID_LENGTH, `at most ${MAX_ID_LENGTH} characters`);
const number = z
  .number()
  .finite()
  .refine((x) => Math.abs(x) <= MAX_MAGNITUDE, `magnitude must be at most ${MAX_MAGNITUDE}`);
const nonNegative = number.refine((x) => x >= 0, "must be >= 0");
const tokenIds = z.array(z.number().int("token ids are integers").min(0).max(MAX_TOKEN_ID)).max(MAX_TOKEN_IDS, `at most ${MAX_TOKEN_IDS} token ids`);

/** A tool call in an assistant message: the call's id (absent only where a source never had one), the tool's name and its arguments as sent (the chat API sends a JSON string). */
export const toolCallSchema = z
  .object({
    id: z.string().max(MAX_ID_LENGTH).optional(),
    name: z.string().max(MAX_ID_LENGTH),
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]),
  })
  .catchall(z.unknown());

/**
 * A message as the chat API carries it (baton-spec-4): `role` as sent
 * (`system`, `developer`, `user`, `assistant`, `tool`), `content` (text,
 * parts, or null for an assistant message that only calls tools), an
 * assistant's `tool_calls` and a tool message's `tool_call_id`; other
 * properties are kept verbatim.
 */
export const callMessageSchema = z
  .object({
    role: z.string().max(MAX_ID_LENGTH),
    content: z.union([z.string(), z.array(z.record(z.string(), z.unknown())), z.null()]),
    tool_calls: z.array(toolCallSchema).max(MAX_CALL_MESSAGES).optional(),
    tool_call_id: z.string().max(MAX_ID_LENGTH).optional(),
  })
  .catchall(z.unknown());

/** Where a call was recorded: in the model's path, from telemetry spans, or from an imported file. */
export const CALL_SOURCES = ["gateway", "otlp", "import"] as const;
/** Where token ids came from: the model server, or Baton's tokenizer over the text. */
export const TOKEN_SOURCES = ["server", "tokenizer"] as const;

export const modelCallSchema = z.strictObject({
  id,
  agent: id,
  t: nonNegative,
  t_end: nonNegative.optional(),
  model: id.optional(),
  input: z.array(callMessageSchema).max(MAX_CALL_MESSAGES, `at most ${MAX_CALL_MESSAGES} messages`),
  output: z.union([z.string(), callMessageSchema]),
  tools: z.array(z.record(z.string(), z.unknown())).max(MAX_CALL_MESSAGES).optional(),
  params: z.record(z.string(), z.unknown()).optional(),
  finish_reason: id.optional(),
  input_tokens: nonNegative.optional(),
  output_tokens: nonNegative.optional(),
  prompt_token_ids: tokenIds.optional(),
  response_token_ids: tokenIds.optional(),
  response_logprobs: z.array(number).max(MAX_TOKEN_IDS, `at most ${MAX_TOKEN_IDS} logprobs`).optional(),
  token_source: z.enum(TOKEN_SOURCES).optional(),
  response_id: id.optional(),
  source: z.enum(CALL_SOURCES).optional(),
  events: z.array(id).max(MAX_CALLS * 10),
});

export type CallMessage = z.infer<typeof callMessageSchema>;
export type ModelCall = z.infer<typeof modelCallSchema>;

/** Keys of a call in the order the extended form writes them (so that a round trip gives the same text). */
export const CALL_KEYS = [
  "id", "agent", "t", "t_end", "model", "input", "output", "tools", "params", "finish_reason", "input_tokens", "output_tokens",
  "prompt_token_ids", "response_token_ids", "response_logprobs", "token_source", "response_id", "source", "events",
] as const;

/**
 * Rules that need the events: unique call ids, `t_end >= t`, every event a
 * call names exists, and no event is produced by two calls.
 */
export function callProblems(calls: readonly ModelCall[], eventIds: ReadonlySet<string>, base: string): Problem[] {
  const problems: Problem[] = [];
  const callAt = new Map<string, number>();
  const producer = new Map<string, number>();
  calls.forEach((call, i) => {
    const path = `${base}.calls[${i}]`;
    const first = callAt.get(call.id);
    if (first !== undefined) problems.push({ path: `${path}.id`, message: `duplicate call id "${call.id}" (first at calls[${first}])` });
    else callAt.set(call.id, i);
    if (call.t_end !== undefined && call.t_end < call.t) problems.push({ path: `${path}.t_end`, message: `t_end (${call.t_end}) is before t (${call.t})` });
    if (call.response_logprobs !== undefined && call.response_token_ids !== undefined && call.response_logprobs.length !== call.response_token_ids.length) {
      problems.push({ path: `${path}.response_logprobs`, message: `${call.response_logprobs.length} logprobs for ${call.response_token_ids.length} response tokens (one per token)` });
    }
    if (call.token_source !== undefined && call.prompt_token_ids === undefined && call.response_token_ids === undefined) {
      problems.push({ path: `${path}.token_source`, message: "token_source without prompt_token_ids or response_token_ids" });
    }
    call.events.forEach((eventId, j) => {
      if (!eventIds.has(eventId)) return problems.push({ path: `${path}.events[${j}]`, message: `no event has id "${eventId}"` });
      const other = producer.get(eventId);
      if (other !== undefined) problems.push({ path: `${path}.events[${j}]`, message: `event "${eventId}" is already produced by calls[${other}]` });
      else producer.set(eventId, i);
    });
  });
  return problems;
}

/** Call order: by t, ties by position in the `calls` array (as event order is). */
export function callOrder(calls: readonly ModelCall[]): ModelCall[] {
  return calls
    .map((call, i) => ({ call, i }))
    .sort((a, b) => a.call.t - b.call.t || a.i - b.i)
    .map((x) => x.call);
}

/** A call with its keys in CALL_KEYS order and absent optional fields left out. */
export function canonicalCall(call: ModelCall): ModelCall {
  const out: Record<string, unknown> = {};
  for (const key of CALL_KEYS) if (call[key] !== undefined) out[key] = call[key];
  return out as ModelCall;
}
