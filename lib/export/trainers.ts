import type { PreparedTrace } from "../credit";
import { rTotal } from "../rewards";
import type { CallMessage, ModelCall } from "../trace/calls";
import type { ExportOptions } from "./rows";
import type { NestedType, ParquetColumn } from "./parquet";
import { transitionRows, type TransitionRow } from "./transitions";
import { pushTo } from "../util/group";

/**
 * Snapshot forms that RL trainers read unchanged with their own loaders
 * (docs/train-with-baton.md "Trainer forms"). Each is built from the
 * transitions of a trace (transitionRows: the per-call reward, credit and
 * advantage) and its model calls, in the shape the trainer's own source reads;
 * lib/export/fixtures/trainer-schemas/<form>.json names the file and commit
 * each shape was read from. Pure: no I/O.
 */

export const TRAINER_FORMS = ["verl", "verl_agent", "rllm", "skyrl", "agent_lightning"] as const;
export type TrainerForm = (typeof TRAINER_FORMS)[number];

export function isTrainerForm(form: string): form is TrainerForm {
  return (TRAINER_FORMS as readonly string[]).includes(form);
}

/** Forms with one row per trace (an rLLM Episode, an Agent Lightning rollout); the others have one row per model call. */
export const PER_TRACE_FORMS: readonly TrainerForm[] = ["rllm", "agent_lightning"];

// ---------------------------------------------------------------- messages

/** A tool call as the chat API (and Hugging Face chat templates) carry it: arguments as JSON text. */
export interface ChatToolCall {
  id: string | null;
  type: "function";
  function: { name: string; arguments: string };
}

/** A chat message in the roles chat templates accept: system, user, assistant (with tool_calls), tool (with tool_call_id). */
export interface ChatMessage {
  role: string;
  content: string | null;
  tool_calls: ChatToolCall[] | null;
  tool_call_id: string | null;
}

/**
 * A call message in the chat API's roles. `developer` becomes `system`
 * (chat templates such as Qwen's and Llama's know no `developer` role) and
 * the legacy `function` role `tool`; other roles stay as sent. Content in
 * parts becomes the text of its text parts, joined (other parts, such as
 * images, are dropped: the trainer's processor cannot take Baton's part
 * shapes); arguments sent as an object become its JSON text.
 */
export function chatMessage(m: CallMessage | string): ChatMessage {
  if (typeof m === "string") return { role: "assistant", content: m, tool_calls: null, tool_call_id: null };
  const role = m.role === "developer" ? "system" : m.role === "function" ? "tool" : m.role;
  return {
    role,
    content: contentText(m.content),
    tool_calls: m.tool_calls && m.tool_calls.length > 0
      ? m.tool_calls.map((c) => ({ id: c.id ?? null, type: "function", function: { name: c.name, arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments) } }))
      : null,
    tool_call_id: m.tool_call_id ?? null,
  };
}

/** Text of a message's content: itself, its text parts joined, or null. */
export function contentText(content: CallMessage["content"]): string | null {
  if (content === null || typeof content === "string") return content;
  const texts = content.filter((p) => p.type === "text" && typeof p.text === "string").map((p) => p.text as string);
  return texts.length > 0 ? texts.join("") : null;
}

const TOOL_CALL: NestedType = { struct: [["id", "string"], ["type", "string"], ["function", { struct: [["name", "string"], ["arguments", "string"]] }]] };
export const MESSAGE: NestedType = { struct: [["role", "string"], ["content", "string"], ["tool_calls", { list: TOOL_CALL }], ["tool_call_id", "string"]] };
const MESSAGES: NestedType = { list: MESSAGE };
const INTS: NestedType = { list: "int32" };
const DOUBLES: NestedType = { list: "double" };
const STRINGS: NestedType = { list: "string" };

const s = (name: string): ParquetColumn => ({ name, kind: "string" });
const d = (name: string): ParquetColumn => ({ name, kind: "double" });
const i32 = (name: string): ParquetColumn => ({ name, kind: "int32" });
const b = (name: string): ParquetColumn => ({ name, kind: "bool" });
const n = (name: string, type: NestedType): ParquetColumn => ({ name, kind: "nested", type });

