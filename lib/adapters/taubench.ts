import { z } from "zod";
import type { CallMessage, ModelCall } from "../trace/calls";
import type { EdgeType, EventType } from "../trace/types";
import { AdaptedTraceBuilder, replaceNul, slug, type EventRef, type Parent, type UntimedFields } from "./emit";
import { provenanceOf, stem } from "./provenance";
import { AdapterInputError, type AdaptedTrace } from "./types";
import { zodDetails } from "./zod-details";

/**
 * tau-bench historical trajectories: an airline agent (OpenAI chat format,
 * with tools) serving a simulated user. One trace per run:
 * - user / assistant text turns -> message (user <-> assistant);
 * - each assistant tool call -> tool_call, and the `role: "tool"` reply with
 *   the same tool_call_id -> tool_result, joined by a `return` edge;
 * - a tool reply beginning `Error:` (the environment refused the call)
 *   -> tool_result with status error;
 * - the reply to transfer_to_human_agents -> human_intervention (a human
 *   agent takes over there);
 * - the agent's last text turn is the run's answer (`final_answer: true`):
 *   the run ends on the user simulator's `###STOP###`, which answers nothing;
 * - the system prompt (the airline policy, the same in every run) is not an
 *   event; it is kept in metadata.system_prompt (graders read it as the
 *   run's policy) and its length in metadata.system_prompt_chars.
 * Model calls (SPEC.md section 6): `traj` is the very list tau-bench's
 * ToolCallingAgent sends to the model (tau_bench/agents/tool_calling_agent.py:
 * `completion(messages=messages, tools=self.tools_info, ...)`, then the reply
 * and the observation are appended), so each assistant turn is one call whose
 * input is every message before it, as sent (tool_calls as
 * `[{id, name, arguments}]`, tool messages with `tool_call_id` and `name`),
 * and whose output is the turn itself (content null when it only called a
 * tool). The file holds no tool definitions (`tools_info` lives in
 * tau-bench's code), no sampling parameters, model name per call, finish
 * reason or token counts: those fields are left out, never filled in.
 * reward (0/1) is the task success: `metrics.task_success` = reward (E1),
 * `rewards.task_success` = 2 x reward - 1 as for a 0/1 label (SPEC.md
 * section 2). The trials of one task share a group_id, a GRPO group.
 */

