import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { recordedCall } from "./call";
import { ChatTokenizer, templatedCall } from "./chat-template";

/**
 * A byte-level BPE tokenizer small enough to follow by hand
 * (fixtures/tiny-bpe.*): ids 0-255 are the bytes themselves (the GPT-2
 * byte alphabet, in byte order), 256-263 the merges hi, he, ll, hell,
 * hello, us, use, user, and 264/265 <|im_start|>/<|im_end|>; the config's
 * chat template is ChatML with tools as Qwen2.5 writes them.
 */
const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8")) as Record<string, unknown>;
const tok = new ChatTokenizer({ tokenizer: fixture("tiny-bpe.tokenizer.json"), config: fixture("tiny-bpe.tokenizer_config.json") });
const bytes = (s: string) => [...Buffer.from(s, "utf8")];

const call = (input: Record<string, unknown>[], output: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  recordedCall("a", 0, 1, { input: input as never, ...extra }, { output: { role: "assistant", ...output } as never });

describe("token ids from a project's Hugging Face tokenizer and chat template", () => {
  it("a text call: the ids worked out by hand from the vocabulary and merges", () => {
    const out = templatedCall(call([{ role: "user", content: "hi" }], { content: "hello" }), tok);
    // <|im_start|> user \n hi <|im_end|> \n <|im_start|> a s s i s t a n t \n
    expect(out.prompt_token_ids).toEqual([264, 263, 10, 256, 265, 10, 264, ...bytes("assistant"), 10]);
    // hello <|im_end|>: the reply up to the end-of-turn token; the template's newline after it belongs to the next prompt
    expect(out.response_token_ids).toEqual([260, 265]);
    expect(out.token_source).toBe("tokenizer");
  });

  it("text outside the merges falls back to its UTF-8 bytes", () => {
    const out = templatedCall(call([{ role: "user", content: "é ok" }], { content: "hé" }), tok);
    // é is C3 A9; " ok" is one pre-token (space, o, k) with no merge
    expect(out.prompt_token_ids!.slice(0, 8)).toEqual([264, 263, 10, 0xc3, 0xa9, 32, 111, 107]);
    expect(tok.decode(out.prompt_token_ids!)).toBe("<|im_start|>user\né ok<|im_end|>\n<|im_start|>assistant\n");
    expect(out.response_token_ids).toEqual([104, 0xc3, 0xa9, 265]);
  });

  it("tools offered, a tool call answered and its result: rendered as the template writes them, arguments as JSON objects", () => {
    const tools = [{ type: "function", function: { name: "add", parameters: { type: "object" } } }];
    const first = call([{ role: "user", content: "hi" }], { content: null, tool_calls: [{ id: "c1", name: "add", arguments: '{"x":1}' }] }, { tools });
    const out = templatedCall(first, tok);
    expect(tok.decode(out.prompt_token_ids!)).toBe(
      `<|im_start|>system\nYou are a helpful assistant.\n\n# Tools\n<tools>\n${JSON.stringify(tools[0]).replaceAll('":', '": ').replaceAll(',"', ', "')}\n</tools><|im_end|>\n` +
        "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n",
    );
    expect(tok.decode(out.response_token_ids!)).toBe('<tool_call>\n{"name": "add", "arguments": {"x": 1}}\n</tool_call><|im_end|>');
    const second = call(
      [
        { role: "user", content: "hi" },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", name: "add", arguments: '{"x":1}' }] },
        { role: "tool", tool_call_id: "c1", content: "2" },
      ],
      { content: "hello" },
      { tools },
    );
    const text = tok.decode(templatedCall(second, tok).prompt_token_ids!);
    expect(text.endsWith("<|im_start|>user\n<tool_response>\n2\n</tool_response><|im_end|>\n<|im_start|>assistant\n")).toBe(true);
  });

  it("leaves alone calls with server ids and calls a text template cannot render", () => {
    const withIds = { ...call([{ role: "user", content: "x" }], { content: "y" }), response_token_ids: [1], token_source: "server" as const };
    expect(templatedCall(withIds, tok)).toBe(withIds);
    const image = call([{ role: "user", content: [{ type: "image_url", image_url: { url: "data:," } }] }], { content: "y" });
    expect(templatedCall(image, tok)).toBe(image);
  });

  it("refuses files it cannot use: no chat template, a tokenizer it cannot read", () => {
    expect(() => new ChatTokenizer({ tokenizer: fixture("tiny-bpe.tokenizer.json"), config: {} })).toThrow(/no chat template/);
    expect(() => new ChatTokenizer({ tokenizer: { model: { type: "Nope" } }, config: fixture("tiny-bpe.tokenizer_config.json") })).toThrow();
    expect(() => new ChatTokenizer({ tokenizer: fixture("tiny-bpe.tokenizer.json"), config: {}, chatTemplate: "{% for %}" })).toThrow();
  });
});