// ---------------------------------------------------------------- shared

/** Baton's provenance of a call's row: which trace and call, and the three per-call values (transitions' reward, credit, advantage). */
const BATON_FIELDS: readonly (readonly [string, NestedType])[] = [
  ["trace_id", "string"], ["task_id", "string"], ["group_id", "string"], ["call_id", "string"], ["agent", "string"], ["role", "string"], ["model", "string"],
  ["reward", "double"], ["credit", "double"], ["advantage", "double"], ["anchor_obs", "string"], ["hacking_flags", STRINGS],
  ["method", "string"], ["preset", "string"], ["version", "string"], ["annotations_as_of", "string"],
];

function batonFields(t: TransitionRow) {
  return {
    trace_id: t.traj_uid, task_id: t.uid, group_id: t.group_id, call_id: t.call_id, agent: t.agent, role: t.role, model: t.model,
    reward: t.reward, credit: t.credit, advantage: t.advantage, anchor_obs: t.anchor_obs, hacking_flags: t.hacking_flags,
    method: t.method, preset: t.preset, version: t.version, annotations_as_of: t.annotations_as_of,
  };
}

/** Each call with its transition (same order: transitionRows walks `calls`). */
function pairs(p: PreparedTrace, calls: readonly ModelCall[], opts: Omit<ExportOptions, "content">): { call: ModelCall; t: TransitionRow }[] {
  return [...transitionRows(p, calls, opts)].map((t) => ({ call: calls[t.step]!, t }));
}

/** Text of a call's reply (null when it sent none). */
function replyText(call: ModelCall): string | null {
  return typeof call.output === "string" ? call.output : contentText(call.output.content);
}

// ---------------------------------------------------------------- verl

/**
 * verl's RLHF dataset (verl/utils/dataset/rl_dataset.py, examples/data_preprocess/gsm8k.py):
 * one prompt per row. A row per call: the prompt the model saw; the recorded
 * reply and Baton's values in `extra_info`, which verl hands to the reward
 * function (compute_score(data_source, solution_str, ground_truth, extra_info)).
 */
export const VERL_COLUMNS: readonly ParquetColumn[] = [
  s("data_source"), n("prompt", MESSAGES), s("ability"),
  n("reward_model", { struct: [["style", "string"], ["ground_truth", "string"]] }),
  n("extra_info", { struct: [["split", "string"], ["index", "int32"], ...BATON_FIELDS, ["response", MESSAGE], ["tools", "json"], ["need_tools_kwargs", "bool"]] }),
];

export function* verlRows(p: PreparedTrace, calls: readonly ModelCall[], opts: Omit<ExportOptions, "content">): Generator<Record<string, unknown>> {
  // a row at a time, as the transitions come (the per-trace forms and verl_agent need the whole trace first)
  for (const t of transitionRows(p, calls, opts)) {
    const call = calls[t.step]!;
    yield {
      data_source: "baton",
      prompt: call.input.map(chatMessage),
      ability: "agent",
      reward_model: { style: "baton", ground_truth: replyText(call) },
      extra_info: { split: "train", index: t.step, ...batonFields(t), response: chatMessage(call.output), tools: call.tools ?? null, need_tools_kwargs: false },
    };
  }
}

// ---------------------------------------------------------------- verl-agent

/**
 * verl-agent's per-step batch (agent_system/multi_turn_rollout/rollout_loop.py,
 * gigpo/core_gigpo.py): `uid` (the group), `traj_uid`, `anchor_obs`,
 * `active_masks`, `is_action_valid`, `rewards` (the step's reward),
 * `episode_rewards`, `episode_lengths`, `data_source`, and the advantage Baton
 * computed (`advantages`, one value per step to broadcast over the response mask).
 */
