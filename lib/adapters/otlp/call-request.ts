import { textAttr, type Attributes, type OtlpSpan } from "../otlp-span";
import { parseJson, type Json } from "./content";

/**
 * What a model call was offered and how it was asked (baton-spec-4): the
 * tool definitions sent, the sampling parameters sent, and why the reply
 * ended. Read where each instrumentation writes them:
 * - tools: OpenInference `llm.tools.N.tool.json_schema`; GenAI
 *   `gen_ai.tool.definitions` / `gen_ai.request.available_tools`; logfire's
 *   OpenAI integration `request_data.tools`, its OpenAI Agents Responses
 *   spans `response.tools`; pydantic-ai `model_request_parameters`
 *   (`function_tools` and `output_tools`, sent as OpenAI function tools);
 *   the AI SDK's `ai.prompt.tools`;
 * - params: OpenInference `llm.invocation_parameters` (without the messages
 *   and tools it may repeat); GenAI `gen_ai.request.*`; logfire's
 *   `request_data` (OpenAI integration), `model_config` / `model_settings`
 *   (OpenAI Agents; unset settings are null and left out); the AI SDK's
 *   `ai.settings.*`;
 * - finish_reason: GenAI `gen_ai.response.finish_reasons` (the first), the
 *   AI SDK's `ai.response.finishReason`, else the raw response in
 *   `output.value` (OpenAI `choices[0].finish_reason`, LangChain
 *   `generation_info.finish_reason`, AutoGen's CreateResult `finish_reason`).
 */

type Obj = { [key: string]: Json };
const isObj = (v: Json | undefined): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function json(a: Attributes, key: string): Json | undefined {
  const raw = a[key];
  return typeof raw === "string" ? parseJson(raw) : raw;
}

/**
 * Keys that are not sampling parameters sent: the call's messages, tools and
 * model (kept elsewhere), and what instrumentations add of their own
 * (LangChain's `_type` and `model_name`, the Agents SDK's `base_url` and
 * `model_impl` in logfire's `model_config`, the Response's own fields).
 */
const NOT_PARAMS = new Set([
  "messages", "input", "tools", "functions", "model", "instructions", "stream", "stream_options", "_type", "model_name", "base_url", "model_impl",
  // OpenInference's OpenAI Agents instrumentation writes the whole Response (less tools, usage, output) as invocation parameters
  "id", "created_at", "object", "status", "error", "incomplete_details", "output", "output_text", "usage",
]);

function withoutNulls(o: Obj, skip: ReadonlySet<string> = NOT_PARAMS): Obj | undefined {
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) if (v !== null && !skip.has(k) && !(isObj(v) && Object.keys(v).length === 0)) out[k] = v;
  return Object.keys(out).length > 0 ? out : undefined;
}

function flattenedTools(a: Attributes): Obj[] | undefined {
  const byIndex = new Map<number, Obj>();
  for (const [key, value] of Object.entries(a)) {
    const m = /^llm\.tools\.(\d+)\.tool\.json_schema$/.exec(key);
    if (m === null) continue;
    const parsed = typeof value === "string" ? parseJson(value) : (value as Json);
    if (isObj(parsed)) byIndex.set(Number(m[1]), parsed);
  }
  return byIndex.size > 0 ? [...byIndex].sort(([x], [y]) => x - y).map(([, t]) => t) : undefined;
}

/** pydantic-ai's ToolDefinitions, as its OpenAI model sends them. */
function pydanticTools(a: Attributes): Obj[] | undefined {
  const params = json(a, "model_request_parameters");
  if (!isObj(params)) return undefined;
  const defs = [...(Array.isArray(params.function_tools) ? params.function_tools : []), ...(Array.isArray(params.output_tools) ? params.output_tools : [])];
  const tools = defs.filter(isObj).map((d): Obj => ({
    type: "function",
    function: { name: d.name ?? null, ...(typeof d.description === "string" ? { description: d.description } : {}), parameters: d.parameters_json_schema ?? {}, ...(typeof d.strict === "boolean" ? { strict: d.strict } : {}) },
  }));
  return tools.length > 0 ? tools : undefined;
}

