import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { CallMessage } from "../trace/calls";
import { validateTrace } from "../trace/validate";
import { adaptOtlpSpans } from "./otlp";
import { classifySpan } from "./otlp/index";
import { span, spanId } from "./otlp-fixtures";
import { readOtlpJson } from "./otlp-json";
import type { OtlpSpan } from "./otlp-span";

/**
 * The model calls of the six frameworks' captured runs (scripts/frameworks):
 * every LLM span a call, its messages as the framework sent them. The
 * expected calls (otlp-calls.expected.json) hold each call's agent, model,
 * system and user messages, and its answer or tool calls; every system prompt,
 * answer and tool name is also found verbatim in the scenario script that
 * made the run or in the scripted model server, so the expectations are the
 * scripts' own words, not the adapter's.
 */

interface ExpectedCall {
  agent: string;
  model: string;
  system: string[];
  user: string[];
  messages: number;
  answer?: string;
  tool_calls?: string[];
}
/** The scenario scripts' ground truth (scripts/frameworks/truth.json), as frameworks.test.ts reads it. */
const FRAMEWORKS = JSON.parse(readFileSync("scripts/frameworks/truth.json", "utf8")) as { fixture: string; request: string; answer: string }[];

function fixtureSpans(name: string): OtlpSpan[] {
  const read = readOtlpJson(JSON.parse(readFileSync(`lib/adapters/otlp/fixtures/${name}.json`, "utf8")));
  if (!read.ok) throw new Error(read.problems.join("; "));
  return read.spans;
}

const EXPECTED = JSON.parse(readFileSync("lib/adapters/otlp-calls.expected.json", "utf8")) as Record<string, ExpectedCall[]>;
const CAPTURED = FRAMEWORKS.filter((f) => EXPECTED[f.fixture] !== undefined);

describe.each(CAPTURED.map((truth) => ({ truth, name: truth.fixture })))("model calls of $name", ({ truth, name }) => {
  const spans = fixtureSpans(name);
  const trace = adaptOtlpSpans(spans);
  const calls = trace.calls ?? [];
  const script = readFileSync(`scripts/frameworks/${name}/capture.mjs`, "utf8") + readFileSync("scripts/frameworks/shared/servers.mjs", "utf8");

  it("has one call per LLM span, each with the events it produced in its agent's lane", () => {
    expect(calls.map((c) => c.id).sort()).toEqual(spans.filter((s) => classifySpan(s)?.role === "llm").map((s) => s.spanId).sort());
    for (const call of calls) {
      expect(call.events.length).toBeGreaterThan(0);
      for (const id of call.events) {
        const event = trace.events.find((e) => e.id === id)!;
        expect(event.span_id).toBe(call.id);
        expect(event.agent).toBe(call.agent);
      }
    }
  });

  it("keeps what each call was sent and answered", () => {
    const seen = calls.map((c): Record<string, unknown> => {
      const output: Record<string, unknown> = typeof c.output === "string" ? { content: c.output } : c.output;
      const toolCalls = (output.tool_calls as { name: string; arguments: string }[] | undefined) ?? [];
      return {
        agent: c.agent,
        model: c.model,
        system: c.input.filter((m) => m.role === "system").map((m) => m.content),
        user: c.input.filter((m) => m.role === "user").map((m) => m.content),
        messages: c.input.length,
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls.map((x) => `${x.name} ${x.arguments}`) } : { answer: output.content }),
      };
    });
    expect(seen).toEqual(EXPECTED[name]);
    expect(seen[0]!.user).toEqual([truth.request]);
    expect(seen.at(-1)!.answer).toBe(truth.answer);
  });

  it("the expected words are the scenario script's own", () => {
    for (const call of EXPECTED[name]!) {
      for (const text of [...call.system, ...(call.answer !== undefined ? [call.answer] : [])]) expect(script, text).toContain(text);
      for (const tool of call.tool_calls ?? []) expect(script).toContain(tool.split(" ")[0]!);
    }
  });

  it("reports the mock model's usage (20 in, 10 out) and is a valid trace", () => {
    for (const call of calls) expect([call.input_tokens, call.output_tokens]).toEqual([20, 10]);
    const result = validateTrace(trace);
    expect(result.ok && result.trace.calls?.length).toBe(calls.length);
  });
});

