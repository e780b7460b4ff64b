import type { RecordedCall } from "./call";

/**
 * Token ids when the server gives none (docs/gateway.md "Token ids from a
 * built-in encoding"): a project may name an OpenAI encoding (`o200k_base`,
 * `cl100k_base`); Baton then tokenises the prompt in the chat layout
 * (`<|im_start|>role<|im_sep|>content<|im_end|>` per message, then the
 * assistant's opening, as gpt-tokenizer's encodeChat writes it) and the
 * response text, and marks the call `token_source: "tokenizer"`.
 * Only for calls that are text alone (every message's content a string, no
 * tool calls offered, made or answered): ids for anything else would be a
 * guess at a layout the server never showed, so such calls get none.
 */

export const BUILTIN_ENCODINGS = ["o200k_base", "cl100k_base"] as const;
export type BuiltinEncoding = (typeof BUILTIN_ENCODINGS)[number];

/** What the encodings offer (gpt-tokenizer's API), so that this module stays free of the package. */
export interface Encoder {
  encode(text: string): number[];
  encodeChat(chat: readonly { role: "system" | "user" | "assistant"; content: string }[]): number[];
}

const CHAT_ROLES = new Set(["system", "user", "assistant"]);

export function tokenizedCall(call: RecordedCall, encoder: Encoder): RecordedCall {
  if (call.prompt_token_ids !== undefined || call.response_token_ids !== undefined) return call;
  if (call.tools !== undefined && call.tools.length > 0) return call;
  const output = typeof call.output === "string" ? { content: call.output, tool_calls: undefined } : call.output;
  if (typeof output.content !== "string" || (output.tool_calls?.length ?? 0) > 0) return call;
  const chat: { role: "system" | "user" | "assistant"; content: string }[] = [];
  for (const m of call.input) {
    // developer is the system role of newer models
    const role = m.role === "developer" ? "system" : m.role;
    if (!CHAT_ROLES.has(role) || typeof m.content !== "string" || (m.tool_calls?.length ?? 0) > 0) return call;
    chat.push({ role: role as "system" | "user" | "assistant", content: m.content });
  }
  return { ...call, prompt_token_ids: encoder.encodeChat(chat), response_token_ids: encoder.encode(output.content), token_source: "tokenizer" };
}