function objects(v: Json | undefined): Obj[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const list = v.map((t) => (typeof t === "string" ? parseJson(t) : t)).filter(isObj);
  return list.length > 0 ? list : undefined;
}

export function toolsOf(span: OtlpSpan): Obj[] | undefined {
  const a = span.attributes;
  const request = json(a, "request_data");
  const response = json(a, "response");
  return (
    flattenedTools(a) ??
    objects(json(a, "gen_ai.tool.definitions")) ??
    objects(json(a, "gen_ai.request.available_tools")) ??
    (isObj(request) ? objects(request.tools) : undefined) ??
    (isObj(response) ? objects(response.tools) : undefined) ??
    pydanticTools(a) ??
    objects(json(a, "ai.prompt.tools"))
  );
}

const GENAI_PARAMS: readonly [string, string][] = [
  ["gen_ai.request.temperature", "temperature"],
  ["gen_ai.request.top_p", "top_p"],
  ["gen_ai.request.top_k", "top_k"],
  ["gen_ai.request.max_tokens", "max_tokens"],
  ["gen_ai.request.seed", "seed"],
  ["gen_ai.request.frequency_penalty", "frequency_penalty"],
  ["gen_ai.request.presence_penalty", "presence_penalty"],
  ["gen_ai.request.stop_sequences", "stop"],
  ["gen_ai.request.choice.count", "n"],
  ["ai.settings.temperature", "temperature"],
  ["ai.settings.topP", "top_p"],
  ["ai.settings.topK", "top_k"],
  ["ai.settings.maxOutputTokens", "max_tokens"],
  ["ai.settings.maxTokens", "max_tokens"],
  ["ai.settings.seed", "seed"],
  ["ai.prompt.toolChoice", "tool_choice"],
];

export function paramsOf(span: OtlpSpan): Obj | undefined {
  const a = span.attributes;
  const invocation = json(a, "llm.invocation_parameters");
  if (isObj(invocation)) return withoutNulls(invocation);
  const request = json(a, "request_data");
  // logfire's OpenAI integration keeps the whole request body; its OpenAI Agents spans keep only messages and model there
  const fromRequest = isObj(request) ? withoutNulls(request) : undefined;
  if (fromRequest !== undefined) return fromRequest;
  const settings = json(a, "model_config") ?? json(a, "model_settings");
  if (isObj(settings)) return withoutNulls(settings);
  const out: Obj = {};
  for (const [key, name] of GENAI_PARAMS) {
    if (out[name] !== undefined) continue;
    const value = json(a, key);
    if (value !== undefined && value !== null) out[name] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

export function finishReasonOf(span: OtlpSpan): string | undefined {
  const a = span.attributes;
  const reasons = json(a, "gen_ai.response.finish_reasons");
  const first = Array.isArray(reasons) ? reasons[0] : reasons;
  if (typeof first === "string" && first !== "") return first;
  const sdk = textAttr(a, "ai.response.finishReason");
  if (sdk !== undefined) return sdk;
  const out = json(a, "output.value");
  const value = Array.isArray(out) ? out[0] : out;
  if (!isObj(value)) return undefined;
  if (typeof value.finish_reason === "string") return value.finish_reason;
  const choice = Array.isArray(value.choices) ? value.choices[0] : undefined;
  if (isObj(choice) && typeof choice.finish_reason === "string") return choice.finish_reason;
  const generation = Array.isArray(value.generations) ? value.generations.flat()[0] : undefined;
  const info = isObj(generation) ? generation.generation_info : undefined;
  return isObj(info) && typeof info.finish_reason === "string" ? info.finish_reason : undefined;
}