export const VERL_AGENT_COLUMNS: readonly ParquetColumn[] = [
  s("uid"), s("traj_uid"), i32("step"), s("anchor_obs"), b("active_masks"), b("is_action_valid"), d("rewards"), d("episode_rewards"), i32("episode_lengths"), s("data_source"),
  d("advantages"), d("credit"), n("raw_prompt", MESSAGES), n("response", MESSAGE), n("prompt_token_ids", INTS), n("response_token_ids", INTS),
  n("response_logprobs", DOUBLES), s("call_id"), s("agent"), n("hacking_flags", STRINGS), s("method"), s("preset"), s("version"), s("annotations_as_of"),
];

export function* verlAgentRows(p: PreparedTrace, calls: readonly ModelCall[], opts: Omit<ExportOptions, "content">): Generator<Record<string, unknown>> {
  const all = pairs(p, calls, opts);
  const episode = all.reduce((sum, { t }) => sum + t.reward, 0);
  for (const { call, t } of all) {
    yield {
      uid: t.uid, traj_uid: t.traj_uid, step: t.step,
      // GiGPO groups steps by exact equality of anchor_obs; a call that produced no event has none, so its own key
      anchor_obs: t.anchor_obs ?? JSON.stringify(["call", t.call_id]),
      active_masks: true, is_action_valid: true, rewards: t.reward, episode_rewards: episode, episode_lengths: all.length, data_source: "baton",
      advantages: t.advantage, credit: t.credit,
      raw_prompt: call.input.map(chatMessage), response: chatMessage(call.output),
      prompt_token_ids: call.prompt_token_ids ?? null, response_token_ids: call.response_token_ids ?? null, response_logprobs: call.response_logprobs ?? null,
      call_id: t.call_id, agent: t.agent, hacking_flags: t.hacking_flags, method: t.method, preset: t.preset, version: t.version, annotations_as_of: t.annotations_as_of,
    };
  }
}

// ---------------------------------------------------------------- rLLM

const RLLM_STEP: NestedType = {
  struct: [
    ["prompt_ids", INTS], ["response_ids", INTS], ["logprobs", DOUBLES], ["chat_completions", MESSAGES], ["observation", "string"], ["thought", "string"],
    ["action", "string"], ["model_response", "string"], ["model_output", "string"],
    ["info", { struct: [["call_id", "string"], ["model", "string"], ["event_ids", STRINGS], ["credit", "double"], ["token_source", "string"], ["finish_reason", "string"]] }],
    ["reward", "double"], ["done", "bool"], ["mc_return", "double"], ["advantage", "double"],
  ],
};

/**
 * rLLM's Episode (rllm/types.py: Episode.from_dict -> Trajectory.from_dict ->
 * Step.from_dict): one row per trace; a trajectory per agent (its name),
 * a step per call of that agent.
 */
export const RLLM_COLUMNS: readonly ParquetColumn[] = [
  s("id"), n("task", { struct: [["task_id", "string"], ["trace_id", "string"], ["system", "string"]] }), s("termination_reason"), b("is_correct"),
  n("trajectories", { list: { struct: [["uid", "string"], ["name", "string"], ["task", "string"], ["steps", { list: RLLM_STEP }], ["reward", "double"], ["info", { struct: [["agent", "string"], ["role", "string"]] }]] } }),
  n("metrics", { struct: [["r_total", "double"]] }),
  n("info", { struct: [["trace_id", "string"], ["task_id", "string"], ["group_id", "string"], ["hacking_flags", STRINGS], ["method", "string"], ["preset", "string"], ["version", "string"], ["annotations_as_of", "string"]] }),
];

/** R_total of the trace under the export's preset (section 2). */
function traceReward(p: PreparedTrace, opts: Omit<ExportOptions, "content">): number {
  return rTotal(p.rewards(opts.preset.token_budget).families, opts.preset.weights);
}

/** The text of the last message of a prompt when the environment (a user or a tool) wrote it. */
function observation(call: ModelCall): string | null {
  const last = call.input.at(-1);
  return last && (last.role === "user" || last.role === "tool") ? contentText(last.content) : null;
}

