import type { CallMessage, ModelCall } from "@/lib/trace/calls";
import type { GatewayApi } from "@/lib/gateway/request";
import type { RequestPart } from "@/lib/gateway/call";

/**
 * When a model request during a replay is "the same" as a recorded one
 * (docs/replay.md "Matching"). Two requests match when, after
 * normalisation, they have:
 * - the same API (chat completions or Responses) when the recorded call's
 *   can be told (`apiOfCall`),
 * - the same messages in the same order: each message's `role`, `content`
 *   (text, or parts compared as canonical JSON), `tool_calls` (name and
 *   arguments; arguments that are JSON compared as canonical JSON, so key
 *   order and spacing do not count) and `tool_call_id`; for a Responses
 *   item that is not a message, the item itself without its `id`;
 * - the same `tools` (canonical JSON; absent and `[]` are the same).
 * Ignored as volatile: the ids of tool calls (`tool_calls[].id`) and the
 * `tool_call_id` that point at them are replaced by their order of first
 * appearance in the request (`#1`, `#2`, ...), so a program that mints its
 * own call ids still matches while which result answers which call still
 * counts; every other message key (`name`, `refusal`, `annotations`,
 * reasoning fields a client echoes back); the model name; the sampling
 * parameters; `user` and `metadata` (Baton's own agent tags).
 * Matching is per agent in call order (see plan.ts), so interleaving
 * between agents does not matter.
 */

/** JSON with object keys sorted: equal values give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]));
  }
  return value;
}

/** Tool call arguments as compared: JSON text in canonical form, other text as it is. */
function argumentsKey(args: unknown): string {
  if (typeof args !== "string") return canonicalJson(args);
  try {
    return canonicalJson(JSON.parse(args));
  } catch {
    return args;
  }
}

/** What of a request counts for a match, as one canonical string. */
export function requestKey(api: GatewayApi, input: readonly CallMessage[], tools: readonly unknown[] | undefined): string {
  const ids = new Map<string, string>();
  const idOf = (id: unknown) => {
    if (typeof id !== "string") return null;
    let alias = ids.get(id);
    if (alias === undefined) {
      alias = `#${ids.size + 1}`;
      ids.set(id, alias);
    }
    return alias;
  };
  const messages = input.map((m) => {
    const item = typeof m.item === "object" && m.item !== null ? withoutId(m.item as Record<string, unknown>) : undefined;
    return {
      role: m.role,
      content: m.content ?? null,
      ...(m.tool_calls !== undefined && m.tool_calls.length > 0 && { tool_calls: m.tool_calls.map((c) => ({ id: idOf(c.id), name: c.name, arguments: argumentsKey(c.arguments) })) }),
      ...(m.tool_call_id !== undefined && { tool_call_id: idOf(m.tool_call_id) }),
      ...(item !== undefined && { item }),
    };
  });
  return canonicalJson({ api, messages, tools: tools ?? [] });
}

function withoutId(item: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, ...rest } = item;
  return rest;
}

/**
 * The API a recorded call was made over, when it can be told: a call keeps
 * no API of its own (SPEC.md section 6), so it is read from the reply's id
 * (`resp_…` is the Responses API's, `chatcmpl-…` chat completions'); null
 * when the id says neither, and then the API is not compared (the tools'
 * shapes and the messages still differ between the two APIs).
 */
export function apiOfCall(call: Pick<ModelCall, "response_id">): GatewayApi | null {
  const id = call.response_id ?? "";
  if (id.startsWith("resp_") || id.startsWith("resp-")) return "responses";
  if (id.startsWith("chatcmpl")) return "chat";
  return null;
}

/** Whether a live request matches a recorded call (same API when known, same messages and tools as above). */
export function requestMatches(api: GatewayApi, request: Pick<RequestPart, "input" | "tools">, recorded: Pick<ModelCall, "input" | "tools" | "response_id">): boolean {
  const recordedApi = apiOfCall(recorded) ?? api;
  return requestKey(api, request.input, request.tools) === requestKey(recordedApi, recorded.input, recorded.tools);
}