const toolCallSchema = z.looseObject({
  id: z.string(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

const messageSchema = z.looseObject({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.string().nullable().optional(),
  tool_calls: z.array(toolCallSchema).nullable().optional(),
  tool_call_id: z.string().optional(),
  name: z.string().optional(),
});

export const tauRunSchema = z.looseObject({
  task_id: z.union([z.number(), z.string()]),
  reward: z.number().min(0).max(1),
  info: z.record(z.string(), z.unknown()),
  traj: z.array(messageSchema).min(1),
  trial: z.number().optional(),
});

type Message = z.infer<typeof messageSchema>;

const AGENT = "assistant";
const USER = "user";
const HANDOFF_TOOL = "transfer_to_human_agents";
/** tau-bench's tools answer a refused call with "Error: ..." (flight not available, payment not found, ...) */
const ERROR_REPLY = /^\s*Error:/;

export function adaptTauRun(raw: unknown, path: string, index: number): AdaptedTrace {
  const parsed = tauRunSchema.safeParse(raw);
  if (!parsed.success) throw new AdapterInputError("taubench", path, zodDetails(parsed.error, `$[${index}]`));
  const run = parsed.data;
  const b = new AdaptedTraceBuilder();
  const calls = new Map<string, EventRef>();
  let previous: { ref: EventRef; type: EventType } | null = null;
  let step = 0;
  let systemPrompt = 0;
  const systemTexts: string[] = [];
  let lastAnswer: EventRef | null = null;
  /** the conversation as the model is sent it, message by message */
  const conversation: CallMessage[] = [];
  const nulInCalls = { count: 0 };
  const turns: { step: number; input: CallMessage[]; output: CallMessage; events: EventRef[] }[] = [];

  const add = (fields: UntimedFields, parents: Parent[]) => {
    const ref = b.add({ ...fields, t: step, step }, ...parents);
    previous = { ref, type: fields.type };
    return ref;
  };
  const afterPrevious = (type: EventType): Parent[] => (previous ? [[previous.ref, edgeAfter(previous.type, type)]] : []);

  for (const m of run.traj) {
    const sent = replaceNul(chatMessage(m), nulInCalls);
    if (m.role === "system") {
      systemPrompt += m.content?.length ?? 0;
      if (m.content) systemTexts.push(m.content);
      conversation.push(sent);
      continue;
    }
    const produced: EventRef[] = [];
    if (m.role === "tool") addToolReply(m);
    else if (m.role === "assistant" && m.tool_calls && m.tool_calls.length > 0) {
      const parents = afterPrevious("tool_call");
      for (const call of m.tool_calls) {
        const ref = add({ type: "tool_call", agent: AGENT, role: "airline_agent", tool: call.function.name, content: call.function.arguments, tool_call_id: call.id, ...(m.content ? { assistant_text: m.content } : {}) }, parents);
        calls.set(call.id, ref);
        produced.push(ref);
      }
    } else {
      const speaker = m.role === "user" ? USER : AGENT;
      const ref = add({ type: "message", agent: speaker, role: m.role === "user" ? "customer" : "airline_agent", from: speaker, to: speaker === USER ? AGENT : USER, content: m.content ?? "" }, afterPrevious("message"));
      if (speaker === AGENT && (m.content ?? "").trim() !== "") lastAnswer = ref;
      if (speaker === AGENT) produced.push(ref);
    }
    // the prompt is everything sent before this turn; the list only grows, so the calls share its messages
    if (m.role === "assistant") turns.push({ step, input: conversation.slice(), output: sent, events: produced });
    conversation.push(sent);
    step++;
  }

  function addToolReply(m: Message) {
    const call = m.tool_call_id !== undefined ? calls.get(m.tool_call_id) : undefined;
    const parents: Parent[] = call !== undefined ? [[call, "return"]] : afterPrevious("tool_result");
    const fields = { tool: m.name, content: m.content ?? "", ...(m.tool_call_id !== undefined ? { tool_call_id: m.tool_call_id } : {}) };
    if (m.name === HANDOFF_TOOL) add({ type: "human_intervention", agent: "human_agent", role: "human", ...fields }, parents);
    else add({ type: "tool_result", agent: AGENT, role: "airline_agent", ...fields, ...(ERROR_REPLY.test(fields.content) ? { status: "error" } : {}) }, parents);
  }

  if (step === 0) throw new AdapterInputError("taubench", path, [`$[${index}].traj: only a system prompt, no turns`]);
  if (lastAnswer !== null) b.annotate(lastAnswer, { final_answer: true });
  const domain = stem(path);
  const { task, ...info } = run.info;
  const trace = b.build(
    {
      trace_id: `taubench-${slug(domain)}-task${run.task_id}-trial${run.trial ?? index}`,
      task_id: `taubench-${slug(domain)}-task${run.task_id}`,
      group_id: `taubench-${slug(domain)}-task${run.task_id}`,
      system: `tau-bench tool-calling agent (${domain})`,
      topology: "harness",
      rewards: { task_success: 2 * run.reward - 1 },
      metrics: { task_success: run.reward },
      metadata: {
        source: provenanceOf(path, "taubench", "tau-bench"),
        record: index,
        topology_detail: "single_agent_with_user_simulator",
        labels: { task_id: run.task_id, trial: run.trial, reward: run.reward, task, ...info },
        system_prompt_chars: systemPrompt,
        // the policy the agent worked under: graders read it (lib/annotate/task-definition.ts)
        ...(systemTexts.length > 0 ? { system_prompt: systemTexts.join("\n\n") } : {}),
      },
    },
    { clock: "step_index" },
  );
  const modelCalls: ModelCall[] = turns.map((turn, i) => ({
    id: `call${i + 1}`,
    agent: AGENT,
    t: turn.step,
    input: turn.input,
    output: turn.output,
    source: "import",
    events: turn.events.map((ref) => b.idOf(ref)),
  }));
  if (modelCalls.length === 0) return trace;
  // U+0000 in a message (PostgreSQL cannot store it) is replaced once per message, as in events; the events count it already
  return { ...trace, calls: modelCalls };
}

/**
 * A traj message as the chat API carries it (SPEC.md section 6): roles as
 * they are, an assistant's tool calls as `{id, name, arguments}` (arguments
 * the JSON text sent), a tool reply's `tool_call_id` and `name`.
 */
function chatMessage(m: Message): CallMessage {
  if (m.role === "assistant") {
    const toolCalls = m.tool_calls && m.tool_calls.length > 0 ? m.tool_calls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })) : undefined;
    return { role: "assistant", content: m.content ?? null, ...(toolCalls ? { tool_calls: toolCalls } : {}) };
  }
  if (m.role === "tool") return { role: "tool", ...(m.tool_call_id !== undefined ? { tool_call_id: m.tool_call_id } : {}), ...(m.name !== undefined ? { name: m.name } : {}), content: m.content ?? null };
  return { role: m.role, content: m.content ?? null };
}

/**
 * Each turn reacts to the one before it: what the user said, or a tool's
 * output (`tool_dependency` when it feeds the next call).
 */
function edgeAfter(previous: EventType, next: EventType): EdgeType {
  if (previous === "tool_result" || previous === "human_intervention") return next === "tool_call" ? "tool_dependency" : "causal";
  if (previous === "message") return "message";
  return "causal";
}