export function* rllmRows(p: PreparedTrace, calls: readonly ModelCall[], opts: Omit<ExportOptions, "content">): Generator<Record<string, unknown>> {
  const all = pairs(p, calls, opts);
  if (all.length === 0) return;
  const { trace } = p.analysis;
  const byAgent = new Map<string, typeof all>();
  for (const x of all) pushTo(byAgent, x.t.agent, x);
  const trajectories = [...byAgent.entries()].map(([agent, steps]) => {
    // mc_return: the undiscounted sum of this agent's step rewards from the step on
    const returns = steps.map(({ t }) => t.reward);
    for (let k = returns.length - 2; k >= 0; k--) returns[k]! += returns[k + 1]!;
    return {
      uid: `${trace.trace_id}:${agent}`,
      name: agent,
      task: trace.task_id,
      steps: steps.map(({ call, t }, k) => ({
        prompt_ids: call.prompt_token_ids ?? [],
        response_ids: call.response_token_ids ?? [],
        logprobs: call.response_logprobs ?? [],
        chat_completions: [...call.input.map(chatMessage), chatMessage(call.output)],
        observation: observation(call),
        thought: "",
        action: null,
        model_response: replyText(call) ?? "",
        model_output: null,
        info: { call_id: t.call_id, model: t.model, event_ids: [...call.events], credit: t.credit, token_source: call.token_source ?? null, finish_reason: call.finish_reason ?? null },
        reward: t.reward,
        done: k === steps.length - 1,
        mc_return: returns[k]!,
        advantage: t.advantage,
      })),
      reward: steps.reduce((sum, { t }) => sum + t.reward, 0),
      info: { agent, role: steps[0]!.t.role },
    };
  });
  const t0 = all[0]!.t;
  yield {
    id: `${trace.task_id}:${trace.trace_id}`,
    task: { task_id: trace.task_id, trace_id: trace.trace_id, system: trace.system ?? null },
    termination_reason: "unknown",
    is_correct: p.metrics.e1 === 1,
    trajectories,
    metrics: { r_total: traceReward(p, opts) },
    info: { trace_id: trace.trace_id, task_id: trace.task_id, group_id: t0.group_id, hacking_flags: t0.hacking_flags, method: t0.method, preset: t0.preset, version: t0.version, annotations_as_of: t0.annotations_as_of },
  };
}

// ---------------------------------------------------------------- SkyRL

/**
 * SkyRL's generator output, one row per call (skyrl/train/generators/base.py
 * GeneratorOutput: each key a list with one item per row), with the prompt
 * under the key its PromptDataset reads (skyrl/train/dataset/dataset.py `prompt`).
 */
export const SKYRL_COLUMNS: readonly ParquetColumn[] = [
  n("prompt", MESSAGES), s("env_class"), n("prompt_token_ids", INTS), n("response_ids", INTS), d("rewards"), n("loss_masks", INTS),
  n("rollout_logprobs", DOUBLES), s("stop_reasons"), b("is_last_step"), s("instance_id"), s("trajectory_id"), n("response", MESSAGE),
  n("baton", { struct: BATON_FIELDS }),
];

export function* skyrlRows(p: PreparedTrace, calls: readonly ModelCall[], opts: Omit<ExportOptions, "content">): Generator<Record<string, unknown>> {
  for (const t of transitionRows(p, calls, opts)) {
    const call = calls[t.step]!;
    const response = call.response_token_ids ?? null;
    yield {
      prompt: call.input.map(chatMessage),
      env_class: null,
      prompt_token_ids: call.prompt_token_ids ?? null,
      response_ids: response,
      rewards: t.advantage,
      loss_masks: response === null ? null : response.map(() => 1),
      rollout_logprobs: call.response_logprobs ?? null,
      stop_reasons: call.finish_reason ?? null,
      is_last_step: t.step === calls.length - 1,
      instance_id: t.uid,
      trajectory_id: t.traj_uid,
      response: chatMessage(call.output),
      baton: batonFields(t),
    };
  }
}

// ---------------------------------------------------------------- Agent Lightning

/**
 * Agent Lightning 1.x's completed rollout (agentlightning/verl/agl_rollout_manager.py
 * CompletedRollout, Triplet; read by agentlightning/verl/rollout_adapter.py
 * get_train_data_batch): one row per trace; a triplet per call that has
 * response token ids (as Agent Lightning's own manager keeps only those).
 */