describe("token ids and older attributes", () => {
  it("reads token ids (arrays or JSON text), OpenLLMetry's gen_ai.prompt.N / gen_ai.completion.N and the response id", () => {
    const spans = [
      span({ id: "agent", name: "invoke_agent solver", start: 0, end: 2, attrs: { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "solver" } }),
      span({
        id: "llm",
        parent: "agent",
        name: "chat m",
        start: 0.5,
        end: 1,
        attrs: {
          "gen_ai.operation.name": "chat",
          "gen_ai.request.model": "m",
          "gen_ai.prompt.0.role": "system",
          "gen_ai.prompt.0.content": "Be brief.",
          "gen_ai.prompt.1.role": "user",
          "gen_ai.prompt.1.content": "2+2?",
          "gen_ai.completion.0.role": "assistant",
          "gen_ai.completion.0.content": "4",
          "gen_ai.response.id": "r-1",
          prompt_token_ids: [101, 7, 8],
          response_token_ids: "[19, 2]",
        },
      }),
    ];
    const calls = adaptOtlpSpans(spans).calls!;
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      id: spanId("llm"),
      agent: "solver",
      model: "m",
      t: 0.5,
      t_end: 1,
      input: [{ role: "system", content: "Be brief." }, { role: "user", content: "2+2?" }],
      output: { role: "assistant", content: "4" },
      prompt_token_ids: [101, 7, 8],
      response_token_ids: [19, 2],
      response_id: "r-1",
    });
  });

  it("ignores token ids that are not non-negative integers", () => {
    const llm = span({ id: "llm", name: "chat m", start: 0, end: 1, attrs: { "gen_ai.operation.name": "chat", "gen_ai.output.messages": '[{"role":"assistant","parts":[{"type":"text","content":"hi"}]}]', prompt_token_ids: "[1, -2]" } });
    const [call] = adaptOtlpSpans([llm]).calls!;
    expect(call).not.toHaveProperty("prompt_token_ids");
    expect(call!.output).toEqual({ role: "assistant", content: "hi" });
  });
});

describe("baton-spec-4 messages in the captured runs", () => {
  it.each(["ai-sdk-6", "ai-sdk-7", "langgraph", "openai-agents"])("%s: every tool result is a tool message answering an earlier tool call by its id; no call is written as text", (name) => {
    const calls = adaptOtlpSpans(fixtureSpans(name)).calls ?? [];
    const results = calls.flatMap((c) => c.input.filter((m) => m.role === "tool").map((m) => ({ m, asked: c.input.flatMap((x) => x.tool_calls ?? []).map((t) => t.id) })));
    expect(results.length).toBeGreaterThan(0);
    for (const { m, asked } of results) {
      expect(asked).toContain(m.tool_call_id);
      expect(typeof m.content === "string" ? m.content : JSON.stringify(m.content)).not.toMatch(/^\{"type":"(json|text)"/);
    }
    for (const c of calls) {
      const out = c.output as CallMessage;
      if ((out.tool_calls ?? []).length > 0 && out.content !== null) expect(out.content).not.toContain(`${out.tool_calls![0]!.name}(`);
      expect(c.source).toBe("otlp");
    }
  });
});

describe("tools, parameters and finish reason", () => {
  it("OpenInference's OpenAI Agents Responses span: the tools offered, the parameters sent (not the Response's own fields)", () => {
    const tool = { type: "function", function: { name: "lookup", description: "Look it up.", parameters: { type: "object", properties: {} }, strict: true } };
    const llm = span({
      id: "llm", name: "response", start: 0, end: 1,
      attrs: {
        "openinference.span.kind": "LLM", "llm.model_name": "gpt-4o",
        "llm.tools.0.tool.json_schema": JSON.stringify(tool),
        "llm.invocation_parameters": JSON.stringify({ id: "resp_1", created_at: 1730000000, model: "gpt-4o", instructions: "Be brief.", parallel_tool_calls: true, temperature: 0.5, tool_choice: "auto", top_p: 1, truncation: "disabled", text: { format: { type: "text" } } }),
        "llm.output_messages.0.message.role": "assistant", "llm.output_messages.0.message.content": "Done.",
      },
    });
    const [call] = adaptOtlpSpans([llm]).calls!;
    expect(call).toMatchObject({ tools: [tool], params: { parallel_tool_calls: true, temperature: 0.5, tool_choice: "auto", top_p: 1, truncation: "disabled", text: { format: { type: "text" } } }, output: { role: "assistant", content: "Done." }, source: "otlp" });
    expect(Object.keys(call!.params!)).not.toContain("id");
  });

  it("GenAI: gen_ai.request.* as the chat API's parameter names, gen_ai.tool.definitions, the first finish reason", () => {
    const llm = span({ id: "llm", name: "chat m", start: 0, end: 1, attrs: { "gen_ai.operation.name": "chat", "gen_ai.request.temperature": 0.1, "gen_ai.request.max_tokens": 64, "gen_ai.request.stop_sequences": ["\n\n"], "gen_ai.tool.definitions": JSON.stringify([{ type: "function", name: "f" }]), "gen_ai.response.finish_reasons": ["length"], "gen_ai.output.messages": '[{"role":"assistant","parts":[{"type":"text","content":"hi"}]}]' } });
    expect(adaptOtlpSpans([llm]).calls![0]).toMatchObject({ params: { temperature: 0.1, max_tokens: 64, stop: ["\n\n"] }, tools: [{ type: "function", name: "f" }], finish_reason: "length" });
  });
});
