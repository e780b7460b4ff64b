import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, data } from "../adapters/fixtures";
import type { AdaptedTrace } from "../adapters/types";
import { prepareTrace } from "../credit";
import { demoTraces } from "../demo";
import { BUILTIN_PRESETS } from "../rewards/presets";
import type { ModelCall } from "../trace/calls";
import { validateTrace } from "../trace/validate";
import { parquetBuffer, parquetChunks } from "./parquet";
import { formColumns } from "./parquet-forms";
import { chatMessage, TRAINER_FORMS, trainerRows, type TrainerForm } from "./trainers";

/**
 * The trainer forms written to Parquet and read back with DuckDB: the file's
 * columns, types and nullability are those of the fixture schema read from
 * each trainer's source (fixtures/trainer-schemas), and one row's values
 * are those of the source trace, checked by hand.
 */

interface Schema {
  form: string;
  repository: string;
  commit: string;
  files: string[];
  columns: { name: string; duckdb_type: string; nullable: boolean }[];
  never_null: string[];
}
const schemaOf = (form: TrainerForm): Schema => JSON.parse(readFileSync(`lib/export/fixtures/trainer-schemas/${form}.json`, "utf8")) as Schema;

const dir = mkdtempSync(path.join(tmpdir(), "baton-trainers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const opts = { method: "ccp" as const, preset: BUILTIN_PRESETS.customer_support, normalize: false, annotationsAsOf: "2026-12-01T10:00:00.000Z", hackingFlags: ["tool_spam"] };

let trace: AdaptedTrace;
beforeAll(async () => {
  // tau-bench, gpt-4o airline, task 0 trial 0: 15 model calls of the airline agent, no token ids, a failed run (task_success -1)
  trace = (await collect("taubench", data("tau_bench/gpt-4o-airline.json")))[0]!;
});

/** Writes rows of a form to Parquet and reads them back: DuckDB's DESCRIBE, the Parquet schema's repetition, and the rows. */
async function written(form: TrainerForm, rows: object[]) {
  const file = path.join(dir, `${form}-${Math.random().toString(36).slice(2)}.parquet`);
  writeFileSync(file, await parquetBuffer(parquetChunks(rows, formColumns(form, rows[0]))));
  const connection = await (await DuckDBInstance.create(":memory:")).connect();
  const described = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${file}')`)).getRowObjectsJson() as { column_name: string; column_type: string }[];
  const repetition = (await connection.runAndReadAll(`SELECT name, repetition_type FROM parquet_schema('${file}') WHERE name <> 'duckdb_schema' AND repetition_type IS NOT NULL`)).getRowObjectsJson() as { name: string; repetition_type: string }[];
  const read = (await connection.runAndReadAll(`SELECT * FROM read_parquet('${file}')`)).getRowObjectsJson() as Record<string, unknown>[];
  connection.closeSync();
  return { described, repetition, read };
}

/** DuckDB's JSON values of a row: nested JSON leaves come back as text; compared after parsing the fields tests look at. */
const expectSchema = (form: TrainerForm, w: Awaited<ReturnType<typeof written>>) => {
  const schema = schemaOf(form);
  expect(w.described.map((d) => [d.column_name, d.column_type])).toEqual(schema.columns.map((c) => [c.name, c.duckdb_type]));
  // every column and nested field optional (the root aside), lists as repeated groups
  expect(new Set(w.repetition.filter((r) => r.name !== "root" && r.name !== "schema").map((r) => r.repetition_type))).toEqual(new Set(["OPTIONAL", "REPEATED"]));
  for (const row of w.read) for (const name of schema.never_null) expect(row[name], `${form}.${name}`).not.toBeNull();
  expect(schema.commit).toMatch(/[0-9a-f]{40}/);
};

describe("trainer forms of a tau-bench trace, read back with DuckDB", () => {
  it("every form has the columns, types and nullability of its fixture schema", async () => {
    const p = prepareTrace(trace);
    for (const form of TRAINER_FORMS) {
      const rows = [...trainerRows(form, p, trace.calls!, opts)];
      expect(rows.length, form).toBe(form === "rllm" || form === "agent_lightning" ? 1 : 15);
      expectSchema(form, await written(form, rows));
    }
  });

  it("verl: the sixth call's prompt as chat messages, the reply and Baton's values in extra_info", async () => {
    const rows = [...trainerRows("verl", prepareTrace(trace), trace.calls!, opts)];
    const { read } = await written("verl", rows);
    const row = read[5]!;
    expect(row.data_source).toBe("baton");
    const prompt = row.prompt as { role: string; content: string | null; tool_calls: unknown; tool_call_id: string | null }[];
    // traj[12] of task 0 trial 0 (lib/adapters/taubench.test.ts): the conversation so far
    expect(prompt.map((m) => m.role)).toEqual(["system", "user", "assistant", "user", "assistant", "user", "assistant", "tool", "assistant", "tool", "assistant", "user"]);
    expect(prompt[0]!.content).toBe(trace.metadata!.system_prompt);
    expect(prompt[6]!.tool_calls).toEqual([{ id: "call_oIHazX6yQrB8hUwl4cRilFKj", type: "function", function: { name: "get_user_details", arguments: '{"user_id":"mia_li_3668"}' } }]);
    expect(prompt[6]!.tool_call_id).toBeNull();
    expect(prompt[7]!.tool_call_id).toBe("call_oIHazX6yQrB8hUwl4cRilFKj");
    expect(prompt[11]!.tool_calls).toBeNull();
    const extra = row.extra_info as Record<string, unknown>;
    expect(extra.response).toEqual({
      role: "assistant", content: null, tool_call_id: null,
      tool_calls: [{ id: "call_HGn16KZh9oNCruxsMJ4gYXan", type: "function", function: { name: "search_onestop_flight", arguments: '{"origin":"JFK","destination":"SEA","date":"2024-05-20"}' } }],
    });
    expect(row.reward_model).toEqual({ style: "baton", ground_truth: null });
    expect(extra.index).toBe(5);
    expect(extra.call_id).toBe("call6");
    expect(extra.trace_id).toBe("taubench-gpt-4o-airline-task0-trial0");
    expect(extra.anchor_obs).toBe(JSON.stringify(["airline_agent", "tool_call", "search_onestop_flight"]));
    // no event carries a reward of its own: the call's reward is 0; task_success -1 (weight 1) is spread by CCP along the
    // chain of 30 events, each step back keeping 0.7: the call's event e12 is 19 steps from the end, credit -0.7^19
    expect(extra.reward).toBe(0);
    expect(extra.credit as number).toBeCloseTo(-(0.7 ** 19), 15);
    expect(extra.advantage).toBe(extra.credit);
    expect(extra.hacking_flags).toEqual(["tool_spam"]);
  });

  it("verl-agent: one step per call with uid, traj_uid, anchor_obs, active_masks, rewards and the episode's sums", async () => {
    const { read } = await written("verl_agent", [...trainerRows("verl_agent", prepareTrace(trace), trace.calls!, opts)]);
    const last = read[14]!;
    expect([last.uid, last.traj_uid, last.step, last.call_id]).toEqual(["taubench-gpt-4o-airline-task0", "taubench-gpt-4o-airline-task0-trial0", 14, "call15"]);
    expect([last.active_masks, last.is_action_valid, last.rewards, last.episode_rewards, last.episode_lengths]).toEqual([true, true, 0, 0, 15]);
    // the final answer, the last event of the chain: credit -0.7
    expect(last.advantages as number).toBeCloseTo(-0.7, 12);
    expect(last.prompt_token_ids).toBeNull();
    expect((last.response as { content: string }).content).toContain("has been successfully booked");
    expect(new Set(read.map((r) => r.uid))).toEqual(new Set(["taubench-gpt-4o-airline-task0"]));
  });

  it("rLLM: one Episode, a trajectory for the agent, a step per call ([] token ids: the calls have none)", async () => {
    const { read } = await written("rllm", [...trainerRows("rllm", prepareTrace(trace), trace.calls!, opts)]);
    const episode = read[0]!;
    expect(episode.id).toBe("taubench-gpt-4o-airline-task0:taubench-gpt-4o-airline-task0-trial0");
    expect(episode.is_correct).toBe(false);
    expect(episode.termination_reason).toBe("unknown");
    const trajectories = episode.trajectories as { name: string; steps: Record<string, unknown>[]; reward: number }[];
    expect(trajectories.map((t) => [t.name, t.steps.length])).toEqual([["assistant", 15]]);
    const step = trajectories[0]!.steps[5]!;
    expect([step.prompt_ids, step.response_ids, step.logprobs, step.done, step.reward, step.mc_return]).toEqual([[], [], [], false, 0, 0]);
    expect((step.chat_completions as unknown[]).length).toBe(13);
    expect(step.observation).toBe(trace.calls![5]!.input[11]!.content);
    expect(trajectories[0]!.steps[14]!.done).toBe(true);
    expect(step.advantage as number).toBeCloseTo(-(0.7 ** 19), 15);
    // R_total under customer_support: task_success -1 with weight 1 (the file reports no other family)
    expect((episode.metrics as { r_total: number }).r_total).toBe(-1);
  });

  it("SkyRL and Agent Lightning: without token ids, SkyRL rows have null ids and masks and the rollout has no triplets", async () => {
    const p = prepareTrace(trace);
    const sky = (await written("skyrl", [...trainerRows("skyrl", p, trace.calls!, opts)])).read;
    expect([sky[14]!.prompt_token_ids, sky[14]!.response_ids, sky[14]!.loss_masks, sky[14]!.is_last_step, sky[13]!.is_last_step]).toEqual([null, null, null, true, false]);
    expect(sky[14]!.rewards as number).toBeCloseTo(-0.7, 12);
    const agl = (await written("agent_lightning", [...trainerRows("agent_lightning", p, trace.calls!, opts)])).read;
    expect([agl[0]!.rollout_id, agl[0]!.data_id, agl[0]!.final_reward, agl[0]!.triplets, agl[0]!.calls_without_token_ids]).toEqual(["taubench-gpt-4o-airline-task0-trial0", "taubench-gpt-4o-airline-task0", -1, [], 15]);
  });
});

describe("trainer forms of calls with token ids (lib/export/fixtures/calls-trace.json)", () => {
  const result = validateTrace(JSON.parse(readFileSync("lib/export/fixtures/calls-trace.json", "utf8")));
  if (!result.ok) throw new Error("fixture invalid");
  const t = result.trace;
  // call order (by t): c1 (ids [1,2,3] -> [4,5]), c2, c3; c1 given logprobs and a developer message here
  const calls: ModelCall[] = [...t.calls!].sort((a, b) => a.t - b.t).map((c) => (c.id === "c1" ? { ...c, input: [{ role: "developer", content: "Be brief." }, ...c.input], response_logprobs: [-0.5, -0.25], token_source: "server" } : c));
  const p = prepareTrace(t);

  it("SkyRL: ids, a loss mask of ones over the response, logprobs; null where a call has none", async () => {
    const rows = [...trainerRows("skyrl", p, calls, opts)];
    const w = await written("skyrl", rows);
    expectSchema("skyrl", w);
    expect([w.read[0]!.prompt_token_ids, w.read[0]!.response_ids, w.read[0]!.loss_masks, w.read[0]!.rollout_logprobs]).toEqual([[1, 2, 3], [4, 5], [1, 1], [-0.5, -0.25]]);
    expect((w.read[0]!.prompt as { role: string }[]).map((m) => m.role)).toEqual(["system", "user"]);
    expect([w.read[1]!.response_ids, w.read[1]!.loss_masks]).toEqual([null, null]);
  });

  it("Agent Lightning: a triplet for the one call with response ids; the others counted", async () => {
    const w = await written("agent_lightning", [...trainerRows("agent_lightning", p, calls, opts)]);
    expectSchema("agent_lightning", w);
    const triplets = w.read[0]!.triplets as { prompt: unknown; response: unknown; reward: number; metadata: Record<string, unknown> }[];
    expect(triplets).toHaveLength(1);
    expect(triplets[0]!.prompt).toEqual({ token_ids: [1, 2, 3] });
    expect(triplets[0]!.response).toEqual({ token_ids: [4, 5], log_probs: [-0.5, -0.25] });
    expect(triplets[0]!.metadata.call_id).toBe("c1");
    expect(triplets[0]!.metadata.token_source).toBe("server");
    expect(triplets[0]!.reward).toBe(triplets[0]!.metadata.advantage);
    expect(w.read[0]!.calls_without_token_ids).toBe(2);
  });

  it("rLLM: a trajectory per agent in call order; ids where the call has them", async () => {
    const w = await written("rllm", [...trainerRows("rllm", p, calls, opts)]);
    expectSchema("rllm", w);
    const trajectories = w.read[0]!.trajectories as { name: string; steps: { prompt_ids: number[]; response_ids: number[]; logprobs: number[]; model_response: string; done: boolean }[] }[];
    expect(trajectories.map((x) => [x.name, x.steps.length])).toEqual([["orch", 2], ["w", 1]]);
    expect(trajectories[0]!.steps[0]).toMatchObject({ prompt_ids: [1, 2, 3], response_ids: [4, 5], logprobs: [-0.5, -0.25], model_response: "spawn(w)", done: false });
    // c3's reply in parts: its text parts joined
    expect(trajectories[0]!.steps[1]).toMatchObject({ prompt_ids: [], model_response: "Brief.", done: true });
  });
});

describe("trainer forms of the demo data", () => {
  it("every demo trace with calls, in every form: the fixture's schema, a row per call (per trace for rllm and agent_lightning)", async () => {
    const traces = demoTraces().filter((t) => (t.calls ?? []).length > 0);
    expect(traces.length).toBeGreaterThan(0);
    const calls = traces.reduce((n, t) => n + t.calls!.length, 0);
    for (const form of TRAINER_FORMS) {
      const rows = traces.flatMap((t) => [...trainerRows(form, prepareTrace(t), t.calls!, opts)]);
      expect(rows.length, form).toBe(form === "rllm" || form === "agent_lightning" ? traces.length : calls);
      expectSchema(form, await written(form, rows));
    }
  });
});

describe("chatMessage", () => {
  it("developer becomes system, function becomes tool, parts become their text, object arguments their JSON", () => {
    expect(chatMessage({ role: "developer", content: "x" })).toEqual({ role: "system", content: "x", tool_calls: null, tool_call_id: null });
    expect(chatMessage({ role: "function", content: "r", tool_call_id: "k" }).role).toBe("tool");
    expect(chatMessage({ role: "user", content: [{ type: "text", text: "a" }, { type: "image_url", image_url: "u" }, { type: "text", text: "b" }] }).content).toBe("ab");
    expect(chatMessage({ role: "user", content: [{ type: "image_url", image_url: "u" }] }).content).toBeNull();
    expect(chatMessage({ role: "assistant", content: null, tool_calls: [{ name: "f", arguments: { a: 1 } }] }).tool_calls).toEqual([{ id: null, type: "function", function: { name: "f", arguments: '{"a":1}' } }]);
    expect(chatMessage("plain")).toEqual({ role: "assistant", content: "plain", tool_calls: null, tool_call_id: null });
  });

  it("property: no developer role, every tool call's arguments JSON text of what was sent, text content unchanged", () => {
    const args = fc.oneof(fc.string(), fc.dictionary(fc.string(), fc.jsonValue()));
    const message = fc.record({
      role: fc.constantFrom("system", "developer", "user", "assistant", "tool", "function"),
      content: fc.oneof(fc.string(), fc.constant(null)),
      tool_calls: fc.option(fc.array(fc.record({ id: fc.option(fc.string(), { nil: undefined }), name: fc.string(), arguments: args }, { requiredKeys: ["name", "arguments"] })), { nil: undefined }),
    });
    fc.assert(fc.property(message, (m) => {
      const out = chatMessage(m);
      expect(["system", "user", "assistant", "tool"]).toContain(out.role);
      expect(out.content).toBe(m.content);
      expect(out.tool_calls?.length ?? 0).toBe(m.tool_calls?.length ?? 0);
      out.tool_calls?.forEach((c, i) => {
        const sent = m.tool_calls![i]!.arguments;
        expect(typeof c.function.arguments).toBe("string");
        if (typeof sent === "string") expect(c.function.arguments).toBe(sent);
        else expect(JSON.parse(c.function.arguments)).toEqual(JSON.parse(JSON.stringify(sent)));
      });
    }));
  });
});
