/**
 * Small typed fixtures of the gateway's tests: a two-agent run with
 * parallel tool calls, in the chat API's own shapes (what a client sends
 * and a server answers).
 */
export const TOOLS = [
  { type: "function", function: { name: "get_weather", description: "Weather of a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } },
];

export const FIRST_REQUEST = {
  model: "scripted",
  messages: [
    { role: "system", content: "You are the planner." },
    { role: "user", content: "Weather in Paris and Oslo?" },
  ],
  tools: TOOLS,
  tool_choice: "auto",
  temperature: 0.2,
  max_tokens: 64,
  user: "planner",
};

export const PARALLEL_TOOL_REPLY = {
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1764547200,
  model: "scripted",
  choices: [
    {
      index: 0,
      finish_reason: "tool_calls",
      message: {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          { id: "call_b", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
        ],
      },
    },
  ],
  usage: { prompt_tokens: 31, completion_tokens: 12, total_tokens: 43 },
};

export const SECOND_REQUEST = {
  ...FIRST_REQUEST,
  messages: [
    ...FIRST_REQUEST.messages,
    PARALLEL_TOOL_REPLY.choices[0]!.message,
    { role: "tool", tool_call_id: "call_a", content: "18 C" },
    { role: "tool", tool_call_id: "call_b", content: "4 C" },
  ],
};

export const TEXT_REPLY = {
  id: "chatcmpl-2",
  object: "chat.completion",
  model: "scripted",
  choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "Paris 18 C, Oslo 4 C." } }],
  usage: { prompt_tokens: 60, completion_tokens: 9, total_tokens: 69 },
};

/** The parallel tool reply as a stream's chunks (vLLM's shape: content "" first, tool call deltas by index). */
export const PARALLEL_TOOL_CHUNKS = [
  { id: "chatcmpl-1", model: "scripted", choices: [{ index: 0, delta: { role: "assistant", content: "" } }] },
  { id: "chatcmpl-1", model: "scripted", choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "get_weather", arguments: "" } }] } }] },
  { id: "chatcmpl-1", model: "scripted", choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] } }] },
  { id: "chatcmpl-1", model: "scripted", choices: [{ index: 0, delta: { tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } }] } }] },
  { id: "chatcmpl-1", model: "scripted", choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] } }] },
  { id: "chatcmpl-1", model: "scripted", choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
  { id: "chatcmpl-1", model: "scripted", choices: [], usage: { prompt_tokens: 31, completion_tokens: 12, total_tokens: 43 } },
];
