import { describe, expect, it } from "vitest";
import { chatReplyPart, chatRequestPart, chatUpstreamBody, ChatStreamReply, withoutAdded } from "./chat";
import { FIRST_REQUEST, PARALLEL_TOOL_CHUNKS, PARALLEL_TOOL_REPLY, SECOND_REQUEST, TEXT_REPLY } from "./fixtures";
import { SseReader } from "./sse";

describe("chat completions as the model saw them (baton-spec-4)", () => {
  it("keeps roles, tool_call_id and tools as sent, assistant tool_calls as {id, name, arguments}, parameters apart", () => {
    const part = chatRequestPart(SECOND_REQUEST);
    expect(part.input.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool"]);
    expect(part.input[2]).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_a", name: "get_weather", arguments: '{"city":"Paris"}' },
        { id: "call_b", name: "get_weather", arguments: '{"city":"Oslo"}' },
      ],
    });
    expect(part.input[3]).toEqual({ role: "tool", tool_call_id: "call_a", content: "18 C" });
    expect(part.tools).toEqual(SECOND_REQUEST.tools);
    expect(part.params).toEqual({ tool_choice: "auto", temperature: 0.2, max_tokens: 64 });
  });

  it("a reply with only tool calls has content null (no text invented), its finish reason and usage", () => {
    expect(chatReplyPart(PARALLEL_TOOL_REPLY)).toEqual({
      model: "scripted",
      output: { role: "assistant", content: null, tool_calls: chatRequestPart(SECOND_REQUEST).input[2]!.tool_calls },
      finish_reason: "tool_calls",
      input_tokens: 31,
      output_tokens: 12,
      response_id: "chatcmpl-1",
    });
    expect(chatReplyPart(TEXT_REPLY).output).toEqual({ role: "assistant", content: "Paris 18 C, Oslo 4 C." });
  });

  it("a stream put together from its chunks equals the same reply sent whole", () => {
    const stream = new ChatStreamReply();
    const sse = new SseReader();
    const bytes = new TextEncoder().encode(PARALLEL_TOOL_CHUNKS.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + "data: [DONE]\n\n");
    // cut anywhere, even inside a character
    for (let at = 0; at < bytes.length; at += 7) for (const data of sse.push(bytes.subarray(at, at + 7))) if (data !== "[DONE]") stream.add(JSON.parse(data) as Record<string, unknown>);
    expect(stream.reply()).toEqual(chatReplyPart(PARALLEL_TOOL_REPLY));
  });

  it("reads vLLM's token ids and logprobs, whole and streamed", () => {
    const reply = { ...TEXT_REPLY, prompt_token_ids: [1, 2, 3], choices: [{ ...TEXT_REPLY.choices[0], token_ids: [7, 8], logprobs: { content: [{ token: "a", logprob: -0.5 }, { token: "b", logprob: -1.25 }] } }] };
    expect(chatReplyPart(reply)).toMatchObject({ prompt_token_ids: [1, 2, 3], response_token_ids: [7, 8], response_logprobs: [-0.5, -1.25] });
    const stream = new ChatStreamReply();
    stream.add({ prompt_token_ids: [1, 2, 3], choices: [{ index: 0, delta: { role: "assistant", content: "Par" }, token_ids: [7], logprobs: { content: [{ token: "a", logprob: -0.5 }] } }] });
    stream.add({ choices: [{ index: 0, delta: { content: "is" }, token_ids: [8], logprobs: { content: [{ token: "b", logprob: -1.25 }] }, finish_reason: "stop" }] });
    expect(stream.reply()).toMatchObject({ output: { role: "assistant", content: "Paris" }, prompt_token_ids: [1, 2, 3], response_token_ids: [7, 8], response_logprobs: [-0.5, -1.25] });
  });

  it("asks upstream for token ids and logprobs only when the client did not, and hands the client the reply without them", () => {
    const { body, added } = chatUpstreamBody(FIRST_REQUEST, { tokenIds: true, logprobs: true });
    expect(body).toMatchObject({ return_token_ids: true, logprobs: true });
    expect(added).toEqual({ tokenIds: true, logprobs: true });
    expect(chatUpstreamBody({ ...FIRST_REQUEST, logprobs: true }, { tokenIds: false, logprobs: true }).added).toEqual({ tokenIds: false, logprobs: false });
    const upstream = { ...TEXT_REPLY, prompt_token_ids: [1], choices: [{ ...TEXT_REPLY.choices[0], token_ids: [2], logprobs: { content: [] } }] };
    expect(withoutAdded(upstream, added)).toEqual({ ...TEXT_REPLY, choices: [{ ...TEXT_REPLY.choices[0], logprobs: null }] });
  });
});
