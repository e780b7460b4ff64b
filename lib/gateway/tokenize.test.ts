import * as cl100k from "gpt-tokenizer/encoding/cl100k_base";
import * as o200k from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { recordedCall } from "./call";
import { tokenizedCall, type Encoder } from "./tokenize";

const encoders: Record<string, Encoder> = {
  cl100k_base: { encode: (t) => cl100k.encode(t), encodeChat: (c) => cl100k.encodeChat(c, "gpt-4") },
  o200k_base: { encode: (t) => o200k.encode(t), encodeChat: (c) => o200k.encodeChat(c, "gpt-4o") },
};
const call = (input: { role: string; content: string | null }[], output: string | null, extra: Record<string, unknown> = {}) =>
  ({ ...recordedCall("a", 0, 1, { input, ...extra }, { output: { role: "assistant", content: output } }) });

describe("token ids from a built-in OpenAI encoding", () => {
  it("match the encodings' published ids", () => {
    // "Hello, world!" in OpenAI's tiktoken: cl100k_base [9906, 11, 1917, 0], o200k_base [13225, 11, 2375, 0]
    expect(tokenizedCall(call([{ role: "user", content: "Hi" }], "Hello, world!"), encoders.cl100k_base!).response_token_ids).toEqual([9906, 11, 1917, 0]);
    expect(tokenizedCall(call([{ role: "user", content: "Hi" }], "Hello, world!"), encoders.o200k_base!).response_token_ids).toEqual([13225, 11, 2375, 0]);
  });

  it("the prompt in the chat layout: <|im_start|>role<|im_sep|>text<|im_end|> per message, then the assistant's opening", () => {
    const out = tokenizedCall(call([{ role: "user", content: "Hello, world!" }], "ok"), encoders.cl100k_base!);
    // <|im_start|>=100264 user=882 <|im_sep|>=100266 ... <|im_end|>=100265, assistant=78191
    expect(out.prompt_token_ids).toEqual([100264, 882, 100266, 9906, 11, 1917, 0, 100265, 100264, 78191, 100266]);
    expect(out.token_source).toBe("tokenizer");
  });

  it("leaves alone calls with ids from the server, and calls that are not text alone", () => {
    const withIds = { ...call([{ role: "user", content: "x" }], "y"), response_token_ids: [1], token_source: "server" as const };
    expect(tokenizedCall(withIds, encoders.o200k_base!)).toBe(withIds);
    const tools = call([{ role: "user", content: "x" }], "y", { tools: [{ type: "function" }] });
    expect(tokenizedCall(tools, encoders.o200k_base!)).toBe(tools);
    const noText = call([{ role: "user", content: "x" }], null);
    expect(tokenizedCall(noText, encoders.o200k_base!)).toBe(noText);
    const toolMessage = call([{ role: "tool", content: "42" }], "y");
    expect(tokenizedCall(toolMessage, encoders.o200k_base!)).toBe(toolMessage);
  });
});