export const AGENT_LIGHTNING_COLUMNS: readonly ParquetColumn[] = [
  s("rollout_id"), s("data_id"), d("final_reward"),
  n("triplets", {
    list: {
      struct: [
        ["prompt", { struct: [["token_ids", INTS]] }], ["response", { struct: [["token_ids", INTS], ["log_probs", DOUBLES]] }], ["reward", "double"],
        ["metadata", { struct: [["call_id", "string"], ["agent", "string"], ["model", "string"], ["reward", "double"], ["credit", "double"], ["advantage", "double"], ["token_source", "string"]] }],
      ],
    },
  }),
  i32("calls_without_token_ids"),
  n("metadata", { struct: [["trace_id", "string"], ["task_id", "string"], ["group_id", "string"], ["hacking_flags", STRINGS], ["method", "string"], ["preset", "string"], ["version", "string"], ["annotations_as_of", "string"]] }),
];

export function* agentLightningRows(p: PreparedTrace, calls: readonly ModelCall[], opts: Omit<ExportOptions, "content">): Generator<Record<string, unknown>> {
  const all = pairs(p, calls, opts);
  if (all.length === 0) return;
  const { trace } = p.analysis;
  const kept = all.filter(({ call }) => call.response_token_ids !== undefined && call.response_token_ids.length > 0);
  const t0 = all[0]!.t;
  yield {
    rollout_id: trace.trace_id,
    data_id: trace.task_id,
    final_reward: traceReward(p, opts),
    triplets: kept.map(({ call, t }) => ({
      prompt: { token_ids: call.prompt_token_ids ?? [] },
      response: { token_ids: call.response_token_ids!, log_probs: call.response_logprobs ?? null },
      reward: t.advantage,
      metadata: { call_id: t.call_id, agent: t.agent, model: t.model, reward: t.reward, credit: t.credit, advantage: t.advantage, token_source: call.token_source ?? null },
    })),
    calls_without_token_ids: all.length - kept.length,
    metadata: { trace_id: trace.trace_id, task_id: trace.task_id, group_id: t0.group_id, hacking_flags: t0.hacking_flags, method: t0.method, preset: t0.preset, version: t0.version, annotations_as_of: t0.annotations_as_of },
  };
}

// ---------------------------------------------------------------- dispatch

export const TRAINER_COLUMNS: Record<TrainerForm, readonly ParquetColumn[]> = {
  verl: VERL_COLUMNS, verl_agent: VERL_AGENT_COLUMNS, rllm: RLLM_COLUMNS, skyrl: SKYRL_COLUMNS, agent_lightning: AGENT_LIGHTNING_COLUMNS,
};

/** The rows of one trace in a trainer's form (none when the trace has no model calls). */
export function trainerRows(form: TrainerForm, p: PreparedTrace, calls: readonly ModelCall[], opts: Omit<ExportOptions, "content">): Generator<Record<string, unknown>> {
  switch (form) {
    case "verl": return verlRows(p, calls, opts);
    case "verl_agent": return verlAgentRows(p, calls, opts);
    case "rllm": return rllmRows(p, calls, opts);
    case "skyrl": return skyrlRows(p, calls, opts);
    case "agent_lightning": return agentLightningRows(p, calls, opts);
  }
}

/** A trainer row's key in snapshot diffs: its trace and call, or its trace for the per-trace forms. */
export function trainerRowKey(form: TrainerForm, row: Record<string, unknown>): string {
  const at = (key: string) => (row[key] as Record<string, unknown> | null | undefined) ?? {};
  switch (form) {
    case "verl": return JSON.stringify([at("extra_info").trace_id, at("extra_info").call_id]);
    case "verl_agent": return JSON.stringify([row.traj_uid, row.call_id]);
    case "skyrl": return JSON.stringify([row.trajectory_id, at("baton").call_id]);
    case "rllm": return JSON.stringify([at("task").trace_id]);
    case "agent_lightning": return JSON.stringify([row.rollout_id]);
  }
}
